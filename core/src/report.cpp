#include <vrambench/core/report.hpp>
#include <vrambench/core/runner.hpp>
#include <vrambench/core/sizes.hpp>

#include <fmt/format.h>

#include <map>

namespace vrb {

namespace {

std::string parameter_text(const nlohmann::json &p)
{
    // An interop result is first of all its pair.
    std::string out = p.contains("pair") && p["pair"].is_string() ? p["pair"].get<std::string>() : "";
    for (const char *key : {"operation", "element_bytes"}) {
        if (!p.contains(key)) continue;
        if (!out.empty()) out += ' ';
        out += p[key].is_string() ? p[key].get<std::string>() : p[key].dump();
        if (std::string_view(key) == "element_bytes") out += "B";
    }
    if (p.contains("array_bytes")) out += " x " + format_size(p["array_bytes"].get<uint64_t>());
    if (p.contains("from_bytes") && p.contains("to_bytes"))
        out += " " + format_size(p["from_bytes"].get<uint64_t>()) + ".." + format_size(p["to_bytes"].get<uint64_t>());
    if (p.contains("indices")) out += " " + p["indices"].get<std::string>();
    if (p.contains("direction")) out += " " + p["direction"].get<std::string>();
    if (p.contains("memory_kind") && p.contains("memory_kind_index")) out += " " + p["memory_kind"].get<std::string>();
    return out;
}

std::string x_text(const nlohmann::json &curve, double x)
{
    if (curve.value("x_unit", "") == "bytes") {
        const std::string size = format_size(static_cast<uint64_t>(x));
        return curve.value("x", "") == "offset_bytes" ? "+" + size : size;
    }
    return fmt::format("{:.0f}", x);
}

// A curve as a few compact lines under its row: four points a line, each marked with
// the plateau it belongs to, then the plateaus with their level and where each ends.
std::string curve_text(const nlohmann::json &curve, std::string_view unit)
{
    constexpr int per_line = 4;
    const auto &points = curve.at("points");
    const auto &plateaus = curve.at("plateaus");
    const std::string x_name = curve.value("x", "x");
    std::string out;
    int column = 0;
    for (const auto &p : points) {
        const double x = p.at(x_name).get<double>();
        std::string value = "-", mark;
        if (p["value"].is_number()) {
            value = fmt::format("{:.2f}", p["value"].get<double>());
            for (const auto &plateau : plateaus)
                if (x >= plateau["from"].get<double>() && x <= plateau["to"].get<double>())
                    mark = plateau["name"].get<std::string>();
        }
        if (p.value("status", "ok") != "ok" && p.value("status", "ok") != "suspect")
            mark = "!" + p["status"].get<std::string>();
        out += fmt::format("{}{:>10} {:>9} {:<8}", column == 0 ? "    " : "", x_text(curve, x), value, mark);
        if (++column == per_line) {
            out += "\n";
            column = 0;
        }
    }
    if (column) out += "\n";
    if (plateaus.empty()) return out;
    out += "    plateaus:";
    for (std::size_t k = 0; k < plateaus.size(); ++k) {
        const auto &plateau = plateaus[k];
        out += fmt::format(" {} {:.2f} {}", plateau["name"].get<std::string>(), plateau["value"].get<double>(), unit);
        if (plateau.contains("cycles")) out += fmt::format(" ({:.0f} cycles)", plateau["cycles"].get<double>());
        if (k + 1 < plateaus.size())
            out += fmt::format(" to {};", x_text(curve, plateau["ends_at"].get<double>()));
        else
            out += fmt::format(" from {}", x_text(curve, plateau["from"].get<double>()));
    }
    return out + "\n";
}

std::string csv_escape(std::string s)
{
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string table_header()
{
    return fmt::format("{:<18} {:<10} {:<28} {:>11} {:>8} {:>7} {:<10} {}\n", "probe", "device", "parameters", "value",
                       "unit", "cv%", "verified", "status");
}

std::string table_row(const ProbeResult &r)
{
    const std::string value = r.value ? fmt::format("{:.2f}", *r.value) : "-";
    const std::string cv = r.statistics ? fmt::format("{:.1f}", r.statistics->cv * 100) : "-";
    std::string status(to_string(r.status));
    if (r.error) status += ": " + *r.error;
    std::string row =
        fmt::format("{:<18} {:<10} {:<28} {:>11} {:>8} {:>7} {:<10} {}\n", r.probe, r.device,
                    parameter_text(r.parameters), value, r.unit, cv, to_string(r.verification.status), status);
    if (r.extra.is_object() && r.extra.contains("curve")) row += curve_text(r.extra["curve"], r.unit);
    return row;
}

std::string device_heading(const nlohmann::json &d)
{
    std::string line = fmt::format("{}: {} ({}", d["id"].get<std::string>(), d.value("name", "?"), d.value("api", "?"));
    if (d.value("total_memory_bytes", nlohmann::json()).is_number())
        line += ", " + format_size(d["total_memory_bytes"].get<uint64_t>());
    if (d.value("peak_bandwidth_gbps", nlohmann::json()).is_number()) {
        const nlohmann::json peak = d.value("peak", nlohmann::json::object());
        line += fmt::format(", peak {:.1f} GB/s{}", d["peak_bandwidth_gbps"].get<double>(),
                            peak.value("source", "").empty() ? "" : " (" + peak.value("source", "") + ")");
        if (peak.value("disagreement", false)) line += ", runtime clock disagrees";
    }
    if (const nlohmann::json llc = d.value("last_level_cache", nlohmann::json::object());
        llc.value("bytes", nlohmann::json()).is_number())
        line += fmt::format(", last-level cache {} ({})", format_size(llc["bytes"].get<uint64_t>()),
                            llc.value("source", ""));
    return line + ")\n";
}

std::string describe_backends(const nlohmann::json &backends)
{
    std::string out;
    if (backends.empty())
        out += "no backend modules found (searched next to the executable and VRAMBENCH_PLUGIN_PATH)\n";
    // One card seen through several APIs has one key: each device names the others.
    std::map<std::string, std::vector<std::string>> cards;
    for (const auto &b : backends)
        if (b.value("state", "") == "available")
            for (const auto &d : b.value("devices", nlohmann::json::array()))
                if (d.contains("key") && d["key"].is_string())
                    cards[d["key"].get<std::string>()].push_back(d["id"].get<std::string>());
    for (const auto &b : backends) {
        const std::string name = b["name"], state = b["state"];
        if (state != "available") {
            out += fmt::format("{:<8} {}: {}\n", name, state,
                               b["reason"].is_string() ? b["reason"].get<std::string>() : "");
            continue;
        }
        const auto &devices = b["devices"];
        out += fmt::format("{:<8} {} device{} ({})\n", name, devices.size(), devices.size() == 1 ? "" : "s",
                           b["file"].get<std::string>());
        for (const auto &d : devices) {
            if (d.contains("error")) {
                out += fmt::format("  {}: cannot be opened: {}\n", d["id"].get<std::string>(),
                                   d["error"].get<std::string>());
                continue;
            }
            out += "  " + device_heading(d);
            if (d.contains("key") && d["key"].is_string()) {
                const std::string key = d["key"].get<std::string>(), id = d["id"].get<std::string>();
                std::vector<std::string> same;
                for (const std::string &other : cards[key])
                    if (other != id) same.push_back(other);
                out += fmt::format("      card {}{}\n", key,
                                   same.empty() ? "" : fmt::format(" (the same card as {})", fmt::join(same, ", ")));
            }
            for (const auto &k : d["memory_kinds"])
                out += fmt::format("      memory kind {}: {} [{}]\n", k["index"].dump(), k["name"].get<std::string>(),
                                   fmt::join(k["flags"].get<std::vector<std::string>>(), ","));
        }
    }
    return out;
}

std::string csv_header()
{
    return "probe,backend,device,operation,element_bytes,array_bytes,value,unit,estimator,min,median,max,cv,"
           "efficiency,verification,status,error\n";
}

std::string csv_rows(const nlohmann::json &doc)
{
    std::string out;
    for (const auto &r : doc.at("results")) {
        const auto &p = r.at("parameters");
        const auto &s = r.at("statistics");
        auto field = [](const nlohmann::json &v) -> std::string {
            if (v.is_null()) return "";
            return v.is_string() ? csv_escape(v.get<std::string>()) : v.dump();
        };
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", field(r["probe"]),
                           field(r["backend"]), field(r["device"]), field(p.value("operation", nlohmann::json())),
                           field(p.value("element_bytes", nlohmann::json())),
                           field(p.value("array_bytes", nlohmann::json())), field(r["value"]), field(r["unit"]),
                           field(r["estimator"]), s.is_null() ? "" : field(s["min"]),
                           s.is_null() ? "" : field(s["median"]), s.is_null() ? "" : field(s["max"]),
                           s.is_null() ? "" : field(s["cv"]), field(r.value("efficiency", nlohmann::json())),
                           field(r["verification"]["status"]), field(r["status"]), field(r["error"]));
    }
    return out;
}

std::string describe_device_text(const nlohmann::json &d)
{
    std::string out = fmt::format("{}: {}\n", d["id"].get<std::string>(), d["name"].get<std::string>());
    auto line = [&](const char *label, const nlohmann::json &v) {
        std::string text;
        if (v.is_null()) {
            text = "unknown";
        } else if (v.is_string()) {
            text = v.get<std::string>();
        } else {
            text = v.dump();
        }
        out += fmt::format("  {:<22} {}\n", label, text);
    };
    for (const char *key : {"key", "type", "vendor", "api", "api_version", "driver_version", "uuid", "compute_units",
                            "core_clock_khz", "memory_bus_width_bits", "memory_clock_khz", "peak_bandwidth_gbps"})
        line(key, d[key]);
    for (const char *key : {"total_memory_bytes", "free_memory_bytes"})
        line(key, d[key].is_null() ? d[key] : nlohmann::json(format_size(d[key].get<uint64_t>())));
    if (!d["pci"].is_null()) line("pci", d["pci"]);
    for (const auto &c : d["caches"])
        out += fmt::format("  cache L{} {:<14} {}{}\n", c["level"].get<int>(), c["kind"].get<std::string>(),
                           format_size(c["bytes"].get<uint64_t>()),
                           c["shared_by"].is_null() ? "" : fmt::format(", shared by {}", c["shared_by"].dump()));
    for (const auto &h : d["heaps"])
        out += fmt::format("  heap {} {:<15} {}\n", h["index"].dump(), format_size(h["bytes"].get<uint64_t>()),
                           h["flags"].dump());
    for (const auto &k : d["memory_kinds"])
        out += fmt::format("  memory kind {} {:<30} {}\n", k["index"].dump(), k["name"].get<std::string>(),
                           k["flags"].dump());
    for (const auto &[key, value] : d["properties"].items())
        out += fmt::format("  {:<22} {}\n", key, value.get<std::string>());
    for (const auto &[key, value] : d["unknown"].items())
        out += fmt::format("  {:<22} unknown: {}\n", key, value.get<std::string>());
    return out;
}

} // namespace vrb
