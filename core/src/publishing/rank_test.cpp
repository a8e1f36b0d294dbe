#include <vrambench/core/publishing/rank_test.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace vrb {

namespace {

// How many of the C(m+n, m) orderings of two untied samples give each U, by the
// recurrence on whether the largest value belongs to the first sample (m, n <= 30,
// so doubles hold every count exactly enough for a p-value).
std::vector<double> u_counts(std::size_t m, std::size_t n)
{
    // row[j] holds the counts for (i, j) while row i is built.
    std::vector<std::vector<double>> row(n + 1, std::vector<double>{1.0});
    for (std::size_t i = 1; i <= m; ++i) {
        std::vector<std::vector<double>> next(n + 1);
        next[0] = {1.0};
        for (std::size_t j = 1; j <= n; ++j) {
            std::vector<double> counts(i * j + 1, 0.0);
            const auto &largest_first = row[j]; // (i - 1, j): U grows by j
            for (std::size_t u = 0; u < largest_first.size(); ++u)
                counts[u + j] += largest_first[u];
            const auto &largest_second = next[j - 1]; // (i, j - 1): U unchanged
            for (std::size_t u = 0; u < largest_second.size(); ++u)
                counts[u] += largest_second[u];
            next[j] = std::move(counts);
        }
        row = std::move(next);
    }
    return row[n];
}

} // namespace

RankTest mann_whitney(std::span<const double> a, std::span<const double> b)
{
    RankTest test;
    const std::size_t m = a.size(), n = b.size();
    if (m < rank_test_min_samples || n < rank_test_min_samples) return test;

    struct Value {
        double x;
        bool first;
    };
    std::vector<Value> all;
    all.reserve(m + n);
    for (double x : a)
        all.push_back({x, true});
    for (double x : b)
        all.push_back({x, false});
    std::sort(all.begin(), all.end(), [](const Value &l, const Value &r) { return l.x < r.x; });

    // Ties share the mean of the ranks they span.
    double rank_sum_a = 0, tie_term = 0;
    bool ties = false;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].x == all[i].x)
            ++j;
        const double t = static_cast<double>(j - i);
        const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (std::size_t k = i; k < j; ++k)
            if (all[k].first) rank_sum_a += rank;
        if (t > 1) {
            ties = true;
            tie_term += t * t * t - t;
        }
        i = j;
    }
    const double md = static_cast<double>(m), nd = static_cast<double>(n);
    const double u_a = rank_sum_a - md * (md + 1) / 2;
    const double u_small = std::min(u_a, md * nd - u_a);

    double p = 1;
    if (!ties && m <= 30 && n <= 30) {
        const std::vector<double> counts = u_counts(m, n);
        const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
        double tail = 0;
        for (std::size_t u = 0; u < counts.size() && static_cast<double>(u) <= u_small + 1e-9; ++u)
            tail += counts[u];
        p = std::min(1.0, 2 * tail / total);
        test.exact = true;
    } else {
        const double total = md + nd;
        const double variance = md * nd / 12 * ((total + 1) - tie_term / (total * (total - 1)));
        const double mean = md * nd / 2;
        if (variance > 0) {
            const double z = std::max(0.0, std::abs(u_a - mean) - 0.5) / std::sqrt(variance);
            p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
        }
    }
    test.p = p;
    test.verdict = p < rank_test_alpha ? RankTest::Verdict::beyond_noise : RankTest::Verdict::within_noise;
    return test;
}

std::string_view to_string(RankTest::Verdict verdict)
{
    switch (verdict) {
    case RankTest::Verdict::too_few_samples: return "too few samples";
    case RankTest::Verdict::within_noise: return "within noise";
    case RankTest::Verdict::beyond_noise: return "beyond noise";
    }
    return "?";
}

} // namespace vrb
