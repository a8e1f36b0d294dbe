// How the host asks an operation done (vrb_operation.flags), on the device the machine
// has (lavapipe in CI): a TRANSFER asked of the compute units is copied by the COPY shader
// and says so, and a READ asked as one read is never walked by every workgroup.
#include "backend.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace vrb::vulkan::test {
namespace {

uint32_t shader_kind(vrb_device *device)
{
    for (const Kind &k : memory_kinds(device))
        if (k.info.flags & VRB_MEMORY_DEVICE_ACCESS) return k.index;
    ADD_FAILURE() << "no memory kind a shader can use";
    return 0;
}

vrb_operation transfer(vrb_buffer *dst, vrb_buffer *src, uint64_t bytes, uint64_t offset = 0)
{
    vrb_operation op{};
    op.struct_size = sizeof op;
    op.kind = VRB_OP_TRANSFER;
    op.element_bytes = 1;
    op.count = bytes;
    op.stride = 1;
    op.passes = 3;
    op.dst = {dst, offset};
    op.src1 = {src, offset};
    op.flags = VRB_OPERATION_ENGINE_SM;
    return op;
}

TEST(Engine, ATransferAskedOfTheComputeUnitsIsCopiedByAShaderOnceAPassAndSaysSo)
{
    vrb_device *device = shared_device("gpu");
    ASSERT_NE(device, nullptr);
    for (const uint64_t bytes : {uint64_t{64}, uint64_t{4100}, uint64_t{16} << 10}) {
        SCOPED_TRACE(std::to_string(bytes) + " bytes");
        std::vector<uint32_t> data(bytes / 4);
        std::iota(data.begin(), data.end(), 0x1234u);
        BufferPtr src = alloc(device, shader_kind(device), bytes);
        BufferPtr dst = alloc(device, shader_kind(device), bytes);
        upload(src.get(), 0, data);
        upload(dst.get(), 0, std::vector<uint32_t>(bytes / 4, 0));
        const RunResult r = run(device, transfer(dst.get(), src.get(), bytes));
        EXPECT_TRUE(r.output.flags & VRB_OUTPUT_ENGINE_SM);
        EXPECT_FALSE(r.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT) << "a transfer moves the bytes once a pass";
        EXPECT_EQ(r.output.passes, 3u);
        EXPECT_EQ(download<uint32_t>(dst.get(), 0, bytes / 4), data);
    }
}

TEST(Engine, ATransferByTheComputeUnitsOfBytesNotInWholeLanesOrBothWaysIsRefused)
{
    vrb_device *device = shared_device("gpu");
    ASSERT_NE(device, nullptr);
    BufferPtr a = alloc(device, shader_kind(device), 4096);
    BufferPtr b = alloc(device, shader_kind(device), 4096);
    EXPECT_EQ(try_run(device, transfer(b.get(), a.get(), 4094)), VRB_ERROR_UNSUPPORTED);
    vrb_operation both = transfer(b.get(), a.get(), 1024);
    both.src2 = {b.get(), 2048};
    both.dst2 = {a.get(), 2048};
    EXPECT_EQ(try_run(device, both), VRB_ERROR_UNSUPPORTED);
    // Without the flag the same copy is the transfer queue's.
    vrb_operation plain = transfer(b.get(), a.get(), 4094);
    plain.flags = 0;
    EXPECT_FALSE(run(device, plain).output.flags & VRB_OUTPUT_ENGINE_SM);
}

TEST(Engine, AReadAskedAsOneReadIsNeverWalkedByEveryWorkgroup)
{
    vrb_device *device = shared_device("gpu");
    ASSERT_NE(device, nullptr);
    const uint64_t count = 7; // below a wave: a sweep's read is walked whole by every workgroup
    std::vector<uint32_t> data(count);
    std::iota(data.begin(), data.end(), 0xfffffff0u);
    BufferPtr src = alloc(device, shader_kind(device), count * 4);
    upload(src.get(), 0, data);
    vrb_operation read{};
    read.struct_size = sizeof read;
    read.kind = VRB_OP_READ;
    read.element_bytes = 4;
    read.count = count;
    read.stride = 1;
    read.passes = 3;
    read.src1 = {src.get(), 0};
    ASSERT_TRUE(run(device, read).output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    read.flags = VRB_OPERATION_ONE_READ;
    const RunResult once = run(device, read);
    EXPECT_FALSE(once.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(once.output.passes, 3u);
    EXPECT_EQ(once.output.checksum, std::accumulate(data.begin(), data.end(), uint64_t(0)));
}

} // namespace
} // namespace vrb::vulkan::test
