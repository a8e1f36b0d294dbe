// The arithmetic that cuts buffers past CL_DEVICE_MAX_MEM_ALLOC_SIZE into segments and
// operations into pieces inside one segment of every operand.
#include "segments.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace vrb::opencl;

TEST(OpenclSegments, TheSegmentIsThePowerOfTwoBelowTheDevicesLimitOrTheRequest)
{
    EXPECT_EQ(choose_segment_bytes(3ull << 30, 0), 2ull << 30);
    EXPECT_EQ(choose_segment_bytes(3ull << 30, 10000), 8192u);
    EXPECT_EQ(choose_segment_bytes(1ull << 20, 1ull << 30), 1ull << 20);
    EXPECT_EQ(choose_segment_bytes(100, 0), 4096u) << "never below a page";
}

TEST(OpenclSegments, ABufferIsFullSegmentsAndTheRest)
{
    EXPECT_EQ(segment_sizes(10000, 4096), (std::vector<uint64_t>{4096, 4096, 1808}));
    EXPECT_EQ(segment_sizes(4096, 4096), (std::vector<uint64_t>{4096}));
    EXPECT_EQ(segment_sizes(12, 4096), (std::vector<uint64_t>{12}));
    EXPECT_THROW(segment_sizes(12, 0), std::invalid_argument);
}

TEST(OpenclSegments, PiecesStopAtEveryOperandsSegmentBoundary)
{
    // dst from byte 0, src1 from byte 16: src1 crosses its boundary 4 elements earlier.
    const std::vector<Access> walks{{0, 16}, {16, 16}};
    const auto pieces = split_pieces(600, 16, 4096, walks);
    ASSERT_EQ(pieces.size(), 5u);
    EXPECT_EQ(pieces[0].count, 255u);
    EXPECT_EQ(pieces[1].first, 255u);
    EXPECT_EQ(pieces[1].count, 1u);
    EXPECT_EQ(pieces[1].access[0].segment, 0u);
    EXPECT_EQ(pieces[1].access[0].offset, 4080u);
    EXPECT_EQ(pieces[1].access[1].segment, 1u);
    EXPECT_EQ(pieces[1].access[1].offset, 0u);
    uint64_t covered = 0;
    for (const Piece &p : pieces) {
        EXPECT_EQ(p.first, covered);
        for (std::size_t a = 0; a < walks.size(); ++a)
            EXPECT_LE(p.access[a].offset + (p.count - 1) * 16 + 16, 4096u);
        covered += p.count;
    }
    EXPECT_EQ(covered, 600u);
}

TEST(OpenclSegments, AStridedWalkSkipsWholeSegments)
{
    const std::vector<Access> walks{{0, 8192}};
    const auto pieces = split_pieces(3, 4, 4096, walks);
    ASSERT_EQ(pieces.size(), 3u);
    EXPECT_EQ(pieces[2].access[0].segment, 4u);
}

TEST(OpenclSegments, AnElementAcrossTwoSegmentsIsRefused)
{
    const std::vector<Access> walks{{4088, 16}};
    EXPECT_THROW(split_pieces(4, 16, 4096, walks), std::invalid_argument);
    const std::vector<Access> short_step{{0, 2}};
    EXPECT_THROW(split_pieces(4, 4, 4096, short_step), std::invalid_argument);
}

TEST(OpenclSegments, CopiesSplitWhereEitherSideEndsASegment)
{
    const auto regions = split_copy(4000, 4096, 100, 8192, 9000);
    // src ends segments at 4096 and 8192, dst at 8092 (100 + 8192 - 100 bytes in).
    ASSERT_EQ(regions.size(), 5u);
    EXPECT_EQ(regions[0].bytes, 96u);
    EXPECT_EQ(regions[1].src_segment, 1u);
    EXPECT_EQ(regions[1].dst_offset, 196u);
    EXPECT_EQ(regions[2].bytes, 3900u);
    EXPECT_EQ(regions[3].dst_segment, 1u);
    EXPECT_EQ(regions[3].dst_offset, 0u);
    EXPECT_EQ(regions[3].src_offset, 3900u);
    uint64_t total = 0;
    for (const auto &r : regions)
        total += r.bytes;
    EXPECT_EQ(total, 9000u);
}
