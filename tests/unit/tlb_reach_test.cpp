// Reading the data TLBs a module reports (VRB_PROPERTY_DATA_TLB) into the reaches the
// plateau names are checked against.
#include <vrambench/core/measurement/tlb_reach.hpp>

#include <gtest/gtest.h>

#include <cstdio>

using vrb::parse_data_tlb;
using vrb::TlbReach;
using Reaches = std::vector<TlbReach>;

TEST(TlbReach, EachLevelAndPageSizeGivesItsEntriesTimesThePageSmallestFirst)
{
    EXPECT_EQ(parse_data_tlb("L1 72x4K 72x2M; L2 3072x4K 3072x2M"),
              (Reaches{{1, 72ull << 12}, {2, 3072ull << 12}, {1, 144ull << 20}, {2, 6ull << 30}}));
    EXPECT_EQ(parse_data_tlb("L2 16x1G"), (Reaches{{2, 16ull << 30}}));
}

TEST(TlbReach, TextThatDoesNotReadAsDataTlbsGivesNoReachAtAll)
{
    for (const char *text : {"L1", "72x4K", "L1 72x4K; 3072x4K", "L1 72x4", "L1 72x4T", "L1 x4K", "L1 72*4K", "L1 0x4K",
                             "L0 72x4K", "L1 72x4K; L2", "Lx 72x4K", "L1 72x4K junk", "L1 99999999999x4K"})
        EXPECT_TRUE(parse_data_tlb(text).empty()) << text;
}

TEST(TlbReach, ADeviceWithoutTheDataTlbPropertyHasNoReach)
{
    vrb_device_info info{};
    EXPECT_TRUE(vrb::tlb_reach(info).empty());
    std::snprintf(info.properties[0].key, sizeof info.properties[0].key, "%s", VRB_PROPERTY_DATA_TLB);
    std::snprintf(info.properties[0].value, sizeof info.properties[0].value, "%s", "L1 64x4K");
    EXPECT_TRUE(vrb::tlb_reach(info).empty()) << "a property past property_count";
    info.property_count = 1;
    EXPECT_EQ(vrb::tlb_reach(info), (Reaches{{1, 64ull << 12}}));
}
