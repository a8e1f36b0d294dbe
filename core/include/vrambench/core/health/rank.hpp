// Where a card's figures stand among every set of its model: the sets given (to report
// or compare) and the published ones under results/, each run once. For each figure
// health judges: the median, the spread and each given card's percentile. Devices
// without PCI ids are no card model (CardModel::pci) and are not ranked.
#pragma once

#include <vrambench/core/health/figure.hpp>
#include <vrambench/core/health/reference.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vrb::health {

struct SetRef {
    std::string name;
    const nlohmann::json *set = nullptr;
};

struct RankEntry {
    std::string set, device;
    double value = 0;
    // 0 to 100: the share of the model's other figures this one is better than (ties
    // count half); 100 the best of them, 50 the middle.
    double percentile = 0;
};

struct RankedFigure {
    std::string model, name; // device_match_text(.., model) and the first card's name
    FigureKey figure;
    std::string unit;
    bool lower_is_better = false;
    std::size_t population = 0; // figures of the model ranked among: one per card and run
    double median = 0, min = 0, max = 0;
    double mad = 0;                 // median absolute deviation from the median
    std::vector<RankEntry> entries; // the given sets' cards
    std::string not_ranked;         // why not, when the population is under rank_min_sets
};

// `given` first, then `published` where its run is not among the given ones.
std::vector<RankedFigure> rank_figures(const std::vector<SetRef> &given, const std::vector<NamedSet> &published);

// The published sets as health finds them (published_sets()), for report and compare.
std::vector<RankedFigure> rank_among_published(const std::vector<SetRef> &given);

std::string rank_text(const std::vector<RankedFigure> &ranks);
nlohmann::json rank_json(const std::vector<RankedFigure> &ranks);

} // namespace vrb::health
