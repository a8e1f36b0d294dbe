#include <vrambench/core/results/device_record.hpp>

#include <gtest/gtest.h>

#include <cstring>

TEST(DeviceRecord, KeysACardByPciAddressFirstThenUuidThenItsId)
{
    vrb::DeviceRecord d;
    d.id = "cuda:0";
    EXPECT_EQ(d.key(), "cuda:0");
    d.info.known |= VRB_KNOWN_UUID;
    d.info.uuid[0] = 0xab;
    EXPECT_EQ(d.key(), "uuid:ab000000-0000-0000-0000-000000000000");
    d.info.known |= VRB_KNOWN_PCI_ADDRESS;
    std::strcpy(d.info.pci_address, "0000:65:00.0");
    EXPECT_EQ(d.key(), "pci:0000:65:00.0");
}

TEST(DeviceRecord, ComputesPeakOnlyWhenBothBusWidthAndClockAreKnown)
{
    vrb::DeviceRecord d;
    d.info.memory_bus_width_bits = 384;
    d.info.memory_clock_khz = 10501000;
    d.info.known = VRB_KNOWN_BUS_WIDTH;
    EXPECT_FALSE(d.peak_gb_per_s());
    d.info.known |= VRB_KNOWN_MEMORY_CLOCK;
    ASSERT_TRUE(d.peak_gb_per_s());
    EXPECT_NEAR(*d.peak_gb_per_s(), 1008.1, 0.1);
}

TEST(DeviceRecord, TakesTheLastLevelCacheFromTheDeepestDataCache)
{
    vrb::DeviceRecord d;
    d.info.cache_count = 3;
    d.info.caches[0] = {1, 1, 48 << 10, "data"};
    d.info.caches[1] = {1, 1, 64 << 10, "instruction"};
    d.info.caches[2] = {2, 0, 50 << 20, "unified"};
    EXPECT_EQ(d.last_level_cache_bytes(), 50u << 20);
}
