#include <vrambench/core/health/rank.hpp>
#include <vrambench/core/health/thresholds.hpp>
#include <vrambench/core/measurement/statistics.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace vrb::health {

namespace {

using nlohmann::json;

struct Sample {
    std::string set, device;
    double value;
    bool given;
};

struct Group {
    RankedFigure figure;
    std::vector<Sample> samples;
};

void collect(const SetRef &ref, bool given, std::map<std::pair<std::string, FigureKey>, Group> &groups)
{
    std::map<std::string, const json *> devices;
    for (const json &d : array_or_empty(*ref.set, "devices"))
        devices[text_or(d, "id", "")] = &d;
    for (const json &result : array_or_empty(*ref.set, "results")) {
        const auto figure = health_figure(result);
        const auto device = devices.find(text_or(result, "device", ""));
        if (!figure || !trusted(*figure) || device == devices.end()) continue;
        const CardModel card = card_model_of(*device->second);
        if (!card.pci) continue; // no card model: see CardModel::pci
        const std::string &model = card.key;
        auto [at, fresh] = groups.try_emplace({model, figure->key});
        Group &g = at->second;
        if (fresh) {
            g.figure.model = model;
            g.figure.name = text_or(*device->second, "name", "?");
            g.figure.figure = figure->key;
            g.figure.unit = figure->unit;
            g.figure.lower_is_better = figure_lower_is_better(figure->key.probe);
        }
        g.samples.push_back({ref.name, device->first, *figure->value, given});
    }
}

double percentile_of(double value, const std::vector<Sample> &samples, bool lower_is_better)
{
    if (samples.size() < 2) return 50;
    double better_than = 0;
    bool self = false;
    for (const Sample &s : samples) {
        if (s.value == value && !self) {
            self = true; // the figure itself
            continue;
        }
        if (s.value == value)
            better_than += 0.5;
        else if (lower_is_better ? value < s.value : value > s.value)
            better_than += 1;
    }
    return 100 * better_than / double(samples.size() - 1);
}

} // namespace

std::vector<RankedFigure> rank_figures(const std::vector<SetRef> &given, const std::vector<NamedSet> &published)
{
    std::map<std::pair<std::string, FigureKey>, Group> groups;
    std::set<std::string> runs;
    for (const SetRef &ref : given) {
        collect(ref, true, groups);
        runs.insert(text_or(object_or_empty(*ref.set, "run"), "id", ref.name));
    }
    for (const NamedSet &p : published)
        if (runs.insert(text_or(object_or_empty(p.set, "run"), "id", p.name)).second)
            collect({p.name, &p.set}, false, groups);
    std::vector<RankedFigure> out;
    for (auto &[_, g] : groups) {
        if (std::none_of(g.samples.begin(), g.samples.end(), [](const Sample &s) { return s.given; })) continue;
        RankedFigure &f = g.figure;
        std::vector<double> values;
        for (const Sample &s : g.samples)
            values.push_back(s.value);
        const Statistics stats = summarize(values);
        f.population = values.size();
        f.median = stats.median;
        f.min = stats.min;
        f.max = stats.max;
        std::vector<double> deviations;
        for (const double v : values)
            deviations.push_back(std::fabs(v - f.median));
        f.mad = summarize(deviations).median;
        if (f.population < rank_min_sets)
            f.not_ranked = fmt::format("{} figure{} of this model: at least {} are needed to rank one", f.population,
                                       f.population == 1 ? "" : "s", rank_min_sets);
        for (const Sample &s : g.samples)
            if (s.given)
                f.entries.push_back({s.set, s.device, s.value,
                                     f.not_ranked.empty() ? percentile_of(s.value, g.samples, f.lower_is_better) : 0});
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<RankedFigure> rank_among_published(const std::vector<SetRef> &given)
{
    return rank_figures(given, published_sets());
}

std::string rank_text(const std::vector<RankedFigure> &ranks)
{
    std::string out;
    std::string model;
    for (const RankedFigure &f : ranks) {
        if (!f.not_ranked.empty()) continue;
        if (f.model != model) {
            model = f.model;
            out += fmt::format("\nrank among the sets of {} ({}), given and published:\n", f.name, f.model);
        }
        out += fmt::format("  {}: median {:.4g} {}, spread {:.4g} to {:.4g} (MAD {:.2g}) over {} figures\n",
                           figure_text(f.figure), f.median, f.unit, f.min, f.max, f.mad, f.population);
        for (const RankEntry &e : f.entries)
            out += fmt::format("    {} {}: {:.4g} {}, percentile {:.0f} ({} than {:.0f}% of the others)\n", e.set,
                               e.device, e.value, f.unit, e.percentile, f.lower_is_better ? "lower" : "higher",
                               e.percentile);
    }
    return out;
}

nlohmann::json rank_json(const std::vector<RankedFigure> &ranks)
{
    json list = json::array();
    for (const RankedFigure &f : ranks) {
        json entries = json::array();
        for (const RankEntry &e : f.entries)
            entries.push_back({{"set", e.set},
                               {"device", e.device},
                               {"value", e.value},
                               {"percentile", f.not_ranked.empty() ? json(e.percentile) : json()}});
        list.push_back({{"model", f.model},
                        {"name", f.name},
                        {"figure", figure_text(f.figure)},
                        {"probe", f.figure.probe},
                        {"operation", f.figure.operation},
                        {"unit", f.unit},
                        {"lower_is_better", f.lower_is_better},
                        {"population", f.population},
                        {"median", f.median},
                        {"min", f.min},
                        {"max", f.max},
                        {"mad", f.mad},
                        {"not_ranked", f.not_ranked.empty() ? json() : json(f.not_ranked)},
                        {"cards", entries}});
    }
    return list;
}

} // namespace vrb::health
