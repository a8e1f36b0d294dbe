// Decoding CPUID's deterministic cache parameters (leaf 4, 0x8000001D), with register
// values as real CPUs answer them.
#include "cpuid_caches.hpp"

#include <gtest/gtest.h>

#include <string>

using vrb::cpu::decode_cache_leaf;

TEST(CpuidCaches, DecodesAZen3L3AsOneCcxsShareNotThePackagesTotal)
{
    // 0x8000001D subleaf 3 on an EPYC 7003: unified L3, 16 ways, 64-byte lines,
    // 32768 sets, shared by 16 logical CPUs: 32 MiB.
    const auto c = decode_cache_leaf(0x0003c163u, 0x03c0003fu, 0x00007fffu);
    EXPECT_EQ(c.level, 3u);
    EXPECT_EQ(std::string(c.kind), "unified");
    EXPECT_EQ(c.bytes, 32ull << 20);
    EXPECT_EQ(c.shared_by, 16u);
}

TEST(CpuidCaches, DecodesAnL1DataCache)
{
    // Leaf 4 subleaf 0 on a Skylake core: L1 data, 8 ways, 64-byte lines, 64 sets,
    // shared by 2 logical CPUs: 32 KiB.
    const auto c = decode_cache_leaf(0x1c004121u, 0x01c0003fu, 0x0000003fu);
    EXPECT_EQ(c.level, 1u);
    EXPECT_EQ(std::string(c.kind), "data");
    EXPECT_EQ(c.bytes, 32ull << 10);
    EXPECT_EQ(c.shared_by, 2u);
}

TEST(CpuidCaches, EndsAtTheNullEntry)
{
    EXPECT_EQ(decode_cache_leaf(0u, 0u, 0u).level, 0u);
}
