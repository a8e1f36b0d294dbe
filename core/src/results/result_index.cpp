#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/result_index.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <tuple>

namespace vrb {

namespace {

using nlohmann::json;

struct Row {
    std::string device, backend, file;
    std::vector<std::string> cells;
};

bool usable(const json &result)
{
    return text_or(result, "status", "") == "ok" && result.contains("value") && result["value"].is_number();
}

// The stream figure of one operation at the widest element the set measured: wide
// accesses are what every backend's best figure is quoted at.
std::optional<double> stream_figure(const json &results, const std::string &device, const std::string &operation)
{
    std::optional<double> best;
    uint64_t widest = 0;
    for (const json &r : results) {
        if (text_or(r, "probe", "") != "bandwidth.stream" || text_or(r, "device", "") != device || !usable(r)) continue;
        const json &p = r["parameters"];
        if (text_or(p, "operation", "") != operation) continue;
        const uint64_t width = count_or(p, "element_bytes", uint64_t{0});
        if (width < widest) continue;
        widest = width;
        best = r["value"].get<double>();
    }
    return best;
}

// The latency of the chase's plateau named memory: only a curve that went past 4 x the
// last-level cache has one. A last plateau inside a cache is that cache's latency, and
// printing it as memory latency would understate memory by the cache's factor.
std::string chase_figure(const json &results, const std::string &device)
{
    for (const json &r : results) {
        if (text_or(r, "probe", "") != "latency.chase" || text_or(r, "device", "") != device || !usable(r)) continue;
        const auto memory = analysis::memory_latency(r);
        if (!memory) return "not reached";
        return fmt::format("{:.0f} ns past {}", memory->ns, format_size(static_cast<uint64_t>(memory->from_bytes)));
    }
    return "-";
}

std::string max_alloc_figure(const json &results, const std::string &device)
{
    for (const json &r : results) {
        if (text_or(r, "probe", "") != "capacity.max-alloc" || text_or(r, "device", "") != device || !usable(r))
            continue;
        const auto bytes = static_cast<uint64_t>(r["value"].get<double>());
        const json share = object_or_empty(r, "extra").value("share_of_reported_free", json());
        return share.is_number() ? fmt::format("{} ({:.1f}% of free)", format_size(bytes), share.get<double>() * 100)
                                 : format_size(bytes);
    }
    return "-";
}

std::string gbps(std::optional<double> value)
{
    return value ? fmt::format("{:.1f}", *value) : "-";
}

// Markdown table cells hold no '|' and no line break.
std::string cell(std::string text)
{
    std::replace(text.begin(), text.end(), '|', '/');
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

std::vector<Row> rows_of(const json &set, const std::string &file)
{
    std::vector<Row> rows;
    const json &results = set["results"];
    const json &run = set["run"];
    const json &tool = set["tool"];
    const std::string date = text_or(run, "started", "").substr(0, 10);
    const std::string build = fmt::format("{} {}", text_or(tool, "version", ""), text_or(tool, "git_commit", ""));
    for (const json &d : set["devices"]) {
        const std::string id = text_or(d, "id", "");
        const std::string name = d["name"].is_string() ? d["name"].get<std::string>() : "unknown";
        const std::string memory =
            d["total_memory_bytes"].is_number() ? format_size(d["total_memory_bytes"].get<uint64_t>()) : "unknown";
        const std::string key = d["key"].is_string() ? d["key"].get<std::string>() : id;
        rows.push_back({name,
                        text_or(d, "backend", ""),
                        file,
                        {name, id, key, memory, gbps(stream_figure(results, id, "copy")),
                         gbps(stream_figure(results, id, "triad")), gbps(stream_figure(results, id, "read")),
                         chase_figure(results, id), max_alloc_figure(results, id),
                         fmt::format("{}, {}, {}", date, text_or(run, "suite", ""), build)}});
    }
    return rows;
}

} // namespace

const std::vector<std::string> &result_index_columns()
{
    static const std::vector<std::string> columns{
        "device", "id", "card", "memory", "copy", "triad", "read", "memory latency", "largest allocation", "measured"};
    return columns;
}

ResultIndex index_result_sets(const std::filesystem::path &folder)
{
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
        throw UsageError(fmt::format("{}: not a folder of result sets", folder.string()));

    std::vector<std::filesystem::path> files;
    for (auto it = std::filesystem::recursive_directory_iterator(folder, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        if (it->is_directory() && it->path().filename() == "schema") {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
    }
    if (error) throw UsageError(fmt::format("{}: cannot be read: {}", folder.string(), error.message()));
    std::sort(files.begin(), files.end());

    ResultIndex index;
    std::vector<Row> rows;
    for (const auto &path : files) {
        const std::filesystem::path relative = path.lexically_relative(folder);
        try {
            const json set = read_result_file(path);
            if (const auto violation = validate_result_json(set)) {
                index.refused.push_back({relative, fmt::format("does not match schema v{}: at {}: {}", schema_version,
                                                               violation->path, violation->message)});
                continue;
            }
            auto found = rows_of(set, relative.generic_string());
            rows.insert(rows.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
            ++index.result_sets;
            index.sets.push_back(relative);
        } catch (const UsageError &e) {
            // The reader names the file it was given; the index names it relative to the folder.
            std::string reason = e.what();
            const std::string prefix = path.string() + ": ";
            if (reason.starts_with(prefix)) reason.erase(0, prefix.size());
            index.refused.push_back({relative, std::move(reason)});
        }
    }
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return std::tie(a.device, a.backend, a.file) < std::tie(b.device, b.backend, b.file);
    });

    std::string &md = index.markdown;
    md += "# Published result sets\n\n";
    md += "Generated by `vrambench index` from the result sets in this folder; do not edit by hand.\n";
    md += "Stream figures are medians in GB/s (1e9 B/s) at the widest element measured; memory latency is\n";
    md += "the plateau of `latency.chase` named memory (\"not reached\" when the chase stayed inside a cache);\n";
    md += "the largest allocation is `capacity.max-alloc`.\n";
    md += "Each file holds the samples, the verification and the provenance behind its row.\n\n";
    md += "| device | id | card | memory | copy | triad | read | memory latency | largest allocation | measured "
          "| file |\n";
    md += "|---|---|---|---|--:|--:|--:|---|---|---|---|\n";
    for (const Row &row : rows) {
        md += "|";
        for (const std::string &c : row.cells)
            md += fmt::format(" {} |", cell(c));
        md += fmt::format(" [{}]({}) |\n", cell(row.file), row.file);
        index.rows.push_back({row.file, row.cells});
    }
    if (rows.empty()) md += "\nNo result sets yet.\n";
    if (!index.refused.empty()) {
        md += "\n## Refused\n\nThese files are not valid result sets and are left out of the table:\n\n";
        for (const auto &r : index.refused)
            md += fmt::format("- `{}`: {}\n", r.file.generic_string(), r.reason);
    }
    return index;
}

} // namespace vrb
