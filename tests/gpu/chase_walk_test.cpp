// The chase kernel's walk (chase_walk.hpp), run on the host: the same answer as a plain
// walk of dependent loads, never a load outside the chain however it is corrupted, and
// a corrupted chain reported at the step an unclamped walk would have left it. Chains
// live in vectors of exactly their length, so the sanitizer build catches a stray load.
#include "../chase_chains.hpp"
#include "chase_walk.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using vrb::gpu::chase_clamped;
using vrb::gpu::chase_first_stray;
using vrb::gpu::chase_last_index;
using vrb::gpu::ChaseStray;
using vrb::test::follow;
using vrb::test::random_cycle;

TEST(ChaseWalk, AnswersAsAPlainWalkForEveryNumberOfStepsAroundItsUnroll)
{
    const std::vector<uint32_t> chain = random_cycle(37, 1);
    for (uint64_t steps = 0; steps <= 5 * vrb::gpu::kChaseUnroll + 3; ++steps) {
        const auto end = chase_clamped(chain.data(), steps, chase_last_index(chain.size()));
        EXPECT_EQ(end.last, follow(chain, steps)) << steps << " steps";
        EXPECT_FALSE(end.strayed) << steps << " steps";
        ChaseStray stray;
        EXPECT_FALSE(chase_first_stray(chain.data(), steps, chain.size(), stray));
    }
}

TEST(ChaseWalk, NeverLoadsOutsideAChainWithAnIndexPastItsEndAndReportsWhereItWouldHaveLeft)
{
    std::vector<uint32_t> chain = random_cycle(64, 2);
    // The index loaded at step 5 (counted from 1) points far outside the chain.
    uint32_t j = 0;
    for (int s = 0; s < 4; ++s) {
        ASSERT_NE(j, 63u) << "the walk to the stray passes the last element";
        j = chain[j];
    }
    const uint32_t from = j;
    ASSERT_NE(from, 63u);
    chain[from] = 1u << 30;
    // Past the stray the walk goes on clamped to the last element, which leads outside
    // too: the first stray is the one reported.
    chain[63] = (1u << 30) + 7;
    for (uint64_t steps : {6u, 7u, 40u, 1000u}) {
        const auto end = chase_clamped(chain.data(), steps, chase_last_index(chain.size()));
        EXPECT_TRUE(end.strayed) << steps << " steps";
        ChaseStray stray;
        ASSERT_TRUE(chase_first_stray(chain.data(), steps, chain.size(), stray)) << steps << " steps";
        EXPECT_EQ(stray.step, 5u);
        EXPECT_EQ(stray.index, 1u << 30);
        EXPECT_EQ(stray.from, from);
    }
}

TEST(ChaseWalk, TakesAnIndexPastTheEndLoadedByTheFinalStepAsTheAnswerNotAStray)
{
    std::vector<uint32_t> chain = random_cycle(16, 3);
    uint32_t j = 0;
    for (int s = 0; s < 2; ++s)
        j = chain[j];
    chain[j] = 99; // loaded by step 3, the last
    const auto end = chase_clamped(chain.data(), 3, chase_last_index(chain.size()));
    EXPECT_EQ(end.last, 99u);
    EXPECT_FALSE(end.strayed);
    ChaseStray stray;
    EXPECT_FALSE(chase_first_stray(chain.data(), 3, chain.size(), stray));
    // One step more and it would be followed.
    EXPECT_TRUE(chase_clamped(chain.data(), 4, chase_last_index(chain.size())).strayed);
}

TEST(ChaseWalk, LetsEveryIndexBeFollowedInAChainOfMoreThanTwoToThe32Elements)
{
    EXPECT_EQ(chase_last_index(0), 0u);
    EXPECT_EQ(chase_last_index(1), 0u);
    EXPECT_EQ(chase_last_index(1000), 999u);
    EXPECT_EQ(chase_last_index(1ull << 32), 0xffffffffu);
    EXPECT_EQ(chase_last_index((1ull << 32) + 5), 0xffffffffu);
}

} // namespace
