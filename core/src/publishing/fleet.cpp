#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/publishing/fleet.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace vrb {

namespace {

using nlohmann::json;

// The figures that tell a slow card: a memory-bound copy and triad, and the latency
// of a dependent load past the caches. Everything else a run measures stays with
// `compare`.
std::optional<std::string> fleet_figure(const json &result)
{
    const std::string probe = text_or(result, "probe", "");
    if (probe == "latency.chase") return "latency";
    if (probe != "bandwidth.stream") return std::nullopt;
    const std::string operation = text_or(object_or_empty(result, "parameters"), "operation", "");
    if (operation == "copy" || operation == "triad") return operation;
    return std::nullopt;
}

double median_of(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string parameters_line(const json &p)
{
    std::string out;
    for (const auto &[key, v] : p.items()) {
        if (key == "operation") continue;
        const std::string text = v.is_string()                                       ? v.get<std::string>()
                                 : v.is_number_unsigned() && key.ends_with("_bytes") ? format_size(v.get<uint64_t>())
                                                                                     : v.dump();
        out += fmt::format("{}{}={}", out.empty() ? "" : ", ", key, text);
    }
    return out;
}

void judge(FleetGroup &group, const OutlierRule &rule)
{
    std::vector<double> values;
    for (const auto &c : group.cards)
        values.push_back(c.value);
    group.median = median_of(values);
    std::vector<double> deviations;
    for (const double v : values)
        deviations.push_back(std::fabs(v - group.median));
    group.mad = median_of(deviations);
    group.allowed = std::max(rule.mad_factor * group.mad, rule.min_deviation * std::fabs(group.median));
    for (auto &c : group.cards)
        c.deviation = group.median != 0 ? (c.value - group.median) / group.median : 0;
    // With two cards each is as far from the median as the other: neither can be named.
    if (group.cards.size() < 3) {
        group.not_judged = fmt::format("{} card{} of this model: at least 3 are needed to name one", group.cards.size(),
                                       group.cards.size() == 1 ? "" : "s");
        return;
    }
    for (auto &c : group.cards)
        c.outlier = std::fabs(c.value - group.median) > group.allowed;
}

std::string value_text(double v, const std::string &unit)
{
    return fmt::format("{:.4g} {}", v, unit);
}

// Every card of every set through health's checks, against the given references or the
// published sets' (and the datasheet floor where neither has a figure).
void check_health(FleetComparison &fleet, const std::vector<std::pair<std::string, json>> &documents,
                  const FleetChecks &checks)
{
    const health::References &references = checks.references ? *checks.references : health::published_references();
    fleet.reference_origins = references.origins;
    std::error_code ec;
    if (!checks.references)
        if (const auto folder = health::published_results_folder();
            folder && std::filesystem::is_directory(*folder, ec))
            fleet.reference_origins.push_back(folder->string());
    for (const auto &[file, doc] : documents) {
        const std::string host = text_or(object_or_empty(doc, "host"), "hostname", "?");
        for (const json &d : array_or_empty(doc, "devices")) {
            const std::string id = text_or(d, "id", "?");
            fleet.health.push_back(
                {file, host, text_or(d, "key", id), id, health::judge_card(doc, file, d, references, checks.options)});
        }
    }
}

const FleetCardHealth *health_of(const FleetComparison &fleet, const FleetCard &card)
{
    for (const auto &h : fleet.health)
        if (h.file == card.file && h.device == card.device) return &h;
    return nullptr;
}

// "reasons: link, below reference" or "no check failed: named by its peers only".
std::string reasons_text(const FleetCardHealth *h)
{
    if (!h || h->verdict.exit == ExitCode::ok || h->verdict.reasons().empty())
        return "no check failed: named by its peers only";
    return fmt::format("reasons: {}", fmt::join(h->verdict.reasons(), ", "));
}

bool failing(const health::Check &c)
{
    return c.outcome == health::Outcome::failed || c.outcome == health::Outcome::below_floor;
}

} // namespace

FleetComparison compare_fleet_documents(const std::vector<std::pair<std::string, json>> &documents,
                                        const OutlierRule &rule, const FleetChecks &checks)
{
    if (!(rule.mad_factor >= 0) || !(rule.min_deviation >= 0))
        throw UsageError("the outlier rule needs a MAD factor and a least deviation of 0 or more");
    FleetComparison fleet;
    fleet.rule = rule;
    fleet.result_sets = documents.size();
    // (backend, model, figure identity) -> group; one map keeps the groups in a stable order.
    std::map<std::tuple<std::string, std::string, std::string, std::string>, FleetGroup> groups;
    std::map<std::string, bool> cards_seen;
    for (const auto &[file, doc] : documents) {
        const std::string host = text_or(object_or_empty(doc, "host"), "hostname", "?");
        std::map<std::string, const json *> devices;
        for (const auto &d : doc.at("devices"))
            devices[text_or(d, "id", "?")] = &d;
        for (const auto &r : doc.at("results")) {
            const auto figure = fleet_figure(r);
            if (!figure) continue;
            const std::string device_id = text_or(r, "device", "?");
            const auto device = devices.find(device_id);
            if (device == devices.end()) continue; // the schema ties every result to a listed device
            const json &d = *device->second;
            const std::string key = text_or(d, "key", device_id);
            cards_seen[host + "|" + key] = true;
            const json parameters = identity_parameters(r);
            const std::string status = text_or(r, "status", "?");
            const bool usable = (status == "ok" || status == "suspect") && r.value("value", json()).is_number();
            if (!usable) {
                fleet.left_out.push_back(fmt::format("{} {} ({}) {} {}: status {}", host, key, file, *figure,
                                                     parameters_line(parameters), status));
                continue;
            }
            // A chase's figure is its memory latency, not its last point.
            const auto memory = analysis::memory_latency(r);
            if (*figure == "latency" && !memory) {
                fleet.left_out.push_back(fmt::format("{} {} ({}) {} {}: memory not reached", host, key, file, *figure,
                                                     parameters_line(parameters)));
                continue;
            }
            const std::string backend = text_or(d, "backend", text_or(r, "backend", "?"));
            const std::string model = device_match_text(d, DeviceMatch::model);
            const std::string identity =
                fmt::format("{}|{}|{}", text_or(r, "probe", ""), text_or(r, "metric", ""), parameters.dump());
            auto [it, fresh] = groups.try_emplace({backend, model, *figure, identity});
            FleetGroup &group = it->second;
            if (fresh) {
                group.model = model;
                group.name = text_or(d, "name", "?");
                group.backend = backend;
                group.figure = *figure;
                group.probe = text_or(r, "probe", "");
                group.metric = text_or(r, "metric", "");
                group.unit = text_or(r, "unit", "");
                group.parameters = parameters;
                group.parameters_text = parameters_line(parameters);
                group.lower_is_better = lower_is_better(group.metric, group.unit);
            }
            group.cards.push_back(
                {file, host, key, device_id, memory ? memory->ns : r["value"].get<double>(), 0, false});
        }
    }
    fleet.cards = cards_seen.size();
    for (auto &[_, group] : groups) {
        std::sort(group.cards.begin(), group.cards.end(), [](const FleetCard &a, const FleetCard &b) {
            return std::tie(a.host, a.key, a.file) < std::tie(b.host, b.key, b.file);
        });
        judge(group, rule);
        fleet.groups.push_back(std::move(group));
    }
    check_health(fleet, documents, checks);
    return fleet;
}

FleetComparison compare_fleet(const std::filesystem::path &folder, const OutlierRule &rule, const FleetChecks &checks)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw UsageError(fmt::format("{}: not a folder of result sets", folder.string()));
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
        const auto name = entry.path().filename().string();
        // A run still writing (or one that died) leaves NAME.json.journal and hidden
        // temporary files; neither is a result set.
        if (name.starts_with(".") || entry.path().extension() != ".json") continue;
        if (entry.is_regular_file(ec)) files.push_back(entry.path());
    }
    if (ec) throw UsageError(fmt::format("{}: cannot list the folder: {}", folder.string(), ec.message()));
    if (files.empty()) throw UsageError(fmt::format("{}: holds no result set (*.json)", folder.string()));
    std::sort(files.begin(), files.end());
    std::vector<std::pair<std::string, json>> documents;
    for (const auto &file : files) {
        json document = read_result_file(file);
        if (const auto violation = validate_result_json(document))
            throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file.string(), schema_version,
                                         violation->path, violation->message));
        documents.emplace_back(file.filename().string(), std::move(document));
    }
    FleetComparison fleet = compare_fleet_documents(documents, rule, checks);
    fleet.folder = folder.string();
    return fleet;
}

std::vector<std::pair<const FleetGroup *, const FleetCard *>> fleet_outliers(const FleetComparison &fleet)
{
    std::vector<std::pair<const FleetGroup *, const FleetCard *>> named;
    for (const auto &g : fleet.groups)
        for (const auto &c : g.cards)
            if (c.outlier) named.emplace_back(&g, &c);
    return named;
}

std::vector<const FleetCardHealth *> fleet_unhealthy(const FleetComparison &fleet)
{
    std::vector<const FleetCardHealth *> out;
    for (const auto &h : fleet.health)
        if (h.verdict.exit == ExitCode::verification || h.verdict.exit == ExitCode::below_threshold) out.push_back(&h);
    return out;
}

std::vector<const FleetCardHealth *> fleet_not_judged(const FleetComparison &fleet)
{
    std::vector<const FleetCardHealth *> out;
    for (const auto &h : fleet.health)
        if (h.verdict.exit == ExitCode::run_failed || h.verdict.exit == health::not_judged_exit) out.push_back(&h);
    return out;
}

int fleet_exit_code(const FleetComparison &fleet)
{
    const auto unhealthy = fleet_unhealthy(fleet);
    if (std::any_of(unhealthy.begin(), unhealthy.end(),
                    [](const FleetCardHealth *h) { return h->verdict.exit == ExitCode::verification; }))
        return static_cast<int>(ExitCode::verification);
    if (!unhealthy.empty() || !fleet_outliers(fleet).empty()) return static_cast<int>(ExitCode::below_threshold);
    const auto unjudged = fleet_not_judged(fleet);
    if (std::any_of(unjudged.begin(), unjudged.end(),
                    [](const FleetCardHealth *h) { return h->verdict.exit == ExitCode::run_failed; }))
        return static_cast<int>(ExitCode::run_failed);
    return unjudged.empty() ? 0 : static_cast<int>(health::not_judged_exit);
}

std::string fleet_text(const FleetComparison &fleet)
{
    std::string out = fmt::format("fleet {}: {} result set{}, {} card{}; a card is named when its figure lies further "
                                  "from the model's median than max({:g} x MAD, {:g}% of the median)\n",
                                  fleet.folder.empty() ? "(given sets)" : fleet.folder, fleet.result_sets,
                                  fleet.result_sets == 1 ? "" : "s", fleet.cards, fleet.cards == 1 ? "" : "s",
                                  fleet.rule.mad_factor, fleet.rule.min_deviation * 100);
    for (const auto &g : fleet.groups) {
        out += fmt::format("\n{} ({}) through {}: {}{}\n", g.name, g.model, g.backend, g.figure,
                           g.parameters_text.empty() ? "" : " (" + g.parameters_text + ")");
        out += fmt::format("  median {}, MAD {}, allowed ±{}\n", value_text(g.median, g.unit),
                           value_text(g.mad, g.unit), value_text(g.allowed, g.unit));
        if (g.not_judged) out += fmt::format("  not judged: {}\n", *g.not_judged);
        for (const auto &c : g.cards) {
            const bool worse = g.lower_is_better ? c.deviation > 0 : c.deviation < 0;
            out += fmt::format("  {:<7} {} {} ({}): {} ({:+.1f}%){}\n", c.outlier ? "OUTLIER" : "", c.host, c.key,
                               c.device, value_text(c.value, g.unit), c.deviation * 100,
                               c.outlier ? (worse ? ", worse than its peers" : ", better than its peers") : "");
        }
    }
    if (!fleet.left_out.empty()) {
        out += "\nleft out:\n";
        for (const auto &line : fleet.left_out)
            out += "  " + line + "\n";
    }
    const auto named = fleet_outliers(fleet);
    out += named.empty() ? "\nno card named\n"
                         : fmt::format("\n{} figure{} named:\n", named.size(), named.size() == 1 ? "" : "s");
    for (const auto &[g, c] : named)
        out += fmt::format("  {} {} ({}): {} ({}) {} against a median of {}; {}\n", c->host, c->key, c->file, g->figure,
                           g->parameters_text, value_text(c->value, g->unit), value_text(g->median, g->unit),
                           reasons_text(health_of(fleet, *c)));
    const auto unhealthy = fleet_unhealthy(fleet);
    out += fmt::format("\nhealth checks (references: {}):\n",
                       fleet.reference_origins.empty() ? "none"
                                                       : fmt::format("{}", fmt::join(fleet.reference_origins, ", ")));
    const auto unjudged = fleet_not_judged(fleet);
    if (unhealthy.empty() && unjudged.empty()) out += "  every card judged healthy\n";
    for (const FleetCardHealth *h : unhealthy) {
        out += fmt::format("  {} {} ({}): {}\n", h->host, h->key, h->file, h->verdict.verdict);
        for (const auto &c : h->verdict.checks)
            if (failing(c)) out += fmt::format("    {}: {}\n", c.name, c.detail);
    }
    if (!unjudged.empty())
        out += fmt::format("  {} card{} not judged healthy nor unhealthy:\n", unjudged.size(),
                           unjudged.size() == 1 ? "" : "s");
    for (const FleetCardHealth *h : unjudged)
        out += fmt::format("  {} {} ({}): {}\n", h->host, h->key, h->file, h->verdict.verdict);
    return out;
}

json fleet_json(const FleetComparison &fleet)
{
    json health = json::array();
    for (const auto &h : fleet.health) {
        json failed = json::array();
        for (const auto &c : h.verdict.checks)
            if (failing(c)) failed.push_back({{"name", c.name}, {"reason", c.reason}, {"detail", c.detail}});
        health.push_back({{"file", h.file},
                          {"host", h.host},
                          {"key", h.key},
                          {"device", h.device},
                          {"verdict", h.verdict.verdict},
                          {"exit_code", static_cast<int>(h.verdict.exit)},
                          {"reasons", h.verdict.reasons()},
                          {"failed", failed}});
    }
    json groups = json::array();
    for (const auto &g : fleet.groups) {
        json cards = json::array();
        for (const auto &c : g.cards) {
            const FleetCardHealth *h = health_of(fleet, c);
            cards.push_back({{"file", c.file},
                             {"host", c.host},
                             {"key", c.key},
                             {"device", c.device},
                             {"value", c.value},
                             {"deviation", c.deviation},
                             {"outlier", c.outlier},
                             {"reasons", h ? h->verdict.reasons() : std::vector<std::string>{}}});
        }
        groups.push_back({{"model", g.model},
                          {"name", g.name},
                          {"backend", g.backend},
                          {"figure", g.figure},
                          {"probe", g.probe},
                          {"metric", g.metric},
                          {"unit", g.unit},
                          {"parameters", g.parameters},
                          {"lower_is_better", g.lower_is_better},
                          {"median", g.median},
                          {"mad", g.mad},
                          {"allowed", g.allowed},
                          {"not_judged", g.not_judged ? json(*g.not_judged) : json()},
                          {"cards", cards}});
    }
    return {{"folder", fleet.folder},
            {"rule", {{"mad_factor", fleet.rule.mad_factor}, {"min_deviation", fleet.rule.min_deviation}}},
            {"result_sets", fleet.result_sets},
            {"cards", fleet.cards},
            {"groups", groups},
            {"left_out", fleet.left_out},
            {"outliers", fleet_outliers(fleet).size()},
            {"references", fleet.reference_origins},
            {"health", health},
            {"unhealthy", fleet_unhealthy(fleet).size()},
            {"not_judged", fleet_not_judged(fleet).size()},
            {"exit_code", fleet_exit_code(fleet)}};
}

} // namespace vrb
