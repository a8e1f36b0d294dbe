// References made from result sets, and where the sets are found: a folder a user names
// or the project's published results/.
#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/measurement/statistics.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <map>

namespace vrb::health {

namespace {

using nlohmann::json;

bool shares_only(const Reference &r, const std::string &run)
{
    return !run.empty() && !r.run_ids.empty() &&
           std::all_of(r.run_ids.begin(), r.run_ids.end(), [&](const std::string &id) { return id == run; });
}

} // namespace

const Reference *References::find(const CardModel &card, const FigureKey &figure, const std::string &exclude_run) const
{
    for (const Reference &r : entries)
        if (r.figure == figure && same_model(r.card, card) && !shares_only(r, exclude_run)) return &r;
    return nullptr;
}

void References::append(References more)
{
    for (auto &r : more.entries)
        entries.push_back(std::move(r));
    for (auto &o : more.origins)
        origins.push_back(std::move(o));
}

References references_from_sets(const std::vector<NamedSet> &sets)
{
    struct Group {
        Reference reference;
        std::vector<double> values;
        std::vector<std::string> names;
    };
    std::map<std::pair<std::string, FigureKey>, Group> groups;
    for (const NamedSet &named : sets) {
        const std::string run = text_or(object_or_empty(named.set, "run"), "id", "");
        std::map<std::string, const json *> devices;
        for (const json &d : array_or_empty(named.set, "devices"))
            devices[text_or(d, "id", "")] = &d;
        for (const json &result : array_or_empty(named.set, "results")) {
            const auto figure = health_figure(result);
            const auto device = devices.find(text_or(result, "device", ""));
            if (!figure || !trusted(*figure) || device == devices.end()) continue;
            const CardModel card = card_model_of(*device->second);
            if (!card.pci) continue;
            auto [at, fresh] = groups.try_emplace({card.key, figure->key});
            Group &g = at->second;
            if (fresh) {
                g.reference.card = card;
                g.reference.figure = figure->key;
                g.reference.unit = figure->unit;
            }
            g.values.push_back(*figure->value);
            const std::string file = std::filesystem::path(named.name).filename().string();
            g.names.push_back(run.empty() ? file : fmt::format("{} (run {})", file, run));
            g.reference.run_ids.push_back(run);
        }
    }
    References out;
    for (auto &[_, g] : groups) {
        g.reference.value = summarize(g.values).median;
        g.reference.sets = g.values.size();
        g.reference.source = g.values.size() == 1 ? fmt::format("the figure of {}", g.names.front())
                                                  : fmt::format("the median of {} figures: {}", g.values.size(),
                                                                fmt::join(g.names, ", "));
        out.entries.push_back(std::move(g.reference));
    }
    return out;
}

NamedSet read_valid_result_set(const std::filesystem::path &file)
{
    json set = read_result_file(file);
    if (const auto violation = validate_result_json(set))
        throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file.string(), schema_version,
                                     violation->path, violation->message));
    return {file.string(), std::move(set)};
}

std::vector<NamedSet> read_result_folder(const std::filesystem::path &folder)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw UsageError(fmt::format("{}: not a folder of result sets", folder.string()));
    std::vector<std::filesystem::path> files;
    for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() && (name == "schema" || name.starts_with("."))) {
            it.disable_recursion_pending();
            continue;
        }
        if (name.starts_with(".") || it->path().extension() != ".json" || !it->is_regular_file()) continue;
        files.push_back(it->path());
    }
    if (ec) throw UsageError(fmt::format("{}: cannot list the folder: {}", folder.string(), ec.message()));
    std::sort(files.begin(), files.end());
    std::vector<NamedSet> sets;
    for (const auto &file : files)
        sets.push_back(read_valid_result_set(file));
    return sets;
}

References read_references(const std::filesystem::path &path)
{
    std::error_code ec;
    References out;
    if (std::filesystem::is_directory(path, ec)) {
        const auto sets = read_result_folder(path);
        if (sets.empty()) throw UsageError(fmt::format("{}: holds no result set (*.json)", path.string()));
        out = references_from_sets(sets);
    } else {
        if (!std::filesystem::exists(path, ec))
            throw UsageError(fmt::format("{}: no such reference file or folder", path.string()));
        // A reference file says what it is; anything else must be a result set.
        const json peek = [&] {
            try {
                return read_result_file(path);
            } catch (const UsageError &) {
                return json();
            }
        }();
        if (peek.is_null() || peek.contains("references")) return read_reference_file(path);
        out = references_from_sets({read_valid_result_set(path)});
    }
    out.origins.push_back(path.string());
    return out;
}

std::optional<std::filesystem::path> published_results_folder()
{
    if (const char *env = std::getenv("VRAMBENCH_RESULTS")) {
        if (*env == '\0') return std::nullopt;
        return std::filesystem::path(env);
    }
    std::error_code ec;
    auto dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    if (ec) return std::nullopt;
    for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
        if (std::filesystem::exists(dir / "results" / "schema" / "result-v1.schema.json", ec)) return dir / "results";
        if (dir == dir.parent_path()) break;
    }
    return std::nullopt;
}

const std::vector<NamedSet> &published_sets()
{
    static const std::vector<NamedSet> sets = [] {
        const auto folder = published_results_folder();
        std::error_code ec;
        if (!folder || !std::filesystem::is_directory(*folder, ec)) return std::vector<NamedSet>{};
        return read_result_folder(*folder);
    }();
    return sets;
}

} // namespace vrb::health
