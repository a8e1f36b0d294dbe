#include <vrambench/core/measurement/traffic.hpp>

#include <gtest/gtest.h>

TEST(Traffic, CountsStreamOperationsAsStreamDoes)
{
    const uint64_t n = 1000;
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_READ, 8, n).total(), 8 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_WRITE, 8, n).written, 8 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_COPY, 16, n).total(), 2 * 16 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_SCALE, 4, n).total(), 2 * 4 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_ADD, 4, n).total(), 3 * 4 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_TRIAD, 16, n).read, 2 * 16 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_TRIAD, 16, n).written, 16 * n);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_DOT, 4, n).total(), 2 * 4 * n);
}

TEST(Traffic, CountsGatherIndicesAndTransfersOnce)
{
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_GATHER, 16, 10).total(), 10 * 16 + 10 * 4);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_TRANSFER, 1, 4096).total(), 4096u);
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_CHASE, 4, 100).total(), 400u);
}

TEST(Traffic, CountsBuffersPastFourGibibytesWithoutOverflow)
{
    const uint64_t n = (5ull << 30) / 16;
    EXPECT_EQ(vrb::bytes_moved(VRB_OP_COPY, 16, n).total(), 10ull << 30);
}

TEST(Traffic, NamesEveryOperationAndItsRule)
{
    for (uint32_t k = VRB_OP_READ; k <= VRB_OP_CHECK; ++k) {
        EXPECT_FALSE(vrb::op_name(k).empty());
        EXPECT_FALSE(vrb::counting_rule(k).empty());
    }
    EXPECT_THROW(vrb::op_name(99u), std::invalid_argument);
}
