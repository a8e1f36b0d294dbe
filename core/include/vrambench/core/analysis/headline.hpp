// A curve result's headline: which of its points gives the result its value, and what a
// probe derives beside it. A probe picks its headline with these when it finishes a
// curve, and `vrambench analyze` picks it again from a stored set's points, so the value a
// reader sees is chosen by one rule, whichever version recorded the points.
#pragma once

#include <vrambench/core/analysis/curve_analysis.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace vrb::analysis {

enum class HeadlineRule {
    last,    // the largest x with a figure: memory, past the caches a curve grows through
    slowest, // the least figure: pattern.alignment's worst offset, not the aligned one at its end
};

// The rule a probe's curve is headlined by.
HeadlineRule headline_rule(std::string_view probe);

// The index of the headline among a curve's point figures (none, or not positive: no
// figure); none where no point has one. Of equal slowest figures, the first.
std::optional<std::size_t> headline_point(std::span<const std::optional<double>> figures, HeadlineRule rule);

// What a probe derives beside its headline, written into a curve result's `extra` (which
// holds extra.curve.points) from the headline point `headline`: pattern.alignment's offset
// and its ratio to the aligned figure; a device-to-device bandwidth.transfer's traffic
// (bytes read plus written). Other probes derive nothing.
void headline_extras(std::string_view probe, const nlohmann::json &parameters, std::size_t headline,
                     nlohmann::json &extra);

// Re-derives the headline of every curve result of a stored set from its points with this
// version's rule, in place: value, runs, samples, statistics and bytes from the headline
// point, and headline_extras. One Change per result whose headline changed. Points are
// never touched, nor the value of a result that is no curve (that value is the measurement).
std::vector<Change> rederive_headlines(nlohmann::json &set);

} // namespace vrb::analysis
