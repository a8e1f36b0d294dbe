// Decoding CPUID's data TLB descriptions (AMD 0x80000005/6, Intel 0x18) and the
// property text the core reads them from.
#include "cpu_caches.hpp"
#include "cpuid_tlb.hpp"

#include <vrambench/core/measurement/tlb_reach.hpp>

#include <gtest/gtest.h>

#include <algorithm>

using vrb::cpu::CpuidTlb;
using vrb::cpu::data_tlb_text;
using vrb::cpu::decode_amd_data_tlbs;
using vrb::cpu::decode_intel_tlb_leaf;

namespace {
constexpr uint64_t k4K = 4096, k2M = 2ull << 20;
}

TEST(CpuidTlb, DecodesAZen4sTwoDataTlbLevelsForBothPageSizes)
{
    // A Zen 4 EPYC's answers: L1 72 entries fully associative for 4 KiB and 2 MiB pages,
    // L2 3072 entries for each.
    const auto t = decode_amd_data_tlbs(0xff48ff40u, 0xff48ff40u, 0x5c002200u, 0x6c004200u);
    EXPECT_EQ(t, (std::vector<CpuidTlb>{{1, k4K, 72}, {1, k2M, 72}, {2, k4K, 3072}, {2, k2M, 3072}}));
    EXPECT_EQ(data_tlb_text(t), "L1 72x4K 72x2M; L2 3072x4K 3072x2M");
}

TEST(CpuidTlb, LeavesOutAnAmdL2TlbWhoseAssociativitySaysItIsDisabled)
{
    const auto t = decode_amd_data_tlbs(0xff48ff40u, 0xff48ff40u, 0x0c002200u, 0x0c004200u);
    EXPECT_EQ(t, (std::vector<CpuidTlb>{{1, k4K, 72}, {1, k2M, 72}}));
}

TEST(CpuidTlb, DecodesAnIntelLoadTlbAndAUnifiedSecondLevelButNotStoreOrInstructionTlbs)
{
    // Leaf 0x18 subleaves: EDX type (1 data, 2 instruction, 3 unified, 4 load, 5 store)
    // and level (bits 7:5); EBX page sizes (bit 0 4K, 1 2M, 2 4M, 3 1G) and ways (31:16);
    // ECX sets.
    const auto load = decode_intel_tlb_leaf((96u << 16) | 0x1u, 1, 4u | (1u << 5) | (1u << 8));
    EXPECT_EQ(load, (std::vector<CpuidTlb>{{1, k4K, 96}}));
    const auto stlb = decode_intel_tlb_leaf((16u << 16) | 0x3u, 128, 3u | (2u << 5));
    EXPECT_EQ(stlb, (std::vector<CpuidTlb>{{2, k4K, 2048}, {2, k2M, 2048}}));
    EXPECT_TRUE(decode_intel_tlb_leaf((16u << 16) | 0x1u, 1, 5u | (1u << 5)).empty());
    EXPECT_TRUE(decode_intel_tlb_leaf((8u << 16) | 0x1u, 16, 2u | (1u << 5)).empty());
    EXPECT_TRUE(decode_intel_tlb_leaf(0, 0, 0).empty());
}

TEST(CpuidTlb, NoTlbGivesNoText)
{
    EXPECT_EQ(data_tlb_text({}), "");
}

TEST(CpuidTlb, ACpuDevicesDescriptionCarriesItsDataTlbsAsTheCoreReadsThem)
{
    vrb_device_info info{};
    vrb::cpu::describe_cpu_caches(info);
    const auto tlbs = vrb::cpu::cpuid_data_tlbs();
    const auto reaches = vrb::tlb_reach(info);
    ASSERT_EQ(reaches.size(), tlbs.size()) << "CPUID reports " << data_tlb_text(tlbs);
    for (const CpuidTlb &t : tlbs)
        EXPECT_NE(std::find(reaches.begin(), reaches.end(), vrb::TlbReach{t.level, t.entries * t.page_bytes}),
                  reaches.end())
            << "L" << t.level << " " << t.entries << " x " << t.page_bytes;
}
