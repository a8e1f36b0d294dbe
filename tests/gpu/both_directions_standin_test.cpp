// A TRANSFER in both directions at once, against the recording stand-in of the runtime:
// the result says whether the two copies really overlapped. With pageable host memory
// at either end the runtime copies synchronously with the host, one copy after the
// other, and the module must say so rather than let the pair pass for concurrent.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"
#include "transfer.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace {

namespace standin = vrb::test::standin;
using vrb::gpu::kind_device;
using vrb::gpu::kind_pageable;
using vrb::gpu::kind_pinned;

class BothDirections : public testing::Test {
  protected:
    void SetUp() override
    {
        context_ = std::make_unique<vrb_context>(nullptr);
        device_ = context_->open(0);
        standin::clear();
    }

    // Copies host memory of `host_kind` to the device and device memory to host memory
    // of that kind, both at once, and checks that both copies landed.
    vrb_op_output both_ways(uint32_t host_kind)
    {
        constexpr uint64_t bytes = 4096;
        auto host_src = device_->alloc(host_kind, bytes);
        auto host_dst = device_->alloc(host_kind, bytes);
        auto device_src = device_->alloc(kind_device, bytes);
        auto device_dst = device_->alloc(kind_device, bytes);
        std::vector<uint8_t> up(bytes, 0x11), down(bytes, 0x22), read(bytes, 0);
        host_src->upload(0, up.data(), bytes);
        device_src->upload(0, down.data(), bytes);

        vrb_operation op{};
        op.struct_size = sizeof op;
        op.kind = VRB_OP_TRANSFER;
        op.element_bytes = 1;
        op.count = bytes;
        op.src1 = {host_src.get(), 0};
        op.dst = {device_dst.get(), 0};
        op.src2 = {device_src.get(), 0};
        op.dst2 = {host_dst.get(), 0};
        std::array<double, 2> seconds{};
        vrb_op_output out{};
        out.struct_size = sizeof out;
        device_->run(op, seconds, out);
        // The stand-in lands a stream's copies when that stream is waited for; the
        // second copy's stream is joined to the run's on the device, which it does not model.
        EXPECT_EQ(vrb::gpu::stream_synchronize(device_->second_stream.get()), vrb::gpu::kSuccess);

        device_dst->download(0, read.data(), bytes);
        EXPECT_EQ(read, up) << "the host -> device copy";
        host_dst->download(0, read.data(), bytes);
        EXPECT_EQ(read, down) << "the device -> host copy";
        return out;
    }

    std::unique_ptr<vrb_context> context_;
    std::unique_ptr<vrb_device> device_;
};

TEST_F(BothDirections, WithPageableHostMemoryTheResultSaysTheCopiesRanOneAfterTheOther)
{
    const vrb_op_output out = both_ways(kind_pageable);
    EXPECT_TRUE(out.flags & VRB_OUTPUT_SEQUENTIAL);
}

TEST_F(BothDirections, WithPinnedHostMemoryTheCopiesAreLeftToOverlap)
{
    const vrb_op_output out = both_ways(kind_pinned);
    EXPECT_FALSE(out.flags & VRB_OUTPUT_SEQUENTIAL);
    EXPECT_EQ(out.timer, uint32_t(VRB_TIMER_DEVICE_EVENTS));
}

TEST_F(BothDirections, OneDirectionOfPageableMemoryIsNotCalledSequential)
{
    auto host = device_->alloc(kind_pageable, 256);
    auto dev = device_->alloc(kind_device, 256);
    vrb_operation op{};
    op.struct_size = sizeof op;
    op.kind = VRB_OP_TRANSFER;
    op.element_bytes = 1;
    op.count = 256;
    op.src1 = {host.get(), 0};
    op.dst = {dev.get(), 0};
    EXPECT_FALSE(vrb::gpu::runs_sequentially(op));
    std::array<double, 1> seconds{};
    vrb_op_output out{};
    out.struct_size = sizeof out;
    device_->run(op, seconds, out);
    EXPECT_EQ(out.flags, 0u);
}

} // namespace
