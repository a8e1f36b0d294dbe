#include "described_device.hpp"

#include <vrambench/core/error.hpp>

#include <gtest/gtest.h>

#include <cstdio>

using vrb::test::describe;

TEST(LastLevelCache, ComesFromTheApiWhenTheApiReportsIt)
{
    const auto llc = describe(vrb::test::h200()).last_level_cache();
    EXPECT_EQ(llc.bytes, 50ull << 20);
    EXPECT_EQ(llc.source, "api");
}

TEST(LastLevelCache, ComesFromTheDeviceTableWhenTheApiStopsShortOfIt)
{
    auto d = vrb::test::mi300x();
    d.llc_bytes = 4ull << 20; // HIP reports one XCD's L2, not the Infinity Cache
    const auto llc = describe(d).last_level_cache();
    EXPECT_EQ(llc.bytes, 256ull << 20);
    EXPECT_EQ(llc.source, "device-table");
    EXPECT_NE(llc.detail.find("Infinity Cache"), std::string::npos) << llc.detail;
}

TEST(LastLevelCache, ComesFromTheDeviceTableWhenTheApiReportsNoCache)
{
    vrb::test::Description xtx;
    xtx.api = "Vulkan";
    xtx.vendor = 0x1002;
    xtx.device = 0x744c;
    xtx.memory_gib = 23.98;
    const auto llc = describe(xtx).last_level_cache();
    EXPECT_EQ(llc.bytes, 96ull << 20);
    EXPECT_EQ(llc.source, "device-table");
}

TEST(LastLevelCache, IsMeasuredWhereTheCpuModuleSaysItMeasuredIt)
{
    vrb::test::Description cpu;
    cpu.api = "host";
    cpu.type = VRB_DEVICE_CPU;
    cpu.llc_bytes = 9728 << 10;
    cpu.llc_level = 3;
    auto record = describe(cpu);
    std::snprintf(record.info.properties[0].key, sizeof record.info.properties[0].key, "l3_instance_measured");
    std::snprintf(record.info.properties[0].value, sizeof record.info.properties[0].value,
                  "read time per line halfway to memory's at 9.5 MiB (package total 508.0 MiB)");
    record.info.property_count = 1;
    const auto llc = record.last_level_cache();
    EXPECT_EQ(llc.bytes, 9728u << 10);
    EXPECT_EQ(llc.source, "measured");
    EXPECT_NE(llc.detail.find("package total 508.0 MiB"), std::string::npos) << llc.detail;
    // Where the chase found no knee the module keeps the total and says so: not measured.
    std::snprintf(record.info.properties[0].key, sizeof record.info.properties[0].key, "l3_instance");
    std::snprintf(record.info.properties[0].value, sizeof record.info.properties[0].value,
                  "the package total: a read slowed 1.6x at no size below it");
    EXPECT_EQ(record.last_level_cache().source, "api");
}

TEST(LastLevelCache, IsTheOptionsWhenTheUserGivesOne)
{
    auto record = describe(vrb::test::h200());
    record.llc_option = 64ull << 20;
    EXPECT_EQ(record.last_level_cache().bytes, 64ull << 20);
    EXPECT_EQ(record.last_level_cache().source, "option");
}

TEST(LastLevelCache, IsUnknownWhenNothingTellsIt)
{
    const auto llc = describe(vrb::test::Description{}).last_level_cache();
    EXPECT_EQ(llc.bytes, 0u);
    EXPECT_EQ(llc.source, "none");
}

TEST(DeviceRecord, SurvivesTheTripThroughItsJsonForPlanning)
{
    auto record = describe(vrb::test::mi300x());
    const auto back = vrb::device_record_from_json(vrb::to_json(record));
    EXPECT_EQ(back.id, record.id);
    EXPECT_EQ(back.info.total_memory_bytes, record.info.total_memory_bytes);
    EXPECT_EQ(back.info.pci_device_id, 0x74a1u);
    EXPECT_EQ(back.last_level_cache_bytes(), 256ull << 20);
    EXPECT_EQ(back.peak().source, "datasheet");
    ASSERT_EQ(back.kinds.size(), 1u);
    EXPECT_EQ(back.kinds[0].flags, record.kinds[0].flags);
    EXPECT_THROW(vrb::device_record_from_json(nlohmann::json::array()), vrb::UsageError);
    auto bad = vrb::to_json(record);
    bad["total_memory_bytes"] = "lots";
    EXPECT_THROW(vrb::device_record_from_json(bad), vrb::UsageError);
}
