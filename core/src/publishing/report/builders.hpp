// The report's three builders: each card's own sections, the views that overlay the
// cards, and the table that sets device memory against host RAM.
#pragma once

#include "figures.hpp"

namespace vrb::report {

struct Card {
    const json *set = nullptr;    // the result set the device was measured in
    const json *device = nullptr; // its description in that set
    std::string id;               // "cuda:0"
    std::string label;            // the device's name and id, and the set's name when there are several
};

json card_sections(const Card &card);
// The PCIe link the card trained at and, beside each stream, sweep, pattern and transfer
// figure, the busy %, clocks and power its telemetry reported (card_around_memory.cpp).
json card_around_memory_section(const Card &card);
json overlay_sections(const std::vector<Card> &cards);
json vram_against_ram(const std::vector<Card> &cards);
// Each card's figures alone against the same card's under load (run --concurrent); no
// section when no card has both.
json under_load_sections(const std::vector<Card> &cards);
// Which catalogued models fit on each card, at which dtype, and their decode ceilings.
json model_fit_section(const std::vector<Card> &cards);
// Where the card's figures stand among every set of its model, given or published.
json rank_section(const Card &card, const std::vector<Card> &cards);

} // namespace vrb::report
