// Where each card's figures stand among every set of its model the report was given or
// results/ publishes: health's ranking (core/health/rank), drawn as a table.
#include "builders.hpp"

#include <vrambench/core/health/card_model.hpp>
#include <vrambench/core/health/rank.hpp>
#include <vrambench/core/health/thresholds.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb::report {

json rank_section(const Card &card, const std::vector<Card> &cards)
{
    json section = make_section("Among the sets of its model");
    std::vector<health::SetRef> given;
    for (const Card &c : cards) {
        const bool seen = std::any_of(given.begin(), given.end(), [&](const auto &g) { return g.set == c.set; });
        if (!seen) given.push_back({c.set == card.set ? "this set" : c.label, c.set});
    }
    json table = make_table({"figure", "this card", "median", "spread (min to max)", "percentile", "figures"});
    std::size_t ranked = 0, unranked = 0;
    for (const health::RankedFigure &f : health::rank_among_published(given))
        for (const health::RankEntry &e : f.entries) {
            if (e.device != card.id || e.set != "this set") continue;
            if (!f.not_ranked.empty()) {
                ++unranked;
                continue;
            }
            ++ranked;
            add_row(table, {health::figure_text(f.figure), fmt::format("{} {}", figure_text(e.value, 1), f.unit),
                            fmt::format("{} {}", figure_text(f.median, 1), f.unit),
                            fmt::format("{} to {}", figure_text(f.min, 1), figure_text(f.max, 1)),
                            fixed(e.percentile, 0), fmt::format("{}", f.population)});
        }
    if (ranked) section["tables"].push_back(std::move(table));
    if (!health::card_model_of(*card.device).pci) {
        section["notes"].push_back("Not ranked: the device reports no PCI ids, so it is no card model (a CPU or a "
                                   "software renderer shares its name and memory with machines of other kinds).");
        return section;
    }
    section["notes"].push_back(
        ranked ? fmt::format("Percentile: the share of the model's other figures this card's is better than (ties "
                             "half); {} sets at least, each run once, given or published under results/.",
                             health::rank_min_sets)
               : fmt::format("Not ranked: fewer than {} sets of this model ({} figures seen) among those given and "
                             "published under results/.",
                             health::rank_min_sets, unranked));
    return section;
}

} // namespace vrb::report
