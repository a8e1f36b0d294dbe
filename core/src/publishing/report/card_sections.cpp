// One card's sections: stream figures against the peak, the sweep and latency curves
// with their plateaus, memory kinds, transfers, capacity, integrity, what did not run,
// and the provenance of the set.
#include "builders.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/build_note.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace vrb::report {

namespace {

std::string status_text(const json &r)
{
    std::string text = text_or(r, "status", "");
    const json &v = object_or_empty(r, "verification");
    if (v.contains("status")) text += ", " + v["status"].get<std::string>();
    return text;
}

json stream_section(const Card &card)
{
    json section = make_section("Stream bandwidth");
    const auto results = results_of(*card.set, card.id, "bandwidth.stream");
    std::set<double> widths;
    std::vector<std::string> operations;
    for (const std::string &op : stream_operations())
        for (const json *r : results)
            if (usable(*r) && parameter_text(*r, "operation") == op) {
                operations.push_back(op);
                break;
            }
    for (const json *r : results)
        if (usable(*r)) widths.insert(parameter_number(*r, "element_bytes"));

    json chart = make_chart("Stream bandwidth per operation and element width", "bar",
                            category_axis("operation", operations), axis("GB/s", "linear"));
    json table = make_table({"operation", "element", "GB/s", "of peak", "status", "verification"});
    for (const double width : widths) {
        json points = json::array();
        for (const std::string &op : operations)
            for (const json *r : results)
                if (usable(*r) && parameter_text(*r, "operation") == op &&
                    parameter_number(*r, "element_bytes") == width)
                    points.push_back({{"x", op}, {"y", (*r)["value"]}});
        add_series(chart, fmt::format("{:.0f} B elements", width), std::move(points));
    }
    for (const json *r : results) {
        const json &eff = r->value("efficiency", json());
        add_row(table, {parameter_text(*r, "operation"), parameter_text(*r, "element_bytes") + " B",
                        usable(*r) ? fixed((*r)["value"].get<double>(), 2) : "-",
                        percent_text(eff.is_number() ? std::optional(eff.get<double>()) : std::nullopt),
                        text_or(*r, "status", ""), text_or(object_or_empty(*r, "verification"), "detail", "")});
    }
    add_peak_line(chart, *card.device);
    section["notes"].push_back(peak_sentence(*card.device));
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

// The plateaus of the first series that has some, shaded; each curve's are in the table.
json curve_section(const Card &card, const std::string &probe, const std::string &title, const std::string &unit,
                   int decimals, bool peak_line)
{
    json section = make_section(title);
    json chart = make_chart(title + " against working-set size", "line", axis("working set", "log-bytes"),
                            axis(unit, probe == "latency.chase" ? "log" : "linear"));
    json table = make_table({"curve", "plateau", "from", "to", unit});
    bool shaded = false;
    for (const json *r : results_of(*card.set, card.id, probe)) {
        const std::string op = parameter_text(*r, "operation");
        const std::string label = op.empty() ? probe : op;
        add_series(chart, label, curve_points(*r, "working_set_bytes"));
        for (const json &p : plateaus_of(*r)) {
            std::string name = text_or(p, "name", "");
            // A level the device reports larger than the curve can see (a socket's L3).
            if (const double reported = number_or(p, "reported_bytes", 0.0); reported > 0)
                name += fmt::format(" (reported {}, the socket's)", bytes_text(reported));
            const double value = number_or(p, "value", 0.0);
            add_row(table, {label, name, bytes_text(number_or(p, "from", 0.0)), bytes_text(number_or(p, "to", 0.0)),
                            figure_text(value, decimals)});
            if (!shaded)
                chart["bands"].push_back(
                    {{"from", number_or(p, "from", 0.0)},
                     {"to", number_or(p, "to", 0.0)},
                     {"label", fmt::format("{}: {} {}", name, figure_text(value, decimals), unit)}});
        }
        if (!plateaus_of(*r).empty() && !shaded) {
            shaded = true;
            section["notes"].push_back(fmt::format("Shaded: the plateaus of the {} curve.", label));
        }
    }
    if (peak_line) add_peak_line(chart, *card.device);
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

json kinds_section(const Card &card)
{
    json section = make_section("Memory kinds");
    const auto results = results_of(*card.set, card.id, "memory.kinds");
    std::vector<std::string> kinds, operations;
    std::vector<const json *> ordered(results.begin(), results.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const json *a, const json *b) {
        return parameter_number(*a, "memory_kind_index") < parameter_number(*b, "memory_kind_index");
    });
    for (const json *r : ordered) {
        if (!usable(*r)) continue;
        const std::string kind = parameter_text(*r, "memory_kind"), op = parameter_text(*r, "operation");
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
        if (std::find(operations.begin(), operations.end(), op) == operations.end()) operations.push_back(op);
    }
    json chart = make_chart("Stream figures on each memory kind", "bar", category_axis("memory kind", kinds),
                            axis("GB/s", "linear"));
    for (const std::string &op : operations) {
        json points = json::array();
        for (const json *r : ordered)
            if (usable(*r) && parameter_text(*r, "operation") == op)
                points.push_back({{"x", parameter_text(*r, "memory_kind")}, {"y", (*r)["value"]}});
        add_series(chart, op, std::move(points));
    }
    json table = make_table({"memory kind", "flags", "operation", "GB/s", "against device memory", "status"});
    for (const json *r : ordered) {
        const json &extra = object_or_empty(*r, "extra");
        std::vector<std::string> flags;
        for (const json &flag : array_or_empty(object_or_empty(*r, "parameters"), "memory_flags"))
            if (flag.is_string()) flags.push_back(flag.get<std::string>());
        std::string ratio = "-";
        if (extra.contains("ratio") && extra["ratio"].is_number())
            ratio =
                fmt::format("{:.2f} x {}", extra["ratio"].get<double>(), text_or(extra, "ratio_to", "device memory"));
        add_row(table, {parameter_text(*r, "memory_kind"), fmt::format("{}", fmt::join(flags, ", ")),
                        parameter_text(*r, "operation"), usable(*r) ? fixed((*r)["value"].get<double>(), 2) : "-",
                        ratio, status_text(*r)});
    }
    add_peak_line(chart, *card.device);
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

json transfer_section(const Card &card)
{
    json section = make_section("Transfers");
    json chart = make_chart("Transfer bandwidth against size, per direction and engine", "line",
                            axis("bytes per transfer", "log-bytes"), axis("GB/s", "linear"));
    json table = make_table({"direction", "engine", "largest size", "GB/s", "traffic GB/s", "status"});
    for (const json *r : results_of(*card.set, card.id, "bandwidth.transfer")) {
        const std::string direction = parameter_text(*r, "direction");
        // A set from before transfers named their engine copied with the copy engine.
        const json &parameters = (*r)["parameters"];
        const std::string engine = parameters.is_object() ? parameters.value("engine", "ce") : "ce";
        add_series(chart, direction + " (" + engine + ")", curve_points(*r, "transfer_bytes"));
        const json &extra = r->contains("extra") ? (*r)["extra"] : json::object();
        const bool traffic = usable(*r) && extra.contains("traffic_gb_per_s") && extra["traffic_gb_per_s"].is_number();
        add_row(table, {direction, engine, bytes_text(parameter_number(*r, "to_bytes")),
                        usable(*r) ? fixed((*r)["value"].get<double>(), 2) : "-",
                        traffic ? fixed(extra["traffic_gb_per_s"].get<double>(), 2) : "-", status_text(*r)});
    }
    section["notes"].push_back("GB/s: bytes counted once per direction; both-directions figures add the two. Traffic "
                               "GB/s (within the device): bytes read plus bytes written, as bandwidth.stream counts "
                               "COPY. Engine: ce, the copy engine; sm, a kernel on the compute units.");
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

struct CapacityBar {
    std::string label, probe, operation;
};

const std::vector<CapacityBar> &capacity_bars()
{
    static const std::vector<CapacityBar> bars{
        {"reported total", "capacity.report", "total"},
        {"reported free", "capacity.report", "free"},
        {"largest allocation", "capacity.max-alloc", ""},
        {"total allocatable", "capacity.total", ""},
        {"largest block after fragmenting", "capacity.fragmentation", ""},
    };
    return bars;
}

json capacity_section(const Card &card)
{
    json section = make_section("Capacity");
    std::vector<std::string> labels;
    json points = json::array();
    json table = make_table({"figure", "bytes", "size", "verification"});
    std::optional<double> budget;
    for (const CapacityBar &bar : capacity_bars()) {
        for (const json *r : results_of(*card.set, card.id, bar.probe)) {
            if (!bar.operation.empty() && parameter_text(*r, "operation") != bar.operation) continue;
            if (!budget && parameter_number(*r, "budget_bytes") > 0) budget = parameter_number(*r, "budget_bytes");
            const auto value = usable(*r) ? std::optional((*r)["value"].get<double>()) : std::nullopt;
            add_row(table, {bar.label, value ? fmt::format("{:.0f}", *value) : "-", bytes_text(value),
                            text_or(object_or_empty(*r, "verification"), "detail", text_or(*r, "status", ""))});
            if (value) {
                labels.push_back(bar.label);
                points.push_back({{"x", *value}, {"y", bar.label}});
            }
            const json &extra = object_or_empty(*r, "extra");
            if (extra.contains("note") && extra["note"].is_string())
                section["notes"].push_back(bar.label + ": " + extra["note"].get<std::string>() + ".");
            if (flag_or(extra, "spilled", false))
                section["notes"].push_back(bar.label + ": part of it spilled into system memory.");
            if (extra.contains("full_request_fits") && !flag_or(extra, "full_request_fits", true))
                section["notes"].push_back(bar.label + ": the full request no longer fits once memory is chequered.");
            break;
        }
    }
    if (budget) {
        section["notes"].push_back(
            fmt::format("The run's budget was {}: the measured figures stop there.", bytes_text(budget)));
        labels.push_back("the run's budget");
        points.push_back({{"x", *budget}, {"y", "the run's budget"}});
        add_row(table, {"the run's budget", fmt::format("{:.0f}", *budget), bytes_text(budget), "--memory-limit"});
    }
    json chart = make_chart("What a program can allocate, against what is reported", "bar", axis("bytes", "log-bytes"),
                            category_axis("", labels));
    chart["horizontal"] = true;
    add_series(chart, "bytes", std::move(points));
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

json alloc_latency_section(const Card &card)
{
    json section = make_section("Allocation latency");
    json chart = make_chart("Time per allocate and free call against size", "line", axis("allocation", "log-bytes"),
                            axis("microseconds", "log"));
    std::map<std::string, json> by_operation;
    for (const json *r : results_of(*card.set, card.id, "capacity.alloc-latency")) {
        if (!usable(*r)) continue;
        by_operation[parameter_text(*r, "operation")].push_back(
            {{"x", parameter_number(*r, "array_bytes")}, {"y", (*r)["value"].get<double>() * 1e6}});
    }
    for (auto &[operation, points] : by_operation)
        add_series(chart, operation, std::move(points));
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    return section;
}

json patterns_section(const Card &card)
{
    json section = make_section("Access patterns");
    json stride =
        make_chart("Strided read against stride", "line", axis("stride (elements)", "log"), axis("GB/s", "linear"));
    for (const json *r : results_of(*card.set, card.id, "pattern.stride"))
        add_series(stride, parameter_text(*r, "operation"), curve_points(*r, "stride_elements"));
    json alignment =
        make_chart("Bandwidth against byte offset", "line", axis("offset (bytes)", "linear"), axis("GB/s", "linear"));
    for (const json *r : results_of(*card.set, card.id, "pattern.alignment"))
        add_series(alignment, parameter_text(*r, "operation"), curve_points(*r, "offset_bytes"));
    std::vector<std::string> widths;
    std::map<std::string, json> vector_points;
    for (const json *r : results_of(*card.set, card.id, "pattern.vector")) {
        if (!usable(*r)) continue;
        const std::string width = parameter_text(*r, "element_bytes") + " B";
        if (std::find(widths.begin(), widths.end(), width) == widths.end()) widths.push_back(width);
        vector_points[parameter_text(*r, "operation")].push_back({{"x", width}, {"y", (*r)["value"]}});
    }
    json vector =
        make_chart("Bandwidth against element width", "bar", category_axis("element", widths), axis("GB/s", "linear"));
    for (auto &[operation, points] : vector_points)
        add_series(vector, operation, std::move(points));
    std::vector<std::string> indices;
    json gather_points = json::array();
    for (const json *r : results_of(*card.set, card.id, "pattern.gather")) {
        if (!usable(*r)) continue;
        indices.push_back(parameter_text(*r, "indices"));
        gather_points.push_back({{"x", indices.back()}, {"y", (*r)["value"]}});
    }
    json gather =
        make_chart("Gather through an index buffer", "bar", category_axis("indices", indices), axis("GB/s", "linear"));
    add_series(gather, "gather", std::move(gather_points));
    for (json *chart : {&stride, &alignment, &vector, &gather})
        if (has_points(*chart)) section["charts"].push_back(std::move(*chart));
    return section;
}

json integrity_section(const Card &card)
{
    json section = make_section("Integrity");
    json table = make_table({"pattern", "bytes", "mismatched words", "verification"});
    std::size_t failed = 0, total = 0;
    for (const json *r : results_of(*card.set, card.id, "integrity.pattern")) {
        ++total;
        const bool clean = usable(*r) && (*r)["value"].get<double>() == 0;
        if (!clean) ++failed;
        add_row(table, {parameter_text(*r, "operation"), bytes_text(parameter_number(*r, "array_bytes")),
                        usable(*r) ? fmt::format("{:.0f}", (*r)["value"].get<double>()) : "-",
                        text_or(object_or_empty(*r, "verification"), "detail", text_or(*r, "status", ""))});
    }
    if (total)
        section["notes"].push_back(failed ? fmt::format("{} of {} patterns did not read back as written: this memory "
                                                        "is not to be trusted with a long job.",
                                                        failed, total)
                                          : fmt::format("All {} patterns read back as written.", total));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

json not_measured_section(const Card &card)
{
    json section = make_section("Not measured");
    json table = make_table({"probe", "operation", "status", "why"});
    for (const json &r : array_or_empty(*card.set, "results")) {
        if (text_or(r, "device", "") != card.id) continue;
        const std::string status = text_or(r, "status", "");
        if (status == "ok" || status == "suspect") continue;
        add_row(table, {text_or(r, "probe", ""), parameter_text(r, "operation"), status,
                        r.value("error", json()).is_string() ? r["error"].get<std::string>() : ""});
    }
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

json provenance_section(const Card &card)
{
    const json &set = *card.set;
    const json &tool = object_or_empty(set, "tool");
    const json &run = object_or_empty(set, "run");
    const json &host = object_or_empty(set, "host");
    const json &d = *card.device;
    auto text = [](const json &object, const char *field) {
        const json &v = object.value(field, json());
        return v.is_string() ? v.get<std::string>() : v.is_null() ? std::string("unknown") : v.dump();
    };
    json section = make_section("Provenance");
    json table = make_table({"", ""});
    add_row(table, {"tool", fmt::format("{} {} (commit {})", text(tool, "name"), text(tool, "version"),
                                        text(tool, "git_commit"))});
    add_row(table, {"command", fmt::format("{}", fmt::join(array_or_empty(run, "command_line"), " "))});
    add_row(table, {"suite", text(run, "suite")});
    add_row(table, {"run", fmt::format("{} from {} to {}, {}", text(run, "id"), text(run, "started"),
                                       text(run, "finished"), text(run, "status"))});
    add_row(table, {"host", fmt::format("{}: {}, {} logical CPUs, {} memory; {}", text(host, "hostname"),
                                        text(host, "cpu"), text(host, "logical_cpus"),
                                        bytes_text(number_or(host, "memory_bytes", 0.0)), text(host, "os"))});
    add_row(table, {"device", fmt::format("{} ({}), {} {}, driver {}", text(d, "name"), text(d, "key"), text(d, "api"),
                                          text(d, "api_version"), text(d, "driver_version"))});
    add_row(table, {"memory", fmt::format("{} total; bus {} bits; memory clock {} kHz",
                                          bytes_text(number_or(d, "total_memory_bytes", 0.0)),
                                          text(d, "memory_bus_width_bits"), text(d, "memory_clock_khz"))});
    // The module that measured the card, and how it was built: an unoptimised module's
    // figures time its own loops, which a reader of the page must see beside them.
    const std::string backend = text_or(d, "backend", "");
    for (const json &b : array_or_empty(set, "backends")) {
        if (backend.empty() || text_or(b, "name", "") != backend) continue;
        const std::string build = text_or(b, "build", "");
        add_row(table, {"module", fmt::format("{} ({}), {}", backend, text(b, "file"),
                                              build.empty() ? std::string("build not recorded") : build)});
        if (build == "unoptimized")
            section["notes"].push_back(fmt::format("The {} module was {}.", backend, unoptimized_warning()));
        break;
    }
    const json &llc = object_or_empty(d, "last_level_cache");
    if (llc.contains("bytes"))
        add_row(table, {"last-level cache",
                        fmt::format("{} ({})", bytes_text(number_or(llc, "bytes", 0.0)), text(llc, "source"))});
    section["tables"].push_back(std::move(table));
    return section;
}

} // namespace

json card_sections(const Card &card)
{
    json sections = json::array();
    for (json section :
         {stream_section(card), curve_section(card, "bandwidth.sweep", "Working-set sweep", "GB/s", 1, true),
          curve_section(card, "latency.chase", "Latency", "ns", 0, false), kinds_section(card), transfer_section(card),
          card_around_memory_section(card), capacity_section(card), alloc_latency_section(card), patterns_section(card),
          integrity_section(card), not_measured_section(card), provenance_section(card)})
        if (!section["charts"].empty() || !section["tables"].empty()) sections.push_back(std::move(section));
    return sections;
}

} // namespace vrb::report
