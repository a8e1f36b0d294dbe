// Summary statistics over a probe's raw samples.
#pragma once

#include <span>
#include <string_view>

namespace vrb {

struct Statistics {
    std::size_t count = 0;
    double min = 0, median = 0, mean = 0, max = 0;
    double stddev = 0; // sample standard deviation (n - 1)
    double cv = 0;     // stddev / mean
};

// Requires at least one sample; every sample must be finite.
Statistics summarize(std::span<const double> samples);

// The statistic a result reports as its figure. Median by default: robust to the
// one-off stalls of shared machines.
enum class Estimator { median, min, max, mean };

std::string_view to_string(Estimator estimator);
double pick(const Statistics &stats, Estimator estimator);

} // namespace vrb
