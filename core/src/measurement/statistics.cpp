#include <vrambench/core/measurement/statistics.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace vrb {

Statistics summarize(std::span<const double> samples)
{
    if (samples.empty()) throw std::invalid_argument("statistics of no samples");
    for (double s : samples)
        if (!std::isfinite(s)) throw std::invalid_argument("statistics of a non-finite sample");
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    Statistics st;
    st.count = sorted.size();
    st.min = sorted.front();
    st.max = sorted.back();
    const std::size_t n = sorted.size();
    st.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    st.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
    if (n > 1) {
        double ss = 0;
        for (double s : sorted)
            ss += (s - st.mean) * (s - st.mean);
        st.stddev = std::sqrt(ss / static_cast<double>(n - 1));
    }
    st.cv = st.mean != 0 ? st.stddev / st.mean : 0;
    return st;
}

std::string_view to_string(Estimator estimator)
{
    switch (estimator) {
    case Estimator::median: return "median";
    case Estimator::min: return "min";
    case Estimator::max: return "max";
    case Estimator::mean: return "mean";
    }
    return "median";
}

double pick(const Statistics &stats, Estimator estimator)
{
    switch (estimator) {
    case Estimator::median: return stats.median;
    case Estimator::min: return stats.min;
    case Estimator::max: return stats.max;
    case Estimator::mean: return stats.mean;
    }
    return stats.median;
}

} // namespace vrb
