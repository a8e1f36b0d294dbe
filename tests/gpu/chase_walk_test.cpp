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

// The links a module makes from a chain, as chase_link_kernel makes them, in host
// memory: slots of 8 bytes and the trap after them.
struct HostLinks {
    vrb::gpu::ChaseLinks layout;
    std::vector<uint64_t> slots;
    uint64_t base() const { return reinterpret_cast<uint64_t>(slots.data()); }
};

HostLinks make_links(const std::vector<uint32_t> &chain)
{
    bool all_even = true;
    for (uint32_t v : chain)
        all_even = all_even && !vrb::gpu::chase_index_is_odd_inside(v, chain.size());
    HostLinks l;
    l.layout = vrb::gpu::chase_links_for(chain.size(), all_even);
    l.slots.resize(l.layout.bytes() / sizeof(uint64_t));
    for (uint64_t s = 0; s < l.layout.slots; ++s)
        l.slots[s] = vrb::gpu::chase_link(chain.data(), chain.size(), l.layout, s, l.base());
    l.slots[l.layout.slots] = l.base() + l.layout.slots * sizeof(uint64_t);
    return l;
}

// The links kernel's answer: the value at the index the walk of steps - 1 links ended at.
bool walk_links(const std::vector<uint32_t> &chain, const HostLinks &l, uint64_t steps, uint32_t &answer)
{
    const uint64_t end = vrb::gpu::chase_links(l.base(), steps - 1);
    uint64_t index = 0;
    if (!vrb::gpu::chase_index_at(end, l.base(), l.layout, index)) return false;
    answer = chain.at(index);
    return true;
}

// One node per 64-byte line, as the latency probe lays its chains out: every index even.
std::vector<uint32_t> spaced_cycle(uint32_t nodes, uint32_t spacing, uint32_t seed)
{
    const std::vector<uint32_t> cycle = random_cycle(nodes, seed);
    std::vector<uint32_t> chain(uint64_t(nodes) * spacing, 0);
    for (uint32_t k = 0; k < nodes; ++k)
        chain[uint64_t(k) * spacing] = cycle[k] * spacing;
    return chain;
}

TEST(ChaseLinks, AnswerAsAPlainWalkForEveryNumberOfStepsAroundTheUnroll)
{
    for (const std::vector<uint32_t> &chain : {random_cycle(37, 1), spaced_cycle(29, 16, 4)}) {
        const HostLinks l = make_links(chain);
        for (uint64_t steps = 1; steps <= 5 * vrb::gpu::kChaseUnroll + 3; ++steps) {
            uint32_t answer = 0;
            ASSERT_TRUE(walk_links(chain, l, steps, answer)) << steps << " steps";
            EXPECT_EQ(answer, follow(chain, steps)) << steps << " steps";
        }
    }
}

TEST(ChaseLinks, LieAtTheBytesOfTheirIndicesWhenEveryIndexFollowedIsEven)
{
    const std::vector<uint32_t> chain = spaced_cycle(64, 16, 5);
    const HostLinks l = make_links(chain);
    EXPECT_EQ(l.layout.shift, 2u);
    // The same footprint as the indices: 4 bytes an index, and the trap.
    EXPECT_EQ(l.layout.bytes(), chain.size() * 4 + 8);
    for (uint32_t i = 0; i < chain.size(); i += 16)
        EXPECT_EQ(l.slots[i / 2], l.base() + uint64_t(chain[i]) * 4) << "index " << i;
}

TEST(ChaseLinks, TakeEightBytesAnIndexWhenAnIndexInsideIsOdd)
{
    const std::vector<uint32_t> chain = random_cycle(40, 6);
    const HostLinks l = make_links(chain);
    EXPECT_EQ(l.layout.shift, 3u);
    EXPECT_EQ(l.layout.slots, chain.size());
    for (uint32_t i = 0; i < chain.size(); ++i)
        EXPECT_EQ(l.slots[i], l.base() + uint64_t(chain[i]) * 8) << "index " << i;
}

TEST(ChaseLinks, LeadAStrayToTheTrapAndStayInsideTheirMemory)
{
    std::vector<uint32_t> chain = spaced_cycle(32, 16, 7);
    const uint32_t from = follow(chain, 3);
    chain[from] = 1u << 30; // loaded by step 4
    const HostLinks l = make_links(chain);
    EXPECT_EQ(l.layout.shift, 2u); // an index outside does not count as odd or even
    uint32_t answer = 0;
    for (uint64_t steps : {5u, 6u, 40u, 1000u}) {
        EXPECT_FALSE(walk_links(chain, l, steps, answer)) << steps << " steps";
        ChaseStray stray;
        ASSERT_TRUE(chase_first_stray(chain.data(), steps, chain.size(), stray));
        EXPECT_EQ(stray.step, 4u);
        EXPECT_EQ(stray.from, from);
    }
    // Loaded by the final step, it is the answer, not a stray.
    ASSERT_TRUE(walk_links(chain, l, 4, answer));
    EXPECT_EQ(answer, 1u << 30);
}

} // namespace
