// Finding the largest size for which an attempt succeeds, with few attempts near the
// top: failed attempts cost little (the allocator refuses at once), successful ones
// cost a write and a read of every byte, so the search first steps down from the
// upper bound by doubling gaps and only then bisects.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace vrb::capacity {

enum class Attempt {
    fits,    // allocated, written and read back at device speed
    refused, // the allocation failed
    spilled  // allocated, but written far slower than device memory: it is not there
};

std::string_view to_string(Attempt attempt);

struct SearchStep {
    uint64_t bytes = 0;
    Attempt outcome = Attempt::refused;
};

struct SearchOutcome {
    uint64_t largest = 0;        // the largest size that fit; 0 when none did
    uint64_t smallest_unfit = 0; // the smallest that did not; 0 when every attempt fit
    std::vector<SearchStep> steps;
};

// The largest multiple of `granule` in [granule, upper] for which `attempt` fits,
// assuming every size below one that fits fits too. Tries `upper` first; ends when
// the gap between the largest fit and the smallest unfit is at most `resolution`
// (or one granule), so the answer lies within `resolution` below the true limit.
// `resolution` and `granule` must be positive.
SearchOutcome search_largest(uint64_t upper, uint64_t resolution, uint64_t granule,
                             const std::function<Attempt(uint64_t bytes)> &attempt);

// The resolution a search over `budget` bytes uses: 1% of it, between one granule and
// 64 MiB, rounded to the granule.
uint64_t search_resolution(uint64_t budget, uint64_t granule);

} // namespace vrb::capacity
