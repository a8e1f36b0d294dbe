// Repetitions are timed one by one by the device's timestamps, and a host that asks to
// stop is obeyed.
#include "backend.hpp"

#include <gtest/gtest.h>
#include <vrambench/operation.hpp>

namespace vrb::vulkan::test {
namespace {

TEST(Timing, each_repetition_gets_its_own_device_timed_duration)
{
    vrb_device *device = shared_device();
    ASSERT_NE(device, nullptr);
    const uint64_t count = (4u << 20) / 16;
    BufferPtr src = alloc(device, 0, count * 16), dst = alloc(device, 0, count * 16);
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 16, count);
    op.src1 = {src.get(), 0};
    op.dst = {dst.get(), 0};
    const RunResult r = run(device, op, 7);
    EXPECT_EQ(r.output.timer, uint32_t(VRB_TIMER_DEVICE_TIMESTAMPS));
    ASSERT_EQ(r.seconds.size(), 7u);
    for (double s : r.seconds) {
        EXPECT_GT(s, 1e-7); // 8 MiB moved cannot take less than 100 ns
        EXPECT_LT(s, 10.0);
    }
}

TEST(Timing, falls_back_to_the_host_clock_where_a_queue_has_no_timestamps)
{
    const ScopedEnv timer("VRAMBENCH_VULKAN_TIMER", "host");
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    DevicePtr device = open_device(context.get());
    ASSERT_TRUE(device);
    BufferPtr src = alloc(device.get(), 0, 1 << 20), dst = alloc(device.get(), 0, 1 << 20);
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 16, (1 << 20) / 16);
    op.src1 = {src.get(), 0};
    op.dst = {dst.get(), 0};
    RunResult r = run(device.get(), op, 3);
    EXPECT_EQ(r.output.timer, uint32_t(VRB_TIMER_HOST_MONOTONIC));
    for (double s : r.seconds)
        EXPECT_GT(s, 0.0);
    vrb_operation copy = vrb::make_operation(VRB_OP_TRANSFER, 1, 1 << 20);
    copy.src1 = {src.get(), 0};
    copy.dst = {dst.get(), 0};
    r = run(device.get(), copy, 2);
    EXPECT_EQ(r.output.timer, uint32_t(VRB_TIMER_HOST_MONOTONIC));
    for (double s : r.seconds)
        EXPECT_GT(s, 0.0);
}

TEST(Timing, a_run_of_several_passes_reports_them_and_answers_as_one_pass)
{
    vrb_device *device = shared_device();
    ASSERT_NE(device, nullptr);
    const uint64_t count = 4096;
    std::vector<uint32_t> data(count * 4);
    for (uint64_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<uint32_t>(i * 2654435761u);
    BufferPtr src = alloc(device, 0, count * 16), dst = alloc(device, 0, count * 16);
    upload(src.get(), 0, data);

    vrb_operation read = vrb::make_operation(VRB_OP_READ, 16, count);
    read.src1 = {src.get(), 0};
    const uint64_t once = run(device, read).output.checksum;
    read.passes = 7;
    RunResult r = run(device, read, 2);
    EXPECT_EQ(r.output.passes, 7u);
    EXPECT_EQ(r.output.checksum, once);

    vrb_operation copy = vrb::make_operation(VRB_OP_COPY, 16, count);
    copy.src1 = {src.get(), 0};
    copy.dst = {dst.get(), 0};
    copy.passes = 5;
    EXPECT_EQ(run(device, copy).output.passes, 5u);
    EXPECT_EQ(download<uint32_t>(dst.get(), 0, data.size()), data);

    vrb_operation transfer = vrb::make_operation(VRB_OP_TRANSFER, 1, count * 16);
    transfer.src1 = {dst.get(), 0};
    transfer.dst = {src.get(), 0};
    transfer.passes = 3;
    EXPECT_EQ(run(device, transfer).output.passes, 3u);
    EXPECT_EQ(download<uint32_t>(src.get(), 0, data.size()), data);

    // A chain 0 -> 1 -> ... -> 9 -> 0: two passes answer what one does.
    std::vector<uint32_t> chain(10);
    for (uint32_t i = 0; i < 10; ++i)
        chain[i] = (i + 1) % 10;
    upload(src.get(), 0, chain);
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 13);
    chase.src1 = {src.get(), 0};
    chase.passes = 2;
    EXPECT_EQ(run(device, chase).output.checksum, 3u);
}

int32_t always_cancelled(void *)
{
    return 1;
}

TEST(Timing, a_run_stops_when_the_host_has_asked_to)
{
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    host.is_cancelled = always_cancelled;
    vrb_context *raw = nullptr;
    ASSERT_EQ(table().init(&host, &raw), VRB_OK) << why(VRB_ERROR_INTERNAL);
    ContextPtr context(raw);
    DevicePtr device = open_device(context.get());
    ASSERT_TRUE(device);
    BufferPtr buffer = alloc(device.get(), 0, 4096);
    vrb_operation op = vrb::make_operation(VRB_OP_READ, 4, 1024);
    op.src1 = {buffer.get(), 0};
    EXPECT_EQ(try_run(device.get(), op), VRB_ERROR_CANCELLED);
}

} // namespace
} // namespace vrb::vulkan::test
