// What the host expects a backend to have computed: the reference every result is
// verified against. The same formulas as plugin.h's vocabulary, on 32-bit lanes.
#pragma once

#include <vrambench/core/modules/backend.hpp>

#include <cstdint>
#include <functional>
#include <span>

namespace vrb {

// The lane-wise value of a stream operation's output, from its input lanes.
uint32_t reference_lane(vrb_op_kind kind, uint32_t src1, uint32_t src2, uint32_t scalar);

// sum over lanes [first, first + n) of vrb_pattern(pattern, lane, seed), mod 2^64.
uint64_t reference_pattern_sum(uint32_t pattern, uint32_t seed, uint64_t first, uint64_t n);
// sum over lanes of (uint32)(random(lane, seed1) * random(lane, seed2)), mod 2^64.
uint64_t reference_random_dot(uint32_t seed1, uint32_t seed2, uint64_t first, uint64_t n);

struct Mismatches {
    uint64_t count = 0;
    uint64_t first = 0; // lane index of the first mismatch, valid when count > 0
    uint32_t first_expected = 0, first_actual = 0;
};

// Writes the expected values of lanes [first, first + out.size()) into out.
using ExpectedLanes = std::function<void(uint64_t first, std::span<uint32_t> out)>;

// Downloads `lanes` lanes of `buffer` from `offset` in chunks and compares them with
// what `expected` says, in parallel. The buffer is read once.
Mismatches compare_buffer(const Buffer &buffer, uint64_t offset, uint64_t lanes, const ExpectedLanes &expected);

// Expected lanes of a pattern, and of a stream operation over random inputs.
ExpectedLanes expect_pattern(uint32_t pattern, uint32_t seed);
ExpectedLanes expect_stream(vrb_op_kind kind, uint32_t seed1, uint32_t seed2, uint32_t scalar);

} // namespace vrb
