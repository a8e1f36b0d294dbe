// Splitting host-side work (verification, reference sums) across the CPU's cores.
#pragma once

#include <cstdint>
#include <functional>

namespace vrb {

// Calls body(begin, end) on disjoint ranges covering [0, n), on up to one thread per
// core, and returns when all are done. Rethrows the first exception a body threw.
void parallel_for(uint64_t n, const std::function<void(uint64_t begin, uint64_t end)> &body);

} // namespace vrb
