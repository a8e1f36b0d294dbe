// Malformed requests are refused with a reason before any memory is touched, and a
// refused allocation leaves nothing behind.
#include "backend.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vrb::vulkan::test {
namespace {

class BadInput : public ::testing::Test {
  protected:
    void SetUp() override
    {
        device = shared_device();
        ASSERT_NE(device, nullptr);
        buffer = alloc(device, 0, 4096);
        other = alloc(device, 0, 4096);
        ASSERT_TRUE(buffer && other);
    }
    vrb_device *device = nullptr;
    BufferPtr buffer, other;
};

void expect_refused(vrb_status status, vrb_status expected, const char *words)
{
    EXPECT_EQ(status, expected) << why(status);
    EXPECT_NE(std::string(table().last_error()).find(words), std::string::npos) << table().last_error();
}

TEST_F(BadInput, a_count_past_the_buffer_end_is_refused)
{
    vrb_operation op = vrb::make_operation(VRB_OP_READ, 16, 4096 / 16 + 1);
    op.src1 = {buffer.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "needs");
    op.count = 4096 / 16;
    op.src1.offset = 16;
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "needs");
    vrb_operation copy = vrb::make_operation(VRB_OP_TRANSFER, 1, 4097);
    copy.src1 = {buffer.get(), 0};
    copy.dst = {other.get(), 0};
    expect_refused(try_run(device, copy), VRB_ERROR_INVALID_ARGUMENT, "needs");
}

TEST_F(BadInput, element_bytes_3_is_refused)
{
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 3, 10);
    op.src1 = {buffer.get(), 0};
    op.dst = {other.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "element_bytes");
}

TEST_F(BadInput, stride_0_is_refused)
{
    vrb_operation op = vrb::make_operation(VRB_OP_STRIDED_READ, 4, 10);
    op.src1 = {buffer.get(), 0};
    op.stride = 0;
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "stride");
}

TEST_F(BadInput, a_missing_operand_an_unaligned_offset_and_zero_repetitions_are_refused)
{
    vrb_operation op = vrb::make_operation(VRB_OP_ADD, 4, 10);
    op.src1 = {buffer.get(), 0};
    op.dst = {other.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "src2");
    op.src2 = {buffer.get(), 2};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "multiple");
    op.src2.offset = 0;
    expect_refused(try_run(device, op, 0), VRB_ERROR_INVALID_ARGUMENT, "repetitions");
}

TEST_F(BadInput, an_unknown_operation_or_pattern_is_refused)
{
    vrb_operation op = vrb::make_operation(99u, 4, 1);
    op.src1 = {buffer.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_UNSUPPORTED, "99");
    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 4, 1);
    fill.dst = {buffer.get(), 0};
    fill.pattern = VRB_PATTERN_COUNT;
    expect_refused(try_run(device, fill), VRB_ERROR_INVALID_ARGUMENT, "pattern");
}

TEST_F(BadInput, a_gather_index_past_the_source_is_reported_not_followed)
{
    std::vector<uint32_t> index{0, 1, 4096 / 4}; // the last points one past the end
    upload(other.get(), 0, index);
    vrb_operation op = vrb::make_operation(VRB_OP_GATHER, 4, index.size());
    op.src1 = {buffer.get(), 0};
    op.src2 = {other.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "past the end");
}

TEST_F(BadInput, a_chase_leaving_its_buffer_is_reported)
{
    std::vector<uint32_t> chain(1024, 1);
    chain[1] = 5000; // 0 -> 1 -> 5000: outside 1024 elements
    upload(buffer.get(), 0, chain);
    vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, 3);
    op.src1 = {buffer.get(), 0};
    expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "5000");
    // Two steps end on 5000 without following it: that is an answer, not an error.
    op.count = 2;
    EXPECT_EQ(run(device, op).output.checksum, 5000u);
}

TEST_F(BadInput, a_chase_leaving_its_buffer_after_many_steps_is_reported_with_the_first_index_outside)
{
    // 0 -> 1 -> ... -> at -> outside, with steps enough for three dispatches on devices
    // that bound a shader's loops (llvmpipe: 16384 steps each), at an offset into the
    // buffer. The index loaded by step 16384, a dispatch's last, is followed by the next
    // dispatch; one met in the second is handed to the third. After the first stray the
    // walk goes on clamped to the last element, which leads outside again elsewhere: the
    // first is the one reported.
    const uint32_t n = 30000, offset = 64;
    BufferPtr big = alloc(device, 0, offset * 4 + n * 4);
    ASSERT_TRUE(big);
    for (uint32_t at : {16383u, 20000u}) {
        SCOPED_TRACE("stray loaded from element " + std::to_string(at));
        std::vector<uint32_t> chain(n);
        for (uint32_t i = 0; i < n; ++i)
            chain[i] = (i + 1) % n;
        chain[at] = 123456789;
        chain[n - 1] = 987654321;
        upload(big.get(), offset * 4, chain);
        vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, 40000);
        op.src1 = {big.get(), offset * 4};
        expect_refused(try_run(device, op), VRB_ERROR_INVALID_ARGUMENT, "123456789");
        // Ending on it without following it is an answer.
        op.count = at + 1;
        EXPECT_EQ(run(device, op).output.checksum, 123456789u);
        op.count = at;
        EXPECT_EQ(run(device, op).output.checksum, at);
    }
}

TEST_F(BadInput, a_gather_or_chase_source_offset_past_the_buffer_or_unaligned_is_refused)
{
    vrb_operation gather = vrb::make_operation(VRB_OP_GATHER, 16, 1);
    gather.src1 = {buffer.get(), 4096};
    gather.src2 = {other.get(), 0};
    expect_refused(try_run(device, gather), VRB_ERROR_INVALID_ARGUMENT, "offset");
    gather.src1.offset = 8;
    expect_refused(try_run(device, gather), VRB_ERROR_INVALID_ARGUMENT, "multiple");
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 1);
    chase.src1 = {buffer.get(), 1u << 20};
    expect_refused(try_run(device, chase), VRB_ERROR_INVALID_ARGUMENT, "offset");
}

TEST_F(BadInput, uploads_and_downloads_past_the_end_are_refused)
{
    std::vector<char> data(100);
    expect_refused(table().buffer_upload(buffer.get(), 4000, data.data(), data.size()), VRB_ERROR_INVALID_ARGUMENT,
                   "end");
    expect_refused(table().buffer_download(buffer.get(), 4097, data.data(), 0), VRB_ERROR_INVALID_ARGUMENT, "end");
}

TEST_F(BadInput, an_unknown_memory_kind_is_refused)
{
    vrb_buffer *b = nullptr;
    expect_refused(table().buffer_alloc(device, 1000, 4096, &b), VRB_ERROR_INVALID_ARGUMENT, "kind");
    EXPECT_EQ(b, nullptr);
}

TEST_F(BadInput, an_allocation_larger_than_its_heap_fails_and_leaks_nothing)
{
    const std::vector<Kind> kinds = memory_kinds(device);
    ASSERT_FALSE(kinds.empty());
    vrb_buffer *b = nullptr;
    const uint64_t too_big = kinds[0].info.max_allocation_bytes + 1;
    expect_refused(table().buffer_alloc(device, 0, too_big, &b), VRB_ERROR_OUT_OF_MEMORY, "heap");
    EXPECT_EQ(b, nullptr);
    // Had the refused request kept its reservation, the heap would now be full.
    BufferPtr after = alloc(device, 0, 1 << 20);
    EXPECT_TRUE(after);
}

} // namespace
} // namespace vrb::vulkan::test
