// A working set below one wave of the device, on the device the machine has (lavapipe
// in CI): it is walked whole on every unit, the run says so, and its passes count every
// workgroup's walk, so the core counts the bytes that moved; the answer is one pass's.
// Past a wave every pass moves the shares on and still covers the set once.
#include "backend.hpp"

#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace vrb::vulkan::test {
namespace {

uint32_t device_kind(vrb_device *device)
{
    for (const Kind &k : memory_kinds(device))
        if (k.info.flags & VRB_MEMORY_DEVICE_ACCESS) return k.index;
    ADD_FAILURE() << "no memory kind a shader can use";
    return 0;
}

vrb_operation operation(vrb_op_kind kind, uint64_t count, uint32_t passes)
{
    vrb_operation op{};
    op.struct_size = sizeof op;
    op.kind = kind;
    op.element_bytes = 4;
    op.count = count;
    op.stride = 1;
    op.passes = passes;
    return op;
}

TEST(WholeSet, a_small_read_is_walked_by_every_workgroup_and_the_run_says_so)
{
    for (const char *tuning : kTunings) {
        SCOPED_TRACE(std::string(tuning) + " shaders");
        vrb_device *device = shared_device(tuning);
        ASSERT_NE(device, nullptr);
        // Below a wave of any device: lavapipe's is its threads' workgroups of 8 lanes.
        const uint64_t count = 7;
        std::vector<uint32_t> data(count);
        std::iota(data.begin(), data.end(), 0xfffffff0u); // lanes that wrap a 32-bit sum
        const uint64_t want = std::accumulate(data.begin(), data.end(), uint64_t(0));
        BufferPtr src = alloc(device, device_kind(device), count * 4);
        upload(src.get(), 0, data);
        vrb_operation op = operation(VRB_OP_READ, count, 3);
        op.src1 = {src.get(), 0};
        const RunResult r = run(device, op);
        EXPECT_TRUE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
        // Several workgroups each made the three passes.
        EXPECT_GT(r.output.passes, 3u);
        EXPECT_EQ(r.output.passes % 3, 0u);
        EXPECT_EQ(r.output.checksum, want);
    }
}

// VRAMBENCH_VULKAN_UNITS gives lavapipe a GPU's geometry: 5 units of 2048 invocations
// hold 40 workgroups of 256 (lavapipe's own wave is 8 a thread), so a set of 1024 is
// below one wave and walked whole by one workgroup on each of the 5 units, as wide as
// lavapipe allows (1024), as a GPU's would be.
TEST(WholeSet, units_given_by_the_user_size_the_wave_as_a_gpus_would)
{
    const ScopedEnv gpu("VRAMBENCH_VULKAN_SHADERS", "gpu"), width("VRAMBENCH_VULKAN_LOCAL_SIZE", "256");
    const uint64_t count = 1024;
    std::vector<uint32_t> data(count);
    std::iota(data.begin(), data.end(), 1u);
    const uint64_t want = std::accumulate(data.begin(), data.end(), uint64_t(0));
    auto read_once = [&](const char *units) {
        const ScopedEnv given("VRAMBENCH_VULKAN_UNITS", units);
        ContextPtr context = open_context();
        DevicePtr device = open_device(context.get());
        BufferPtr src = alloc(device.get(), device_kind(device.get()), count * 4);
        upload(src.get(), 0, data);
        vrb_operation op = operation(VRB_OP_READ, count, 2);
        op.src1 = {src.get(), 0};
        return run(device.get(), op).output;
    };
    const vrb_op_output given = read_once("5");
    EXPECT_TRUE(given.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(given.passes, 2u * 5) << "two passes by each of 5 workgroups, one a unit";
    EXPECT_EQ(given.checksum, want);
}

TEST(WholeSet, a_small_copy_walked_by_every_workgroup_writes_each_element_once_over)
{
    for (const char *tuning : kTunings) {
        SCOPED_TRACE(std::string(tuning) + " shaders");
        vrb_device *device = shared_device(tuning);
        ASSERT_NE(device, nullptr);
        const uint64_t count = 7;
        std::vector<uint32_t> data(count);
        std::iota(data.begin(), data.end(), 7u);
        const uint32_t kind = device_kind(device);
        BufferPtr src = alloc(device, kind, count * 4);
        BufferPtr dst = alloc(device, kind, count * 4);
        upload(src.get(), 0, data);
        upload(dst.get(), 0, std::vector<uint32_t>(count, 0));
        vrb_operation op = operation(VRB_OP_TRIAD, count, 2);
        op.scalar = 3;
        op.src1 = {src.get(), 0};
        op.src2 = {src.get(), 0};
        op.dst = {dst.get(), 0};
        const RunResult r = run(device, op);
        EXPECT_TRUE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
        const std::vector<uint32_t> got = download<uint32_t>(dst.get(), 0, count);
        for (uint64_t i = 0; i < count; ++i)
            ASSERT_EQ(got[i], data[i] + 3 * data[i]) << "element " << i;
    }
}

TEST(WholeSet, a_set_past_one_wave_is_shared_out_and_its_passes_are_those_asked_for)
{
    vrb_device *device = shared_device();
    ASSERT_NE(device, nullptr);
    const uint64_t count = uint64_t(16) << 20; // 64 MiB: past a wave of any device here
    BufferPtr src = alloc(device, device_kind(device), count * 4);
    vrb_operation op = operation(VRB_OP_READ, count, 2);
    op.src1 = {src.get(), 0};
    const RunResult r = run(device, op);
    EXPECT_FALSE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(r.output.passes, 2u);
}

TEST(WholeSet, a_shared_out_set_whose_shares_move_on_each_pass_still_reads_and_copies_each_element_once_a_pass)
{
    // On the GPU shaders each pass moves every workgroup's share on (PASS_FIRST), so no
    // unit re-reads its own share from its L1; every pass must still cover the set once.
    for (const char *tuning : kTunings) {
        SCOPED_TRACE(std::string(tuning) + " shaders");
        vrb_device *device = shared_device(tuning);
        ASSERT_NE(device, nullptr);
        const uint64_t count = 200'003;
        std::vector<uint32_t> data(count);
        for (uint64_t i = 0; i < count; ++i)
            data[i] = uint32_t(i * 2654435761u);
        const uint64_t want = std::accumulate(data.begin(), data.end(), uint64_t(0));
        const uint32_t kind = device_kind(device);
        BufferPtr src = alloc(device, kind, count * 4);
        BufferPtr dst = alloc(device, kind, count * 4);
        upload(src.get(), 0, data);
        upload(dst.get(), 0, std::vector<uint32_t>(count, 0));
        for (uint32_t passes : {2u, 3u, 9u}) {
            vrb_operation read = operation(VRB_OP_READ, count, passes);
            read.src1 = {src.get(), 0};
            const RunResult r = run(device, read);
            EXPECT_FALSE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
            EXPECT_EQ(r.output.checksum, want) << passes << " passes";
            vrb_operation scale = operation(VRB_OP_SCALE, count, passes);
            scale.scalar = 5;
            scale.src1 = {src.get(), 0};
            scale.dst = {dst.get(), 0};
            run(device, scale);
            const std::vector<uint32_t> got = download<uint32_t>(dst.get(), 0, count);
            for (uint64_t i = 0; i < count; ++i)
                ASSERT_EQ(got[i], 5 * data[i]) << "element " << i << ", " << passes << " passes";
        }
    }
}

// A device opened with a GPU's shaders, `units` units and workgroups of `local_size`.
struct GivenGeometry {
    ScopedEnv gpu, width, given;
    ContextPtr context;
    DevicePtr device;
    GivenGeometry(const char *units, const char *local_size)
        : gpu("VRAMBENCH_VULKAN_SHADERS", "gpu"), width("VRAMBENCH_VULKAN_LOCAL_SIZE", local_size),
          given("VRAMBENCH_VULKAN_UNITS", units), context(open_context()), device(open_device(context.get()))
    {
    }
};

// WRITE's lanes against the host's random pattern; the first wrong one, or -1.
int64_t first_unwritten(vrb_buffer *dst, uint64_t lanes, uint32_t seed)
{
    const std::vector<uint32_t> got = download<uint32_t>(dst, 0, lanes);
    for (uint64_t i = 0; i < lanes; ++i)
        if (got[i] != vrb_pattern_random(i, seed)) return static_cast<int64_t>(i);
    return -1;
}

TEST(WholeSet, a_shared_out_write_whose_shares_move_on_each_pass_writes_every_lane_its_pattern)
{
    // A pass moves on by 8 workgroups: of 256 or 8 invocations that is whole pattern
    // blocks of 64 lanes and the shader keeps its places; of 4 it is not, and the
    // shader hashes every lane instead.
    for (const char *local_size : {"256", "8", "4"}) {
        SCOPED_TRACE(std::string("workgroups of ") + local_size);
        const GivenGeometry g("2", local_size);
        ASSERT_TRUE(g.device);
        for (uint32_t element : {4u, 16u}) {
            const uint64_t count = 200'003 * 4 / element;
            BufferPtr dst = alloc(g.device.get(), device_kind(g.device.get()), count * element);
            upload(dst.get(), 0, std::vector<uint32_t>(count * element / 4, 0));
            for (uint32_t passes : {1u, 3u, 10u}) {
                vrb_operation write = operation(VRB_OP_WRITE, count, passes);
                write.element_bytes = element;
                write.seed = 0x5eed + passes;
                write.dst = {dst.get(), 0};
                const RunResult r = run(g.device.get(), write);
                EXPECT_FALSE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
                EXPECT_EQ(first_unwritten(dst.get(), count * element / 4, write.seed), -1)
                    << element << "-byte elements, " << passes << " passes";
            }
        }
    }
}

TEST(WholeSet, one_workgroup_a_unit_copies_and_writes_a_small_set_whole)
{
    const GivenGeometry g("3", "256");
    ASSERT_TRUE(g.device);
    vrb_device *device = g.device.get();
    const uint64_t count = 5000; // below the wave of 3 units x 8 workgroups of 256
    std::vector<uint32_t> data(count);
    std::iota(data.begin(), data.end(), 11u);
    BufferPtr src = alloc(device, device_kind(device), count * 4);
    BufferPtr dst = alloc(device, device_kind(device), count * 4);
    upload(src.get(), 0, data);
    upload(dst.get(), 0, std::vector<uint32_t>(count, 0));
    vrb_operation copy = operation(VRB_OP_COPY, count, 3);
    copy.src1 = {src.get(), 0};
    copy.dst = {dst.get(), 0};
    const RunResult copied = run(device, copy);
    EXPECT_TRUE(copied.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(copied.output.passes, 3u * 3) << "three passes by each of 3 workgroups, one a unit";
    EXPECT_EQ(download<uint32_t>(dst.get(), 0, count), data);

    vrb_operation write = operation(VRB_OP_WRITE, count, 3);
    write.seed = 77;
    write.dst = {dst.get(), 0};
    EXPECT_EQ(run(device, write).output.passes, 3u * 3);
    EXPECT_EQ(first_unwritten(dst.get(), count, write.seed), -1);
}

} // namespace
} // namespace vrb::vulkan::test
