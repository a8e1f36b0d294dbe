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

// The median of the members and the words that name them.
void settle(Reference &r)
{
    std::vector<double> values;
    std::vector<std::string> names;
    for (const auto &m : r.members) {
        values.push_back(m.value);
        names.push_back(m.name);
    }
    r.value = summarize(values).median;
    r.source = values.size() == 1 ? fmt::format("the figure of {}", names.front())
                                  : fmt::format("the median of {} figures: {}", values.size(), fmt::join(names, ", "));
}

} // namespace

SetIdentity identity_of(const json &set)
{
    return {text_or(object_or_empty(set, "run"), "id", ""), std::hash<std::string>{}(set.dump())};
}

std::optional<Reference> References::find(const CardModel &card, const FigureKey &figure,
                                          const SetIdentity *judged) const
{
    for (const Reference &r : entries) {
        if (r.figure != figure || !same_model(r.card, card)) continue;
        if (r.members.empty() || !judged) return r;
        Reference without = r;
        std::erase_if(without.members, [&](const Reference::Member &m) { return m.set.same(*judged); });
        if (without.members.empty()) continue;
        if (without.members.size() != r.members.size()) settle(without);
        return without;
    }
    return std::nullopt;
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
    std::map<std::pair<std::string, FigureKey>, Reference> groups;
    for (const NamedSet &named : sets) {
        const SetIdentity identity = identity_of(named.set);
        std::map<std::string, const json *> devices;
        for (const json &d : array_or_empty(named.set, "devices"))
            devices[text_or(d, "id", "")] = &d;
        const std::string file = std::filesystem::path(named.name).filename().string();
        const std::string name = identity.run.empty() ? file : fmt::format("{} (run {})", file, identity.run);
        for (const json &result : array_or_empty(named.set, "results")) {
            const auto figure = health_figure(result);
            const auto device = devices.find(text_or(result, "device", ""));
            if (!figure || !trusted(*figure) || device == devices.end()) continue;
            const CardModel card = card_model_of(*device->second);
            if (!card.pci) continue;
            auto [at, fresh] = groups.try_emplace({card.key, figure->key});
            Reference &r = at->second;
            if (fresh) {
                r.card = card;
                r.figure = figure->key;
                r.unit = figure->unit;
            }
            r.members.push_back({identity, name, *figure->value});
        }
    }
    References out;
    for (auto &[_, r] : groups) {
        settle(r);
        out.entries.push_back(std::move(r));
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
    // Installed: PREFIX/bin/vrambench beside PREFIX/share/vrambench/results
    // (cmake/vrambench_install.cmake).
    if (const auto installed = dir.parent_path() / "share" / "vrambench" / "results";
        std::filesystem::exists(installed / "schema" / "result-v1.schema.json", ec))
        return installed;
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

const References &published_references()
{
    static const References references = references_from_sets(published_sets());
    return references;
}

} // namespace vrb::health
