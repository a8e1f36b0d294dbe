// Whether two sets of samples differ by more than their noise: a two-sided
// Mann-Whitney U (rank) test, which assumes no distribution of the timings.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace vrb {

struct RankTest {
    enum class Verdict { too_few_samples, within_noise, beyond_noise };
    Verdict verdict = Verdict::too_few_samples;
    std::optional<double> p; // two-sided; unset with too few samples
    bool exact = false;      // the exact distribution of U, else the normal approximation
};

inline constexpr double rank_test_alpha = 0.05;
inline constexpr std::size_t rank_test_min_samples = 3;

// U's exact distribution when neither side has more than 30 samples and no value
// repeats; otherwise the normal approximation with tie and continuity corrections.
// Fewer than rank_test_min_samples on either side: too_few_samples.
RankTest mann_whitney(std::span<const double> a, std::span<const double> b);

std::string_view to_string(RankTest::Verdict verdict); // "too few samples", ...

} // namespace vrb
