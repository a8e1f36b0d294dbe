// One pass's sum from the sum of all passes. The sweep's read and dot kernels add every
// pass's lanes into one running total, so no pass is a repeat a compiler could drop and
// no bookkeeping splits a thread's stream of loads at a pass's end (lapped_stride). The
// sums are taken modulo 2^64, where an odd number of passes has an inverse: the module
// runs an odd number and multiplies the total by it, exactly. Plain C++, tested on the host.
#pragma once

#include <algorithm>
#include <cstdint>

namespace vrb::gpu {

// The most passes, at most `wanted` and at least 1, that are odd.
inline uint32_t odd_passes(uint32_t wanted)
{
    const uint32_t p = std::max(wanted, 1u);
    return p % 2 ? p : p - 1;
}

// The inverse of an odd `a` modulo 2^64 by Newton's iteration: an odd a is its own inverse
// modulo 8, and each step doubles the low bits that are right (3, 6, 12, 24, 48, 96).
inline uint64_t inverse_mod_2_64(uint64_t a)
{
    uint64_t x = a; // right in the low 3 bits for any odd a
    for (int i = 0; i < 5; ++i)
        x *= 2 - a * x;
    return x;
}

// The sum one pass of `passes` (odd) made, from the total of all of them.
inline uint64_t one_pass_sum(uint64_t total, uint32_t passes)
{
    return total * inverse_mod_2_64(passes);
}

} // namespace vrb::gpu
