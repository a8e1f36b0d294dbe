// The pointer-chase chain, made in the core so every backend chases the same one.
#pragma once

#include <cstdint>
#include <vector>

namespace vrb {

// A random cyclic permutation of `nodes` nodes (Sattolo's algorithm: one cycle through
// every node), from a fixed generator, so the chain is the same on every run and host.
// next[k] is the node after k.
std::vector<uint32_t> sattolo_cycle(uint32_t nodes, uint64_t seed);

// The buffer's 32-bit lanes: node k sits at lane k * spacing and holds the lane index
// of its successor; other lanes are 0. Throws std::invalid_argument when the lane
// indices would not fit 32 bits.
std::vector<uint32_t> chain_lanes(const std::vector<uint32_t> &next, uint32_t spacing);

// The lane index a chase of `steps` loads from lane 0 ends at.
uint64_t chase_end(const std::vector<uint32_t> &next, uint32_t spacing, uint64_t steps);

} // namespace vrb
