// The host's reference answers are made from the random pattern's block (a table per
// seed, one whitening word per block), not by hashing each lane: they must equal the
// lane-by-lane formula of pattern.h wherever a range starts and however it crosses
// blocks.
#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <vector>

namespace {

constexpr uint32_t seed1 = 0x5eed, seed2 = 0xbeef, scalar = 3;
// Starts inside a block, on its edge and past 2^32 lanes (the whitening word's high half).
const uint64_t firsts[] = {0, 1, 255, 256, 1000, (1ull << 32) - 7};
constexpr uint64_t lanes = 3 * VRB_PATTERN_BLOCK_LANES + 17;

} // namespace

TEST(Reference, ExpectedRandomLanesEqualThePatternLaneByLane)
{
    const vrb::ExpectedLanes expected = vrb::expect_pattern(VRB_PATTERN_RANDOM, seed1);
    for (uint64_t first : firsts) {
        std::vector<uint32_t> out(lanes);
        expected(first, out);
        for (uint64_t i = 0; i < lanes; ++i)
            ASSERT_EQ(out[i], vrb_pattern_random(first + i, seed1)) << "first " << first << " lane " << i;
    }
}

TEST(Reference, ExpectedStreamLanesEqualTheOperationOnThePatternLaneByLane)
{
    for (vrb_op_kind kind : {VRB_OP_COPY, VRB_OP_SCALE, VRB_OP_ADD, VRB_OP_TRIAD}) {
        const vrb::ExpectedLanes expected = vrb::expect_stream(kind, seed1, seed2, scalar);
        for (uint64_t first : firsts) {
            std::vector<uint32_t> out(lanes);
            expected(first, out);
            for (uint64_t i = 0; i < lanes; ++i) {
                const uint32_t a = vrb_pattern_random(first + i, seed1), b = vrb_pattern_random(first + i, seed2);
                ASSERT_EQ(out[i], vrb::reference_lane(kind, a, b, scalar))
                    << "kind " << kind << " first " << first << " lane " << i;
            }
        }
    }
}

TEST(Reference, SumsAndDotsEqualTheirLaneByLaneTotals)
{
    for (uint64_t first : firsts) {
        uint64_t sum = 0, dot = 0;
        for (uint64_t i = 0; i < lanes; ++i) {
            sum += vrb_pattern_random(first + i, seed1);
            dot += static_cast<uint32_t>(vrb_pattern_random(first + i, seed1) * vrb_pattern_random(first + i, seed2));
        }
        EXPECT_EQ(vrb::reference_pattern_sum(VRB_PATTERN_RANDOM, seed1, first, lanes), sum) << first;
        EXPECT_EQ(vrb::reference_random_dot(seed1, seed2, first, lanes), dot) << first;
    }
}
