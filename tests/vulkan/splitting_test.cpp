// Cutting buffers into segments and operations into pieces, dispatches and copy
// regions, at sizes a real GPU sees: past 2^31 and 2^32 bytes.
#include "splitting.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace vrb::vulkan {
namespace {

constexpr uint64_t GiB = uint64_t(1) << 30;

TEST(SegmentSize, is_the_largest_power_of_two_both_limits_allow_and_at_most_2_gib)
{
    EXPECT_EQ(choose_segment_bytes(128u << 20, 2 * GiB, 0), 128u << 20);         // lavapipe
    EXPECT_EQ(choose_segment_bytes(0xffffffffu, 0xffffffffu, 0), 2 * GiB);       // 4 GiB - 1: rounded down
    EXPECT_EQ(choose_segment_bytes(0xffffffffu, uint64_t(1) << 40, 0), 2 * GiB); // never above 2^31
    EXPECT_EQ(choose_segment_bytes(3u << 27, 3u << 27, 0), 1u << 28);
    EXPECT_EQ(choose_segment_bytes(2 * GiB, 2 * GiB, 65536), 65536u); // the test override
    EXPECT_EQ(choose_segment_bytes(1000, 1000, 0), 4096u);            // a floor against silly limits
}

TEST(SegmentCount, covers_every_byte_past_4_gib)
{
    EXPECT_EQ(segment_count(16 * GiB, 2 * GiB), 8u);
    EXPECT_EQ(segment_count(16 * GiB + 1, 2 * GiB), 9u);
    EXPECT_EQ(segment_count(1, 2 * GiB), 1u);
    EXPECT_EQ(segment_count((uint64_t(1) << 32) + 4, uint64_t(1) << 31), 3u);
}

// Every element of every piece lies inside the segment the piece names.
void expect_valid_pieces(const std::vector<Piece> &pieces, uint64_t count, uint32_t e, uint64_t S,
                         const std::vector<Access> &accesses)
{
    uint64_t next = 0;
    for (const Piece &p : pieces) {
        ASSERT_EQ(p.first, next);
        ASSERT_GT(p.count, 0u);
        for (std::size_t a = 0; a < accesses.size(); ++a) {
            const uint64_t first = accesses[a].offset + p.first * accesses[a].step;
            const uint64_t last = accesses[a].offset + (p.first + p.count - 1) * accesses[a].step;
            EXPECT_EQ(p.access[a].segment, first / S);
            EXPECT_EQ(p.access[a].offset, first % S);
            EXPECT_EQ((last + e - 1) / S, first / S) << "piece at " << p.first << " leaves its segment";
        }
        next += p.count;
    }
    EXPECT_EQ(next, count);
}

TEST(Pieces, of_a_16_gib_triad_stay_inside_the_segments_of_all_three_operands)
{
    const uint64_t S = 2 * GiB, e = 16, count = 16 * GiB / e - 7;
    const std::vector<Access> accesses{{0, e}, {48, e}, {S - 16 * 5, e}};
    const auto pieces = split_pieces(count, e, S, accesses, uint64_t(1) << 30);
    expect_valid_pieces(pieces, count, e, S, accesses);
    // Three operands misaligned with each other: about three cuts per segment.
    EXPECT_LE(pieces.size(), 3 * 8 + 1);
    EXPECT_GE(pieces.size(), 8u);
}

TEST(Pieces, are_at_most_the_requested_length)
{
    const std::vector<Access> accesses{{0, 4}};
    const auto pieces = split_pieces(uint64_t(3) << 30, 4, 2 * GiB, accesses, uint64_t(1) << 28);
    expect_valid_pieces(pieces, uint64_t(3) << 30, 4, 2 * GiB, accesses);
    for (const Piece &p : pieces)
        EXPECT_LE(p.count, uint64_t(1) << 28);
}

TEST(Pieces, of_a_strided_read_with_a_stride_past_a_segment_hold_one_element_each)
{
    const uint64_t S = 65536;
    const std::vector<Access> accesses{{16, 16 * (S / 16 + 3)}};
    const auto pieces = split_pieces(10, 16, S, accesses, 1 << 30);
    expect_valid_pieces(pieces, 10, 16, S, accesses);
    EXPECT_EQ(pieces.size(), 10u);
}

TEST(Pieces, keep_each_access_within_the_span_a_texel_view_can_hold)
{
    // A view of at most 1000 elements of 16 bytes, minus 256 bytes of alignment slack.
    const uint64_t span = 1000 * 16 - 256;
    const std::vector<Access> accesses{{32, 16}, {0, 16 * 7}};
    const auto pieces = split_pieces(5000, 16, 2 * GiB, accesses, 1 << 30, span);
    expect_valid_pieces(pieces, 5000, 16, 2 * GiB, accesses);
    for (const Piece &p : pieces)
        for (const Access &a : accesses)
            EXPECT_LE((p.count - 1) * a.step + 16, span);
}

TEST(Pieces, of_nothing_are_none)
{
    const std::vector<Access> accesses{{0, 4}};
    EXPECT_TRUE(split_pieces(0, 4, 4096, accesses, 100).empty());
}

TEST(BindWindow, starts_at_an_aligned_offset_and_counts_the_rest_in_elements)
{
    const Window w = bind_window(1000, 8, 256);
    EXPECT_EQ(w.offset, 768u);
    EXPECT_EQ(w.base, (1000u - 768u) / 8);
    const Window x = bind_window(48, 16, 4); // alignment below the element size
    EXPECT_EQ(x.offset, 48u);
    EXPECT_EQ(x.base, 0u);
}

TEST(Slices, respect_the_group_limit_and_the_loop_bound)
{
    DispatchShape shape{256, 65535, 128};
    // 2^32 elements: more than one dispatch covers at this loop bound.
    const uint64_t count = uint64_t(1) << 32;
    const auto slices = slice_dispatch(count, shape);
    uint64_t covered = 0;
    for (const Slice &s : slices) {
        EXPECT_EQ(s.first, covered);
        EXPECT_LE(s.groups, shape.max_groups);
        const uint64_t per_invocation = (s.count + uint64_t(s.groups) * 256 - 1) / (uint64_t(s.groups) * 256);
        EXPECT_LE(per_invocation, shape.max_iterations);
        covered += s.count;
    }
    EXPECT_EQ(covered, count);
    EXPECT_EQ(slices.size(), 3u);
}

TEST(Slices, of_a_small_count_use_just_enough_groups)
{
    const auto one = slice_dispatch(1, DispatchShape{256, 65535, 1 << 20});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].groups, 1u);
    const auto some = slice_dispatch(1000, DispatchShape{256, 65535, 1 << 20});
    ASSERT_EQ(some.size(), 1u);
    EXPECT_EQ(some[0].groups, 4u);
    EXPECT_TRUE(slice_dispatch(0, DispatchShape{}).empty());
}

TEST(CopyRegions, split_at_the_segment_boundaries_of_source_and_destination)
{
    const uint64_t S = 2 * GiB;
    const uint64_t bytes = 5 * GiB + 3;
    const auto regions = split_copy(S - 1, S, 7, uint64_t(1) << 30, bytes);
    uint64_t total = 0;
    for (const CopyRegion &r : regions) {
        EXPECT_LE(r.src_offset + r.bytes, S);
        EXPECT_LE(r.dst_offset + r.bytes, uint64_t(1) << 30);
        EXPECT_EQ(r.src_segment * S + r.src_offset, S - 1 + total);
        EXPECT_EQ(r.dst_segment * (uint64_t(1) << 30) + r.dst_offset, 7 + total);
        total += r.bytes;
    }
    EXPECT_EQ(total, bytes);
    EXPECT_EQ(regions.front().bytes, 1u);
}

} // namespace
} // namespace vrb::vulkan
