#include "described_device.hpp"

#include <vrambench/core/planning/device_table.hpp>
#include <vrambench/core/planning/peak.hpp>

#include <gtest/gtest.h>

#include <set>
#include <tuple>

using vrb::CardMatch;
using vrb::test::describe;
using vrb::test::Description;

namespace {

CardMatch match(const Description &d)
{
    return vrb::match_card(describe(d).info);
}

Description card(uint32_t vendor, uint32_t device, double gib, uint32_t units = 0)
{
    Description d;
    d.vendor = vendor;
    d.device = device;
    d.memory_gib = gib;
    d.compute_units = units;
    return d;
}

} // namespace

TEST(DeviceTable, HasTheCommonCardsOfTheLastThreeGenerations)
{
    std::set<std::string> names;
    for (const auto &c : vrb::card_table())
        names.insert(std::string(c.name));
    for (const char *want :
         {"NVIDIA H200 SXM 141GB", "NVIDIA H100 SXM5 80GB", "NVIDIA H100 PCIe 80GB", "NVIDIA A100 SXM4 40GB",
          "NVIDIA A100 SXM4 80GB", "NVIDIA A100 PCIe 80GB", "NVIDIA L40S", "NVIDIA GeForce RTX 4090",
          "NVIDIA GeForce RTX 4080", "NVIDIA GeForce RTX 3090", "AMD Instinct MI300X", "AMD Instinct MI250X (one GCD)",
          "AMD Instinct MI210", "AMD Radeon RX 7900 XTX", "Intel Arc A770 16GB", "Intel Arc A770 8GB"})
        EXPECT_TRUE(names.count(want)) << want;
}

TEST(DeviceTable, EveryEntrysPeakIsItsDataRateTimesItsBusWithinRounding)
{
    for (const auto &c : vrb::card_table()) {
        const double from_rate = c.data_rate_gbps * c.bus_bits / 8;
        EXPECT_NEAR(from_rate / c.peak_gb_per_s, 1.0, 0.03) << c.name;
        EXPECT_GT(c.bus_bits, 0u) << c.name;
        EXPECT_GT(c.last_level_bytes, 0u) << c.name;
        EXPECT_FALSE(c.source.empty()) << c.name;
    }
}

TEST(DeviceTable, PinsTheDatasheetFiguresOfEachCard)
{
    const std::tuple<uint32_t, uint32_t, double, uint32_t, double, uint32_t, uint64_t> pinned[] = {
        {0x10de, 0x2335, 140.4, 132, 4800, 6144, 50},   {0x10de, 0x2330, 79.6, 132, 3350, 5120, 50},
        {0x10de, 0x2331, 79.6, 114, 2000, 5120, 50},    {0x10de, 0x20b0, 39.6, 108, 1555, 5120, 40},
        {0x10de, 0x20b2, 79.2, 108, 2039, 5120, 40},    {0x10de, 0x20b5, 79.2, 108, 1935, 5120, 40},
        {0x10de, 0x26b9, 44.5, 142, 864, 384, 96},      {0x10de, 0x2684, 23.99, 128, 1008, 384, 72},
        {0x10de, 0x2704, 15.99, 76, 716.8, 256, 64},    {0x10de, 0x2204, 23.99, 82, 936, 384, 6},
        {0x1002, 0x74a1, 191.98, 304, 5300, 8192, 256}, {0x1002, 0x740c, 63.98, 110, 1638.4, 4096, 8},
        {0x1002, 0x740f, 63.98, 104, 1638.4, 4096, 8},  {0x1002, 0x744c, 23.98, 96, 960, 384, 96},
        {0x1002, 0x744c, 19.98, 84, 800, 320, 80},      {0x8086, 0x56a0, 15.9, 32, 560, 256, 16},
        {0x8086, 0x56a0, 7.9, 32, 512, 256, 16},
    };
    for (const auto &[vendor, device, gib, units, peak, bits, llc_mib] : pinned) {
        const CardMatch m = match(card(vendor, device, gib, units));
        ASSERT_EQ(m.kind, CardMatch::Kind::unique) << std::hex << vendor << ":" << device << " " << m.why;
        EXPECT_DOUBLE_EQ(m.card->peak_gb_per_s, peak) << m.card->name;
        EXPECT_EQ(m.card->bus_bits, bits) << m.card->name;
        EXPECT_EQ(m.card->last_level_bytes, llc_mib << 20) << m.card->name;
    }
}

TEST(DeviceTable, TellsTheRx7900XtFromTheXtxByTheirMemory)
{
    EXPECT_EQ(match(card(0x1002, 0x744c, 23.98)).card->name, "AMD Radeon RX 7900 XTX");
    EXPECT_EQ(match(card(0x1002, 0x744c, 19.98)).card->name, "AMD Radeon RX 7900 XT");
}

TEST(DeviceTable, CallsAPciIdWithoutTheMemoryThatTellsVariantsApartAmbiguous)
{
    const CardMatch a770 = match(card(0x8086, 0x56a0, 0));
    EXPECT_EQ(a770.kind, CardMatch::Kind::ambiguous);
    EXPECT_EQ(a770.candidates.size(), 2u);
    // One MI250X GCD and one MI250 GCD differ only in compute units.
    const CardMatch gcd = match(card(0x1002, 0x740c, 63.98));
    EXPECT_EQ(gcd.kind, CardMatch::Kind::ambiguous);
    EXPECT_NE(gcd.why.find("MI250X"), std::string::npos) << gcd.why;
    EXPECT_EQ(match(card(0x1002, 0x740c, 63.98, 104)).card->name, "AMD Instinct MI250 (one GCD)");
}

TEST(DeviceTable, MarksMigInstancesAndMi300xPartitionsAsPartitioned)
{
    const CardMatch mig = match(card(0x10de, 0x2330, 9.75, 16));
    EXPECT_EQ(mig.kind, CardMatch::Kind::partitioned);
    EXPECT_NE(mig.why.find("H100 SXM5"), std::string::npos) << mig.why;
    // CPX mode: eight devices of 38 compute units each, every one seeing all the memory.
    EXPECT_EQ(match(card(0x1002, 0x74a1, 191.98, 38)).kind, CardMatch::Kind::partitioned);
    Description named = card(0x10de, 0x2335, 140.4);
    named.name = "NVIDIA H200 MIG 7g.141gb";
    EXPECT_EQ(match(named).kind, CardMatch::Kind::partitioned);
}

TEST(DeviceTable, KnowsNothingOfAnUnlistedIdOrADeviceWithoutPciIds)
{
    EXPECT_EQ(match(card(0x10de, 0x1234, 8)).kind, CardMatch::Kind::none);
    EXPECT_EQ(match(Description{}).kind, CardMatch::Kind::none);
    // A listed id with a memory no variant has is not guessed into one.
    EXPECT_EQ(match(card(0x10de, 0x2684, 12)).kind, CardMatch::Kind::none);
}

TEST(DeviceTable, FindsACardWhoseDeviceLocalHeapsAliasOneAnother)
{
    // A Vulkan driver with resizable BAR: 24 GiB of VRAM as two device-local heaps.
    auto record = describe(card(0x1002, 0x744c, 48));
    for (int h = 0; h < 2; ++h) {
        record.info.heaps[h].bytes = 24ull << 30;
        record.info.heaps[h].flags = VRB_MEMORY_DEVICE_LOCAL;
    }
    record.info.heap_count = 2;
    const CardMatch m = vrb::match_card(record.info);
    ASSERT_EQ(m.kind, CardMatch::Kind::unique) << m.why;
    EXPECT_EQ(m.card->name, "AMD Radeon RX 7900 XTX");
}

namespace {

// A card as a runtime describes it (the memory it reports, the compute units where it
// counts them), and what its datasheet says.
struct Newer {
    Description described;
    const char *name;
    vrb::MemoryType memory;
    double peak_gb_per_s;
    uint64_t cache_bytes;
    const char *cache_name;
};

Description named_card(const char *api, uint32_t vendor, uint32_t device, double gib, uint32_t units = 0)
{
    Description d = card(vendor, device, gib, units);
    d.api = api;
    return d;
}

} // namespace

TEST(DeviceTable, GivesEachHopperRefreshBlackwellCdna3And4AndRdna4CardItsDatasheetPeakAndCache)
{
    constexpr uint64_t mib = 1ull << 20;
    const Newer newer[] = {
        {named_card("CUDA", 0x10de, 0x233b, 140.4, 132), "NVIDIA H200 NVL", vrb::MemoryType::hbm3e, 4800, 50 * mib,
         "L2"},
        {named_card("CUDA", 0x10de, 0x2342, 95.0, 132), "NVIDIA GH200 96GB HBM3", vrb::MemoryType::hbm3, 4000, 50 * mib,
         "L2"},
        {named_card("CUDA", 0x10de, 0x2348, 142.5, 132), "NVIDIA GH200 144GB HBM3e", vrb::MemoryType::hbm3e, 4900,
         50 * mib, "L2"},
        {named_card("CUDA", 0x10de, 0x2901, 178.35, 148), "NVIDIA B200", vrb::MemoryType::hbm3e, 8000, 126 * mib, "L2"},
        {named_card("Vulkan", 0x10de, 0x2b85, 31.84, 170), "NVIDIA GeForce RTX 5090", vrb::MemoryType::gddr7, 1792,
         96 * mib, "L2"},
        {named_card("Vulkan", 0x10de, 0x2c02, 15.92, 84), "NVIDIA GeForce RTX 5080", vrb::MemoryType::gddr7, 960,
         64 * mib, "L2"},
        {named_card("HIP", 0x1002, 0x74a5, 255.98, 304), "AMD Instinct MI325X", vrb::MemoryType::hbm3e, 6000, 256 * mib,
         "Infinity Cache"},
        {named_card("HIP", 0x1002, 0x75a0, 287.98, 256), "AMD Instinct MI350X", vrb::MemoryType::hbm3e, 8000, 256 * mib,
         "Infinity Cache"},
        {named_card("HIP", 0x1002, 0x75a3, 287.98, 256), "AMD Instinct MI355X", vrb::MemoryType::hbm3e, 8000, 256 * mib,
         "Infinity Cache"},
        // HIP counts an RDNA 4 card's WGPs: 32 on the RX 9070 XT.
        {named_card("HIP", 0x1002, 0x7550, 15.92, 32), "AMD Radeon RX 9070 XT or RX 9070", vrb::MemoryType::gddr6, 640,
         64 * mib, "Infinity Cache"},
    };
    for (const Newer &n : newer) {
        const auto record = describe(n.described);
        const CardMatch m = vrb::match_card(record.info);
        ASSERT_EQ(m.kind, CardMatch::Kind::unique) << n.name << ": " << m.why;
        EXPECT_EQ(m.card->name, n.name);
        EXPECT_EQ(m.card->memory, n.memory) << n.name;
        EXPECT_EQ(m.card->last_level_name, n.cache_name) << n.name;
        const vrb::PeakChoice peak = record.peak();
        EXPECT_EQ(peak.source, "datasheet") << n.name << ": " << peak.note;
        ASSERT_TRUE(peak.gb_per_s) << n.name;
        EXPECT_DOUBLE_EQ(*peak.gb_per_s, n.peak_gb_per_s) << n.name;
        // The described device reports no cache: the table's is the one its figures use.
        const auto llc = record.last_level_cache();
        EXPECT_EQ(llc.bytes, n.cache_bytes) << n.name;
        EXPECT_EQ(llc.source, "device-table") << n.name;
    }
}

TEST(DeviceTable, NamesGddr7AndTellsTheGh200VariantsApartByTheirIds)
{
    EXPECT_EQ(vrb::to_string(vrb::MemoryType::gddr7), "GDDR7");
    EXPECT_EQ(match(card(0x10de, 0x2342, 95.0)).card->memory, vrb::MemoryType::hbm3);
    EXPECT_EQ(match(card(0x10de, 0x2348, 142.5)).card->memory, vrb::MemoryType::hbm3e);
    // Each id knows only its own memory size: 144 GB on the HBM3 id is no variant of it.
    EXPECT_EQ(match(card(0x10de, 0x2342, 142.5)).kind, CardMatch::Kind::none);
}

TEST(DeviceTable, LeavesThe12GigabyteRx9070GreOnTheSharedIdToTheRuntime)
{
    EXPECT_EQ(match(card(0x1002, 0x7550, 11.98)).kind, CardMatch::Kind::none);
}

TEST(DeviceTable, MarksPartitionsOfTheNewerPartitionableCards)
{
    // An MI355X in CPX mode: eight devices of 32 compute units.
    EXPECT_EQ(match(card(0x1002, 0x75a3, 287.98, 32)).kind, CardMatch::Kind::partitioned);
    // A B200 MIG slice: fewer SMs and a share of the memory.
    EXPECT_EQ(match(card(0x10de, 0x2901, 23, 18)).kind, CardMatch::Kind::partitioned);
}
