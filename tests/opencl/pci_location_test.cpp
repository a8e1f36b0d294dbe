// Where an OpenCL device sits on the PCI bus, from the vendors' own queries: AMD's
// topology bytes, NVIDIA's bus and slot, and a domain the driver does not tell found
// among the machine's PCI devices, never guessed.
#include "pci_location.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using vrb::opencl::from_amd_topology;
using vrb::opencl::from_nv_bus_slot;
using vrb::opencl::pci_address;
using vrb::opencl::PciLocation;

// cl_device_topology_amd as ROCm fills it: type 1 (PCIe), 17 unused bytes, then bus,
// device and function.
std::vector<unsigned char> amd_topology(unsigned type, unsigned char bus, unsigned char device, unsigned char function)
{
    std::vector<unsigned char> t(24, 0);
    t[0] = static_cast<unsigned char>(type);
    t[21] = bus;
    t[22] = device;
    t[23] = function;
    return t;
}

TEST(PciLocation, AnAmdTopologyGivesBusDeviceAndFunctionWithABusPast0x7fReadUnsigned)
{
    const auto where = from_amd_topology(amd_topology(1, 0xc1, 0x00, 0x0));
    ASSERT_TRUE(where);
    EXPECT_FALSE(where->domain);
    EXPECT_EQ(where->bus, 0xc1u);
    EXPECT_EQ(where->device, 0u);
    EXPECT_EQ(where->function, 0u);
    EXPECT_EQ(from_amd_topology(amd_topology(1, 0x03, 0x1f, 0x7))->device, 0x1fu);
}

TEST(PciLocation, AnAmdTopologyOfAnotherTypeOrTooShortSaysNothing)
{
    EXPECT_FALSE(from_amd_topology(amd_topology(0, 0xc1, 0, 0)));
    EXPECT_FALSE(from_amd_topology(amd_topology(2, 0xc1, 0, 0)));
    EXPECT_FALSE(from_amd_topology(std::vector<unsigned char>(20, 1)));
}

TEST(PciLocation, AnNvidiaSlotHoldsTheDeviceAboveTheFunction)
{
    const PciLocation where = from_nv_bus_slot(0x19, (0x1c << 3) | 2, 0x0001);
    EXPECT_EQ(where.bus, 0x19u);
    EXPECT_EQ(where.device, 0x1cu);
    EXPECT_EQ(where.function, 2u);
    EXPECT_EQ(pci_address(where, {}), "0001:19:1c.2");
    EXPECT_FALSE(from_nv_bus_slot(0x19, 0, std::nullopt).domain);
}

TEST(PciLocation, AnUnknownDomainIsTheOneDeviceOfThisMachineAtThatBusDeviceAndFunction)
{
    PciLocation where;
    where.bus = 0xc1;
    const std::vector<std::string> one = {"0000:00:00.0", "0000:c1:00.0", "0000:c1:00.1", "0000:41:00.0"};
    EXPECT_EQ(pci_address(where, one), "0000:c1:00.0");
    const std::vector<std::string> two_domains = {"0000:c1:00.0", "0001:c1:00.0"};
    EXPECT_EQ(pci_address(where, two_domains), "") << "two domains hold one there: unknown, not a guess";
    EXPECT_EQ(pci_address(where, {"0000:41:00.0"}), "") << "no device there";
    EXPECT_EQ(pci_address(where, {}), "");
}

} // namespace
