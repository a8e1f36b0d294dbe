#include "capacity_search.hpp"

#include <algorithm>

namespace vrb::capacity {

std::string_view to_string(Attempt attempt)
{
    switch (attempt) {
    case Attempt::fits: return "fits";
    case Attempt::refused: return "refused";
    case Attempt::spilled: return "spilled";
    }
    return "refused";
}

uint64_t search_resolution(uint64_t budget, uint64_t granule)
{
    const uint64_t percent = budget / 100 / granule * granule;
    return std::clamp<uint64_t>(percent, granule, std::max<uint64_t>(granule, 64ull << 20));
}

SearchOutcome search_largest(uint64_t upper, uint64_t resolution, uint64_t granule,
                             const std::function<Attempt(uint64_t bytes)> &attempt)
{
    SearchOutcome out;
    upper = upper / granule * granule;
    if (upper < granule) return out;
    resolution = std::max(resolution, granule);

    auto try_size = [&](uint64_t bytes) {
        const Attempt a = attempt(bytes);
        out.steps.push_back({bytes, a});
        if (a == Attempt::fits)
            out.largest = std::max(out.largest, bytes);
        else if (out.smallest_unfit == 0 || bytes < out.smallest_unfit)
            out.smallest_unfit = bytes;
        return a == Attempt::fits;
    };

    if (try_size(upper)) return out;
    // Down from the top by gaps of 1, 2, 4 ... resolutions until one size fits.
    for (uint64_t gap = resolution;; gap *= 2) {
        const uint64_t bytes = gap < upper ? std::max((upper - gap) / granule * granule, granule) : granule;
        if (bytes >= out.smallest_unfit) continue;
        if (try_size(bytes)) break;
        if (bytes == granule) return out; // not even one granule fits
    }
    // Bisect between the largest fit and the smallest unfit.
    while (out.smallest_unfit - out.largest > resolution) {
        const uint64_t mid = (out.largest + (out.smallest_unfit - out.largest) / 2) / granule * granule;
        if (mid <= out.largest || mid >= out.smallest_unfit) break;
        try_size(mid);
    }
    return out;
}

} // namespace vrb::capacity
