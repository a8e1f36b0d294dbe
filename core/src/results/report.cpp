#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/link.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/build_note.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/readable.hpp>
#include <vrambench/core/results/report.hpp>
#include <vrambench/core/run/runner.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

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
    if (text_or(curve, "x_unit", "") == "bytes") {
        const std::string size = format_size(static_cast<uint64_t>(x));
        return text_or(curve, "x", "") == "offset_bytes" ? "+" + size : size;
    }
    return fmt::format("{:.0f}", x);
}

// A curve as a few compact lines under its row: four points a line, each marked with
// the plateau it belongs to, then the plateaus with their level and where each ends.
std::string curve_text(const nlohmann::json &curve, const ReadableScale &scale)
{
    constexpr int per_line = 4;
    const auto &points = curve.at("points");
    const auto &plateaus = curve.at("plateaus");
    const std::string x_name = text_or(curve, "x", "x");
    std::string out;
    int column = 0;
    for (const auto &p : points) {
        const double x = p.at(x_name).get<double>();
        std::string value = "-", mark;
        if (p["value"].is_number()) {
            value = readable_number(p["value"].get<double>(), scale);
            for (const auto &plateau : plateaus)
                if (x >= plateau["from"].get<double>() && x <= plateau["to"].get<double>())
                    mark = plateau["name"].get<std::string>();
        }
        if (text_or(p, "status", "ok") != "ok" && text_or(p, "status", "ok") != "suspect")
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
        out += fmt::format(" {} {} {}", plateau["name"].get<std::string>(),
                           readable_number(plateau["value"].get<double>(), scale), scale.unit);
        if (plateau.contains("cycles")) out += fmt::format(" ({:.0f} cycles)", plateau["cycles"].get<double>());
        if (k + 1 < plateaus.size())
            out += fmt::format(" to {};", x_text(curve, plateau["ends_at"].get<double>()));
        else
            out += fmt::format(" from {}", x_text(curve, plateau["from"].get<double>()));
    }
    return out + "\n";
}

// What a failed verification ran and what came back wrong, on its own line under the
// row: the operation, width, memory kind and count from the parameters, then the
// detail (count wrong, first wrong lane, expected and actual) as the result JSON has it.
std::string verification_text(const ProbeResult &r)
{
    const nlohmann::json &p = r.parameters;
    std::string what = p.contains("operation") && p["operation"].is_string() ? p["operation"].get<std::string>() : "";
    if (p.contains("element_bytes") && p["element_bytes"].is_number_integer())
        what += fmt::format(" at {} bytes", p["element_bytes"].get<uint64_t>());
    if (p.contains("memory_kind") && p["memory_kind"].is_string()) what += " on " + p["memory_kind"].get<std::string>();
    if (p.contains("elements") && p["elements"].is_number_integer())
        what += fmt::format(", {} elements", p["elements"].get<uint64_t>());
    else if (p.contains("array_bytes") && p["array_bytes"].is_number_integer())
        what += ", " + format_size(p["array_bytes"].get<uint64_t>());
    std::string detail = r.verification.detail;
    // The integrity probe's detail names the first wrong byte; its values are in extra.
    if (r.extra.is_object() && r.extra.contains("first_addresses") && r.extra["first_addresses"].is_array() &&
        !r.extra["first_addresses"].empty()) {
        const nlohmann::json &first = r.extra["first_addresses"][0];
        if (first.contains("expected") && first.contains("actual") && first["actual"].is_string() &&
            first["expected"].is_string() && detail.find(first["actual"].get<std::string>()) == std::string::npos)
            detail += fmt::format(": {}, expected {}", first["actual"].get<std::string>(),
                                  first["expected"].get<std::string>());
    }
    if (what.empty()) return fmt::format("    verification failed: {}\n", detail);
    return fmt::format("    verification failed: {}: {}\n", what, detail);
}

} // namespace

std::string table_header()
{
    return fmt::format("{:<22} {:<10} {:<28} {:>11} {:>8} {:>7} {:<10} {}\n", "probe", "device", "parameters", "value",
                       "unit", "cv%", "verified", "status");
}

std::string table_row(const ProbeResult &r)
{
    // Every figure in the unit a person reads it in: 116.46 µs, not 0.00 s.
    const ReadableScale scale = readable_scale(r.value.value_or(0), r.unit);
    const std::string value = r.value ? readable_number(*r.value, scale) : "-";
    const std::string cv = r.statistics ? fmt::format("{:.1f}", r.statistics->cv * 100) : "-";
    std::string status(to_string(r.status));
    if (r.error) status += ": " + *r.error;
    std::string row =
        fmt::format("{:<22} {:<10} {:<28} {:>11} {:>8} {:>7} {:<10} {}\n", r.probe, r.device,
                    parameter_text(r.parameters), value, scale.unit, cv, to_string(r.verification.status), status);
    if (r.verification.status == Verification::Status::failed) row += verification_text(r);
    if (r.extra.is_object() && r.extra.contains("curve")) row += curve_text(r.extra["curve"], scale);
    return row;
}

std::string device_heading(const nlohmann::json &d)
{
    std::string line =
        fmt::format("{}: {} ({}", d["id"].get<std::string>(), text_or(d, "name", "?"), text_or(d, "api", "?"));
    if (d.value("total_memory_bytes", nlohmann::json()).is_number())
        line += ", " + format_size(d["total_memory_bytes"].get<uint64_t>());
    if (d.value("peak_bandwidth_gbps", nlohmann::json()).is_number()) {
        const nlohmann::json peak = object_or_empty(d, "peak");
        line += fmt::format(", peak {:.1f} GB/s{}", d["peak_bandwidth_gbps"].get<double>(),
                            text_or(peak, "source", "").empty() ? "" : " (" + text_or(peak, "source", "") + ")");
        if (flag_or(peak, "disagreement", false)) line += ", runtime clock disagrees";
    }
    if (const nlohmann::json llc = object_or_empty(d, "last_level_cache");
        llc.value("bytes", nlohmann::json()).is_number())
        line += fmt::format(", last-level cache {} ({})", format_size(llc["bytes"].get<uint64_t>()),
                            text_or(llc, "source", ""));
    line += ")\n";
    // Said before the device's first figure: what the standard suite gave up to keep its time.
    if (const nlohmann::json budget = object_or_empty(d, "time_budget"); budget.contains("budget_seconds")) {
        line += fmt::format("  time budget {:.0f} s, estimated {:.1f} s", number_or(budget, "budget_seconds", 0.0),
                            number_or(budget, "estimate_seconds", 0.0));
        if (count_or(budget, "economy", 0) > 0)
            line += fmt::format(" with {} ({:.1f} s with all of them)", text_or(budget, "given_up", "?"),
                                number_or(budget, "unbudgeted_estimate_seconds", 0.0));
        line += "\n";
    }
    return line;
}

std::string describe_backends(const nlohmann::json &backends)
{
    std::string out;
    if (backends.empty())
        out += "no backend modules found (searched next to the executable and VRAMBENCH_PLUGIN_PATH)\n";
    // One card seen through several APIs has one key: each device names the others.
    std::map<std::string, std::vector<std::string>> cards;
    for (const auto &b : backends)
        if (text_or(b, "state", "") == "available")
            for (const auto &d : array_or_empty(b, "devices"))
                if (d.contains("key") && d["key"].is_string())
                    cards[d["key"].get<std::string>()].push_back(d["id"].get<std::string>());
    for (const auto &b : backends) {
        const std::string name = b["name"], state = b["state"];
        if (state != "available") {
            // A second module of a name is a note: the first is used and nothing is wrong.
            out += fmt::format("{:<8} {}: {}\n", name, state == "refused" ? "skipped" : state,
                               b["reason"].is_string() ? b["reason"].get<std::string>() : "");
            continue;
        }
        const auto &devices = b["devices"];
        out += fmt::format("{:<8} {} device{} ({})\n", name, devices.size(), devices.size() == 1 ? "" : "s",
                           b["file"].get<std::string>());
        if (b.value("build", "") == "unoptimized") out += fmt::format("  {}\n", unoptimized_warning());
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
            if (const std::string link = link_summary_text(d); !link.empty()) out += "      pcie link " + link + "\n";
            if (const std::string fabric = fabric_summary_text(d); !fabric.empty())
                out += "      fabric " + fabric + "\n";
            for (const auto &k : d["memory_kinds"])
                out += fmt::format("      memory kind {}: {} [{}]\n", k["index"].dump(), k["name"].get<std::string>(),
                                   fmt::join(k["flags"].get<std::vector<std::string>>(), ","));
        }
    }
    return out;
}

std::string describe_device_text(const nlohmann::json &d)
{
    using nlohmann::json;
    std::string out = fmt::format("{}: {}\n", d["id"].get<std::string>(), d["name"].get<std::string>());
    const json unknown = object_or_empty(d, "unknown");
    std::set<std::string> explained;
    auto line = [&](std::string_view label, const std::string &text) {
        out += fmt::format("  {:<22} {}\n", label, text);
    };
    // A field the API did not report reads "unknown", with the reason where one is given.
    auto field = [&](std::string_view label, const char *key, auto &&text_of) {
        const json &v = d.contains(key) ? d[key] : json();
        if (!v.is_null()) return line(label, text_of(v));
        explained.insert(key);
        const json why = unknown.value(key, json());
        line(label, why.is_string() ? "unknown: " + why.get<std::string>() : "unknown");
    };
    auto text = [](const json &v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    auto size = [](const json &v) { return format_size(v.get<uint64_t>()); };
    auto mhz = [](const json &v) { return fmt::format("{:.0f} MHz", v.get<double>() / 1000); };
    field("key", "key", text);
    field("type", "type", text);
    field("vendor", "vendor", text);
    field("api", "api", text);
    field("api version", "api_version", text);
    field("driver version", "driver_version", text);
    // As lspci writes them: the address, then vendor:device in hex.
    field("pci", "pci", [](const json &pci) {
        std::string ids = "ids unknown";
        if (pci.value("vendor_id", json()).is_number() && pci.value("device_id", json()).is_number())
            ids = fmt::format("{:04x}:{:04x}", pci["vendor_id"].get<uint32_t>(), pci["device_id"].get<uint32_t>());
        const json address = pci.value("address", json());
        return address.is_string() ? address.get<std::string>() + " " + ids : ids + " (address unknown)";
    });
    field("uuid", "uuid", text);
    if (const std::string link = link_summary_text(d); !link.empty()) {
        line("pcie link", link);
        explained.insert("link");
    }
    if (const std::string fabric = fabric_summary_text(d); !fabric.empty()) {
        line("fabric", fabric);
        explained.insert("fabric");
    }
    field("total memory", "total_memory_bytes", size);
    field("free memory", "free_memory_bytes", size);
    field("compute units", "compute_units", text);
    field("core clock", "core_clock_khz", mhz);
    field("memory bus width", "memory_bus_width_bits", [](const json &v) { return v.dump() + " bits"; });
    field("memory clock", "memory_clock_khz", mhz);
    field("peak bandwidth", "peak_bandwidth_gbps", [&](const json &v) {
        const json peak = object_or_empty(d, "peak");
        const std::string source = text_or(peak, "source", "");
        return fmt::format("{:.1f} GB/s{}", v.get<double>(), source.empty() ? "" : " (" + source + ")");
    });
    for (const auto &c : array_or_empty(d, "caches"))
        line(fmt::format("cache L{} {}", c["level"].get<int>(), c["kind"].get<std::string>()),
             format_size(c["bytes"].get<uint64_t>()) +
                 (c["shared_by"].is_null() ? "" : fmt::format(", shared by {}", c["shared_by"].dump())));
    for (const auto &h : array_or_empty(d, "heaps"))
        line(fmt::format("heap {}", h["index"].dump()),
             fmt::format("{} ({})", format_size(h["bytes"].get<uint64_t>()),
                         fmt::join(h["flags"].get<std::vector<std::string>>(), ", ")));
    for (const auto &k : array_or_empty(d, "memory_kinds"))
        line(fmt::format("memory kind {}", k["index"].dump()),
             fmt::format("{} ({})", k["name"].get<std::string>(),
                         fmt::join(k["flags"].get<std::vector<std::string>>(), ", ")));
    const json properties = object_or_empty(d, "properties");
    for (const auto &[key, value] : properties.items())
        line(key, text(value));
    for (const auto &[key, value] : unknown.items())
        if (!explained.contains(key)) line(key, "unknown: " + text(value));
    return out;
}

} // namespace vrb
