// The pointer-chase chain, made in the core so every backend chases the same one.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vrb {

// A random cyclic permutation of `nodes` nodes (Sattolo's algorithm: one cycle through
// every node), from a fixed generator, so the chain is the same on every run and host.
// next[k] is the node after k.
std::vector<uint32_t> sattolo_cycle(uint32_t nodes, uint64_t seed);

// `nodes` nodes spread over a span of `lines` lines: node k sits in a random line of the
// k-th of `nodes` equal stretches of the span (node 0 at line 0, where a chase starts),
// and the chase visits them in the order of a Sattolo cycle. With as many nodes as lines
// it is a random cycle through every line; with fewer, a chase of `nodes` steps still
// touches `nodes` distinct lines from one end of the span to the other, and the chain
// costs memory and time in its nodes, not in its span.
struct Chain {
    std::vector<uint64_t> line; // node k's line, increasing in k
    std::vector<uint32_t> next;
};
Chain spread_chain(uint64_t lines, uint32_t nodes, uint64_t seed);

// The buffer's 32-bit lanes [first_lane, first_lane + out.size()): node k at lane
// line[k] x spacing holds its successor's lane index; every other lane is 0. Writing a
// GiB chain in pieces keeps the host's copy of it small. Throws std::invalid_argument
// when a lane index would not fit 32 bits.
void chain_lanes(const Chain &chain, uint32_t spacing, uint64_t first_lane, std::span<uint32_t> out);

// The lane index a chase of `steps` loads from lane 0 ends at.
uint64_t chase_end(const Chain &chain, uint32_t spacing, uint64_t steps);

} // namespace vrb
