// How the interop probes find an exporter on the importer's card, for cards as their
// APIs describe them: an H200 through CUDA and Vulkan (one UUID), an MI300X through HIP
// and Vulkan (two UUIDs, one PCI address), and another card.
#include "interop_pairs.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace {

vrb_device_info described(const char *api, uint8_t uuid_first_byte, const char *pci_address)
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    std::strcpy(info.api, api);
    info.uuid[0] = uuid_first_byte;
    info.uuid[15] = 0x3a;
    info.known |= VRB_KNOWN_UUID;
    if (pci_address) {
        std::strcpy(info.pci_address, pci_address);
        info.known |= VRB_KNOWN_PCI_ADDRESS;
    }
    return info;
}

TEST(InteropPairs, AnH200ThroughCudaAndVulkanIsOneCardByItsUuid)
{
    EXPECT_EQ(
        vrb::interop::same_card_key(described("CUDA", 0x2f, "0000:19:00.0"), described("Vulkan", 0x2f, "0000:19:00.0")),
        "uuid");
}

TEST(InteropPairs, AnMi300xThroughHipAndVulkanIsOneCardByItsPciAddressThoughTheUuidsDiffer)
{
    EXPECT_EQ(
        vrb::interop::same_card_key(described("HIP", 'G', "0000:c1:00.0"), described("Vulkan", 0x00, "0000:c1:00.0")),
        "pci-address");
}

TEST(InteropPairs, AnotherCardOrOneThatCannotBeToldIsNoMatch)
{
    EXPECT_FALSE(
        vrb::interop::same_card_key(described("HIP", 'G', "0000:c1:00.0"), described("Vulkan", 0x00, "0000:41:00.0")));
    EXPECT_FALSE(
        vrb::interop::same_card_key(described("HIP", 'G', "0000:c1:00.0"), described("Vulkan", 0x00, nullptr)));
}

} // namespace
