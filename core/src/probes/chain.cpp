#include "chain.hpp"

#include <algorithm>
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

Chain spread_chain(uint64_t lines, uint32_t nodes, uint64_t seed)
{
    if (nodes == 0 || lines < nodes) throw std::invalid_argument("a chain needs at least one line per node");
    Chain c;
    c.next = sattolo_cycle(nodes, seed);
    c.line.resize(nodes);
    uint64_t state = seed ^ 0x5eed11e5ull;
    for (uint64_t k = 0; k < nodes; ++k) {
        // Stretch k is [k x lines / nodes, (k + 1) x lines / nodes): never empty, as lines >= nodes.
        const uint64_t first = static_cast<uint64_t>((static_cast<unsigned __int128>(k) * lines) / nodes);
        const uint64_t end = static_cast<uint64_t>((static_cast<unsigned __int128>(k + 1) * lines) / nodes);
        c.line[k] = k == 0 ? 0 : first + next_random(state) % (end - first);
    }
    return c;
}

void chain_lanes(const Chain &c, uint32_t spacing, uint64_t first_lane, std::span<uint32_t> out)
{
    if (!c.line.empty() && (c.line.back() + 1) * spacing > UINT32_MAX)
        throw std::invalid_argument("a chain past 2^32 lanes cannot hold 32-bit indices");
    std::fill(out.begin(), out.end(), 0u);
    const uint64_t end_lane = first_lane + out.size();
    // Nodes lie in increasing lanes: find the first at or past first_lane, go to the end.
    auto k = static_cast<std::size_t>(
        std::lower_bound(c.line.begin(), c.line.end(), (first_lane + spacing - 1) / spacing) - c.line.begin());
    for (; k < c.line.size() && c.line[k] * spacing < end_lane; ++k)
        out[c.line[k] * spacing - first_lane] = static_cast<uint32_t>(c.line[c.next[k]] * spacing);
}

uint64_t chase_end(const Chain &c, uint32_t spacing, uint64_t steps)
{
    // One cycle through every node: whole laps end where they started.
    uint64_t node = 0;
    for (uint64_t s = 0; s < steps % c.next.size(); ++s)
        node = c.next[node];
    return c.line[node] * spacing;
}

} // namespace vrb
