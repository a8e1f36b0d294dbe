// Chains for CHASE tests of every backend: one cycle through all n elements in a random
// order, and where a walk of `steps` dependent loads from element 0 ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace vrb::test {

inline std::vector<uint32_t> random_cycle(uint32_t n, uint32_t seed)
{
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(seed);
    std::shuffle(order.begin() + 1, order.end(), rng);
    std::vector<uint32_t> chain(n);
    for (uint32_t i = 0; i < n; ++i)
        chain[order[i]] = order[(i + 1) % n];
    return chain;
}

inline uint32_t follow(const std::vector<uint32_t> &chain, uint64_t steps)
{
    uint32_t j = 0;
    for (uint64_t s = 0; s < steps; ++s)
        j = chain.at(j);
    return j;
}

} // namespace vrb::test
