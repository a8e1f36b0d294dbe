// The operations recomputed on the host, lane by lane, straight from plugin.h's
// definitions: what every device result is compared with, bit for bit.
#pragma once

#include "../chase_chains.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <vector>

namespace vrb::vulkan::test {

// Lanes [0, lanes) of the random pattern: incompressible input data.
std::vector<uint32_t> random_lanes(uint64_t lanes, uint32_t seed);

// Element i of a buffer of `width` lanes per element, summed into 64 bits.
uint64_t element_sum(const std::vector<uint32_t> &lanes, uint64_t element, uint32_t width);

// dst of COPY, SCALE, ADD and TRIAD.
std::vector<uint32_t> expected_stream(vrb_op_kind kind, const std::vector<uint32_t> &src1,
                                      const std::vector<uint32_t> &src2, uint32_t scalar);

// The checksum of READ, DOT and STRIDED_READ (GATHER: see expected_gather).
uint64_t expected_sum(vrb_op_kind kind, const std::vector<uint32_t> &src1, const std::vector<uint32_t> &src2,
                      uint64_t count, uint32_t width, uint64_t stride);

uint64_t expected_gather(const std::vector<uint32_t> &src1, const std::vector<uint32_t> &index, uint32_t width);

// Chains for CHASE (tests/chase_chains.hpp).
using vrb::test::follow;
using vrb::test::random_cycle;

} // namespace vrb::vulkan::test
