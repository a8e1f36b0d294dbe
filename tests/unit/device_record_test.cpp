#include <vrambench/core/results/card_key.hpp>
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

TEST(DeviceRecord, KeysASoftwareDeviceByHostAndUuidSoTwoMachinesLavapipesDiffer)
{
    // lavapipe: a CPU device whose deviceUUID is the same constant on every machine.
    vrb_device_info lavapipe{};
    lavapipe.type = VRB_DEVICE_CPU;
    lavapipe.known = VRB_KNOWN_UUID;
    lavapipe.uuid[0] = 0x6d;
    const std::string here = vrb::card_key(lavapipe, "vulkan:0", "node-a");
    EXPECT_EQ(here, "host:node-a/uuid:6d000000-0000-0000-0000-000000000000");
    EXPECT_NE(here, vrb::card_key(lavapipe, "vulkan:0", "node-b"));
    // The same device seen by another API on the same machine keeps the same key.
    EXPECT_EQ(here, vrb::card_key(lavapipe, "opencl:0", "node-a"));

    // A GPU whose UUID is all zero identifies nothing either.
    vrb_device_info zero{};
    zero.type = VRB_DEVICE_DISCRETE_GPU;
    zero.known = VRB_KNOWN_UUID;
    EXPECT_TRUE(vrb::software_device(zero));
    EXPECT_EQ(vrb::card_key(zero, "vulkan:1", "node-a"), "host:node-a/uuid:00000000-0000-0000-0000-000000000000");

    // A GPU with its own UUID is the same card wherever it is plugged in.
    vrb_device_info gpu = zero;
    gpu.uuid[15] = 0x01;
    EXPECT_FALSE(vrb::software_device(gpu));
    EXPECT_EQ(vrb::card_key(gpu, "vulkan:1", "node-a"), "uuid:00000000-0000-0000-0000-000000000001");
    EXPECT_EQ(vrb::card_key(gpu, "vulkan:1", "node-a"), vrb::card_key(gpu, "cuda:0", "node-b"));

    // A device that tells no UUID keeps its id, and a PCI address still comes first.
    vrb_device_info host{};
    host.type = VRB_DEVICE_CPU;
    EXPECT_EQ(vrb::card_key(host, "host:0", "node-a"), "host:0");
    lavapipe.known |= VRB_KNOWN_PCI_ADDRESS;
    std::strcpy(lavapipe.pci_address, "0000:00:02.0");
    EXPECT_EQ(vrb::card_key(lavapipe, "vulkan:0", "node-a"), "pci:0000:00:02.0");
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
