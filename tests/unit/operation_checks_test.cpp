// check_operation(): the checks every module gets from the plugin SDK before it touches
// a buffer, fed operations that are wrong in one way each.
#include <vrambench/operation.hpp>
#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

// Buffers are opaque to the checks: a map from handle to size stands in for a module's.
struct Buffers {
    std::map<const vrb_buffer *, uint64_t> sizes;
    vrb_buffer *make(uint64_t bytes)
    {
        auto *handle = reinterpret_cast<vrb_buffer *>(sizes.size() + 1);
        sizes[handle] = bytes;
        return handle;
    }
    uint64_t operator()(const vrb_buffer *buffer) const { return sizes.at(buffer); }
};

// The message of the refusal, or "accepted".
std::string verdict(const vrb_operation &op, const Buffers &buffers)
{
    try {
        vrb::plugin::check_operation(op, buffers);
        return "accepted";
    } catch (const vrb::plugin::Failure &failure) {
        EXPECT_EQ(failure.status(), VRB_ERROR_INVALID_ARGUMENT);
        return failure.what();
    }
}

TEST(OperationChecks, a_copy_that_fits_its_buffers_is_accepted)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 16, 64);
    op.dst = {buffers.make(1024), 0};
    op.src1 = {buffers.make(1024), 0};
    EXPECT_EQ(verdict(op, buffers), "accepted");
}

TEST(OperationChecks, an_operand_one_element_past_its_buffer_is_refused_with_both_sizes)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 16, 64);
    op.dst = {buffers.make(1024), 16};
    op.src1 = {buffers.make(1024), 0};
    EXPECT_EQ(verdict(op, buffers), "operand dst needs 1024 bytes from offset 16 but its buffer holds 1024");
}

TEST(OperationChecks, a_destination_overlapping_a_source_in_one_buffer_is_refused_with_both_ranges)
{
    Buffers buffers;
    vrb_buffer *one = buffers.make(4096);
    vrb_operation op = vrb::make_operation(VRB_OP_COPY, 16, 64); // 1024 bytes each
    op.dst = {one, 1008};
    op.src1 = {one, 0};
    EXPECT_EQ(verdict(op, buffers), "operand dst (bytes 1008 to 2032) overlaps src1 (bytes 0 to 1024): what an "
                                    "operation writes must not be what it reads or writes elsewhere");
    op.dst = {one, 1024}; // touching, not overlapping
    EXPECT_EQ(verdict(op, buffers), "accepted");

    vrb_operation add = vrb::make_operation(VRB_OP_ADD, 4, 16);
    add.dst = {one, 0};
    add.src1 = {buffers.make(64), 0};
    add.src2 = {one, 32};
    EXPECT_NE(verdict(add, buffers).find("operand dst (bytes 0 to 64) overlaps src2"), std::string::npos);
}

TEST(OperationChecks, sources_may_share_their_bytes_and_two_way_transfers_may_not_share_a_destination)
{
    Buffers buffers;
    vrb_buffer *one = buffers.make(4096);
    vrb_operation dot = vrb::make_operation(VRB_OP_DOT, 4, 16);
    dot.src1 = {one, 0};
    dot.src2 = {one, 0};
    EXPECT_EQ(verdict(dot, buffers), "accepted") << "a dot of an array with itself";

    vrb_operation both = vrb::make_operation(VRB_OP_TRANSFER, 1, 256);
    both.src1 = {buffers.make(256), 0};
    both.dst = {one, 0};
    both.src2 = {buffers.make(256), 0};
    both.dst2 = {one, 128};
    EXPECT_NE(verdict(both, buffers).find("operand dst (bytes 0 to 256) overlaps dst2"), std::string::npos);
}

TEST(OperationChecks, an_element_width_other_than_4_8_or_16_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_READ, 3, 4);
    op.src1 = {buffers.make(1024), 0};
    EXPECT_EQ(verdict(op, buffers), "element_bytes must be 4, 8 or 16, not 3");
}

TEST(OperationChecks, a_stride_of_zero_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_STRIDED_READ, 4, 4);
    op.stride = 0;
    op.src1 = {buffers.make(1024), 0};
    EXPECT_EQ(verdict(op, buffers), "stride must be at least 1");
}

TEST(OperationChecks, an_unknown_fill_pattern_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_FILL, 4, 4);
    op.pattern = VRB_PATTERN_COUNT;
    op.dst = {buffers.make(1024), 0};
    EXPECT_EQ(verdict(op, buffers), "unknown pattern 5");
}

TEST(OperationChecks, a_gather_whose_data_offset_leaves_no_element_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_GATHER, 8, 4);
    op.src1 = {buffers.make(64), 64};
    op.src2 = {buffers.make(16), 0};
    EXPECT_EQ(verdict(op, buffers), "operand src1 offset 64 leaves no element in its buffer of 64 bytes");
    op.src1.offset = 56;
    EXPECT_EQ(verdict(op, buffers), "accepted");
}

TEST(OperationChecks, a_gather_data_offset_off_the_element_grid_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_GATHER, 8, 4);
    op.src1 = {buffers.make(64), 4};
    op.src2 = {buffers.make(16), 0};
    EXPECT_EQ(verdict(op, buffers), "operand src1 offset 4 is not a multiple of 8");
}

TEST(OperationChecks, a_chase_past_its_buffer_or_off_the_index_grid_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, 10);
    op.src1 = {buffers.make(64), 1ull << 40};
    EXPECT_EQ(verdict(op, buffers), "operand src1 offset 1099511627776 leaves no element in its buffer of 64 bytes");
    op.src1.offset = 2;
    EXPECT_EQ(verdict(op, buffers), "operand src1 offset 2 is not a multiple of 4");
    op.src1.offset = 60;
    EXPECT_EQ(verdict(op, buffers), "accepted");
}

TEST(OperationChecks, a_gather_or_chase_without_its_data_buffer_is_refused)
{
    Buffers buffers;
    vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, 10);
    EXPECT_EQ(verdict(op, buffers), "operand src1 is missing");
}

} // namespace
