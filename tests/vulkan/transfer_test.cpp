// TRANSFER through the copy queue between every pair of memory kinds, at offsets and
// sizes that are not multiples of anything, one way and both ways at once.
#include "backend.hpp"

#include <gtest/gtest.h>

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

namespace vrb::vulkan::test {
namespace {

std::vector<uint8_t> random_bytes(uint64_t n, uint32_t seed)
{
    std::vector<uint8_t> v(n);
    for (uint64_t i = 0; i < n; ++i)
        v[i] = static_cast<uint8_t>(vrb_pattern_random(i, seed) >> 8);
    return v;
}

void expect_transfer_between_every_pair_of_kinds(vrb_device *device, uint64_t bytes)
{
    const std::vector<Kind> kinds = memory_kinds(device);
    for (const Kind &from : kinds) {
        for (const Kind &to : kinds) {
            SCOPED_TRACE(std::string(from.info.name) + " -> " + to.info.name);
            const uint64_t so = 5, doff = 70'003;
            const auto data = random_bytes(bytes, from.index * 16 + to.index);
            BufferPtr src = alloc(device, from.index, so + bytes);
            BufferPtr dst = alloc(device, to.index, doff + bytes + 1);
            upload(src.get(), so, data);
            vrb_operation op = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes);
            op.src1 = {src.get(), so};
            op.dst = {dst.get(), doff};
            const RunResult r = run(device, op, 2);
            EXPECT_EQ(r.output.timer, uint32_t(VRB_TIMER_DEVICE_TIMESTAMPS));
            for (double s : r.seconds)
                EXPECT_GT(s, 0.0);
            EXPECT_EQ(download<uint8_t>(dst.get(), doff, bytes), data);
        }
    }
}

TEST(Transfer, copies_between_every_pair_of_memory_kinds)
{
    vrb_device *device = shared_device();
    ASSERT_NE(device, nullptr);
    expect_transfer_between_every_pair_of_kinds(device, (3u << 20) + 7);
}

TEST(Transfer, copies_across_segments_of_both_buffers)
{
    const ScopedEnv segments("VRAMBENCH_VULKAN_SEGMENT_BYTES", "65536");
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    DevicePtr device = open_device(context.get());
    ASSERT_TRUE(device);
    expect_transfer_between_every_pair_of_kinds(device.get(), 400'001);
}

TEST(Transfer, copies_both_ways_at_once)
{
    vrb_device *device = shared_device();
    ASSERT_NE(device, nullptr);
    const std::vector<Kind> kinds = memory_kinds(device);
    // Host-like memory to device-like memory and back: first and last kind.
    const Kind &a = kinds.front(), &b = kinds.back();
    const uint64_t bytes = (2u << 20) + 1;
    const auto up = random_bytes(bytes, 1), down = random_bytes(bytes, 2);
    BufferPtr host_src = alloc(device, a.index, bytes), dev_dst = alloc(device, b.index, bytes);
    BufferPtr dev_src = alloc(device, b.index, bytes), host_dst = alloc(device, a.index, bytes);
    upload(host_src.get(), 0, up);
    upload(dev_src.get(), 0, down);
    vrb_operation op = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes);
    op.src1 = {host_src.get(), 0};
    op.dst = {dev_dst.get(), 0};
    op.src2 = {dev_src.get(), 0};
    op.dst2 = {host_dst.get(), 0};
    const RunResult r = run(device, op, 3);
    for (double s : r.seconds)
        EXPECT_GT(s, 0.0);
    // One queue's timestamps, a calibrated span of two queues, or the host's clock;
    // never two queues' raw timestamps set against each other.
    const uint32_t timer = r.output.timer;
    EXPECT_TRUE(timer == VRB_TIMER_DEVICE_TIMESTAMPS || timer == VRB_TIMER_CALIBRATED_TIMESTAMPS ||
                timer == VRB_TIMER_HOST_MONOTONIC)
        << timer;
    RecordProperty("timer", int(timer));
    EXPECT_EQ(download<uint8_t>(dev_dst.get(), 0, bytes), up);
    EXPECT_EQ(download<uint8_t>(host_dst.get(), 0, bytes), down);
}

} // namespace
} // namespace vrb::vulkan::test
