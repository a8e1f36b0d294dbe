// CHASE's links against the recording stand-in of the runtime (standin/, whose CHASE
// makes and walks the links on the host with the kernels' own functions): the links of a
// chain are made once for what it holds, so a point's warm-up and timed runs walk the
// same links, and the call that made them walks a lap untimed before its timed runs, so
// that no timed lap starts from caches the making flushed.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

namespace {

namespace standin = vrb::test::standin;
using standin::Call;

constexpr uint32_t kIndices = 4096;

// A cycle over the even indices, a node per 16 lanes as the latency probe lays them,
// `turn` nodes on from the plain order.
std::vector<uint32_t> cyclic_chain(uint32_t turn)
{
    std::vector<uint32_t> chain(kIndices, 0);
    const uint32_t nodes = kIndices / 16;
    for (uint32_t n = 0; n < nodes; ++n)
        chain[n * 16] = ((n + 1 + turn) % nodes) * 16;
    return chain;
}

uint32_t walk_end(const std::vector<uint32_t> &chain, uint64_t steps)
{
    uint32_t j = 0;
    for (uint64_t s = 0; s + 1 < steps; ++s)
        j = chain[j];
    return chain[j];
}

class ChaseLinks : public testing::Test {
  protected:
    void SetUp() override
    {
        context_ = std::make_unique<vrb_context>(nullptr);
        device_ = context_->open(0);
        chain_ = device_->alloc(vrb::gpu::kind_device, kIndices * sizeof(uint32_t));
        upload(cyclic_chain(0));
        standin::clear();
    }

    void upload(const std::vector<uint32_t> &chain)
    {
        chain_->upload(0, chain.data(), chain.size() * sizeof(uint32_t));
        held_ = chain;
    }

    // One call of CHASE over the chain: `runs` timed runs; answers the checksum.
    uint64_t chase(uint32_t runs, uint64_t steps = 1000, uint64_t offset = 0)
    {
        vrb_operation op{};
        op.struct_size = sizeof op;
        op.kind = VRB_OP_CHASE;
        op.element_bytes = 4;
        op.count = steps;
        op.passes = 1;
        op.src1 = {chain_.get(), offset};
        std::vector<double> seconds(runs, 0.0);
        vrb_op_output out{};
        out.struct_size = sizeof out;
        device_->run(op, seconds, out);
        return out.checksum;
    }

    static std::size_t calls(Call call)
    {
        std::size_t n = 0;
        for (const standin::Record &r : standin::journal())
            n += r.call == call;
        return n;
    }

    std::unique_ptr<vrb_context> context_;
    std::unique_ptr<vrb_device> device_;
    std::unique_ptr<vrb_buffer> chain_;
    std::vector<uint32_t> held_;
};

TEST_F(ChaseLinks, APointsWarmUpAndTimedRunsWalkLinksMadeOnce)
{
    EXPECT_EQ(chase(1), walk_end(held_, 1000)); // the warm-up
    EXPECT_EQ(chase(3), walk_end(held_, 1000)); // the timed runs
    EXPECT_EQ(chase(3, 77), walk_end(held_, 77));
    EXPECT_EQ(calls(Call::chase_links_made), 1u) << "one chain, one content: one making of its links";
}

TEST_F(ChaseLinks, TheCallThatMadeTheLinksWalksALapUntimedBeforeItsTimedRuns)
{
    chase(3);
    EXPECT_EQ(calls(Call::chase_walk), 4u) << "a warm lap, then three timed";
    standin::clear();
    chase(3);
    EXPECT_EQ(calls(Call::chase_walk), 3u) << "links made before: the caches were not flushed";
}

TEST_F(ChaseLinks, ANewChainInTheSameBufferMakesItsLinksAgain)
{
    chase(1);
    upload(cyclic_chain(5)); // the next point's chain
    EXPECT_EQ(chase(1), walk_end(held_, 1000));
    EXPECT_EQ(chase(1), walk_end(held_, 1000));
    EXPECT_EQ(calls(Call::chase_links_made), 2u);
}

TEST_F(ChaseLinks, AnOperationWritingTheChainMakesItsLinksAgain)
{
    chase(1);
    auto source = device_->alloc(vrb::gpu::kind_pinned, kIndices * sizeof(uint32_t));
    const std::vector<uint32_t> next = cyclic_chain(9);
    source->upload(0, next.data(), next.size() * sizeof(uint32_t));
    vrb_operation copy{};
    copy.struct_size = sizeof copy;
    copy.kind = VRB_OP_TRANSFER;
    copy.element_bytes = 1;
    copy.count = next.size() * sizeof(uint32_t);
    copy.src1 = {source.get(), 0};
    copy.dst = {chain_.get(), 0};
    std::vector<double> seconds(1, 0.0);
    vrb_op_output out{};
    out.struct_size = sizeof out;
    device_->run(copy, seconds, out);
    held_ = next;
    EXPECT_EQ(chase(1), walk_end(held_, 1000));
    EXPECT_EQ(calls(Call::chase_links_made), 2u);
}

TEST_F(ChaseLinks, AChainAtAnotherOffsetGetsLinksOfItsOwn)
{
    chase(1);
    chase(1, 10, 16 * sizeof(uint32_t)); // from node 1: a chain of fewer indices
    EXPECT_EQ(calls(Call::chase_links_made), 2u);
}

} // namespace
