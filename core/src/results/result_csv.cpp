// A result set as CSV, for spreadsheets: every figure one row, curves point by point.
#include <vrambench/core/results/csv.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/report.hpp>

#include <fmt/format.h>

namespace vrb {

namespace {

using nlohmann::json;

// Numbers in the shortest text that reads back as the same double; null as empty.
std::string field(const json &object, const char *key)
{
    if (!object.is_object() || !object.contains(key)) return "";
    const json &v = object[key];
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{}", v.get<double>());
    return v.dump();
}

std::string samples_count(const json &object)
{
    return object.contains("samples") && object["samples"].is_array() ? std::to_string(object["samples"].size()) : "";
}

} // namespace

std::string csv_header()
{
    return csv_line({"row",
                     "probe",
                     "backend",
                     "device",
                     "operation",
                     "element (bytes)",
                     "array (bytes)",
                     "memory kind",
                     "x",
                     "x value",
                     "x unit",
                     "value (unit)",
                     "unit",
                     "estimator",
                     "min (unit)",
                     "median (unit)",
                     "max (unit)",
                     "cv (stddev/mean)",
                     "samples",
                     "efficiency (of peak)",
                     "verification",
                     "status",
                     "error",
                     "parameters (JSON)"});
}

std::string csv_rows(const json &doc)
{
    std::string out;
    for (const auto &r : doc.at("results")) {
        const json &p = object_or_empty(r, "parameters");
        const json &s = object_or_empty(r, "statistics");
        const json &verification = object_or_empty(r, "verification");
        out += csv_line({"result",
                         field(r, "probe"),
                         field(r, "backend"),
                         field(r, "device"),
                         field(p, "operation"),
                         field(p, "element_bytes"),
                         field(p, "array_bytes"),
                         field(p, "memory_kind"),
                         "",
                         "",
                         "",
                         field(r, "value"),
                         field(r, "unit"),
                         field(r, "estimator"),
                         field(s, "min"),
                         field(s, "median"),
                         field(s, "max"),
                         field(s, "cv"),
                         samples_count(r),
                         field(r, "efficiency"),
                         field(verification, "status"),
                         field(r, "status"),
                         field(r, "error"),
                         p.dump()});
        const json &curve = object_or_empty(object_or_empty(r, "extra"), "curve");
        if (!curve.contains("points") || !curve["points"].is_array()) continue;
        const std::string x = field(curve, "x");
        for (const auto &point : curve["points"]) {
            const json &ps = object_or_empty(point, "statistics");
            out += csv_line({"point",
                             field(r, "probe"),
                             field(r, "backend"),
                             field(r, "device"),
                             field(p, "operation"),
                             field(p, "element_bytes"),
                             field(p, "array_bytes"),
                             field(p, "memory_kind"),
                             x,
                             field(point, x.c_str()),
                             field(curve, "x_unit"),
                             field(point, "value"),
                             field(r, "unit"),
                             field(r, "estimator"),
                             field(ps, "min"),
                             field(ps, "median"),
                             field(ps, "max"),
                             field(ps, "cv"),
                             samples_count(point),
                             "",
                             field(object_or_empty(point, "verification"), "status"),
                             field(point, "status"),
                             field(point, "error"),
                             p.dump()});
        }
    }
    return out;
}

} // namespace vrb
