#include "chain.hpp"

#include <numeric>
#include <stdexcept>

namespace vrb {

namespace {

// splitmix64: small, fast and the same everywhere, unlike std's distributions.
uint64_t next_random(uint64_t &state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace

std::vector<uint32_t> sattolo_cycle(uint32_t nodes, uint64_t seed)
{
    std::vector<uint32_t> order(nodes);
    std::iota(order.begin(), order.end(), 0u);
    uint64_t state = seed;
    // Sattolo: swapping only with strictly earlier positions makes k -> order[k] one
    // single cycle through every node.
    for (uint32_t i = nodes; i-- > 1;)
        std::swap(order[i], order[next_random(state) % i]);
    return order;
}

std::vector<uint32_t> chain_lanes(const std::vector<uint32_t> &next, uint32_t spacing)
{
    const uint64_t lanes = static_cast<uint64_t>(next.size()) * spacing;
    if (lanes > UINT32_MAX) throw std::invalid_argument("a chain past 2^32 lanes cannot hold 32-bit indices");
    std::vector<uint32_t> out(lanes, 0);
    for (std::size_t k = 0; k < next.size(); ++k)
        out[k * spacing] = next[k] * spacing;
    return out;
}

uint64_t chase_end(const std::vector<uint32_t> &next, uint32_t spacing, uint64_t steps)
{
    uint64_t node = 0;
    for (uint64_t s = 0; s < steps; ++s)
        node = next[node];
    return node * spacing;
}

} // namespace vrb
