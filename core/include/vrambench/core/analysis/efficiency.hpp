// Re-deriving a stored set's efficiencies: each bandwidth figure over the device's peak as
// this version chooses it (the datasheet table may have learned the card since), and each
// host-device transfer over the link it was measured on, as the sampler reads that link
// now (the rule for copies made one after the other may have changed). Measured values are
// never touched; a figure whose device has no peak, or whose transfer has no link reading,
// keeps what it had.
#pragma once

#include <vrambench/core/analysis/curve_analysis.hpp>

#include <nlohmann/json.hpp>

#include <vector>

namespace vrb::analysis {

// Rewrites `efficiency` and `link_efficiency` of every result in place; one Change per
// figure whose efficiency changed ("cuda:0 bandwidth.transfer both-directions pageable
// link efficiency": before and after).
std::vector<Change> rederive_efficiencies(nlohmann::json &set);

} // namespace vrb::analysis
