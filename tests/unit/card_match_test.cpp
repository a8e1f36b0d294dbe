// Which card a handle names, as an importer checks it (check_same_card in
// external_handle.hpp), for the cards as their APIs describe them: on NVIDIA, CUDA and
// Vulkan report one UUID; on AMD, HIP's UUID is the runtime's own and Vulkan's comes
// from the PCI address, so one card has two, and the PCI address matches it.
#include <vrambench/external_handle.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>

namespace {

using vrb::plugin::CardKey;
using vrb::plugin::check_same_card;
using vrb::plugin::Failure;
using vrb::plugin::ImporterIdentity;

// An H200 as CUDA and Vulkan (NVIDIA's driver) describe it: one UUID.
const uint8_t kH200[16] = {0x2f, 0x4c, 0x11, 0x9a, 0x07, 0x3e, 0x5b, 0x21,
                           0x8d, 0x60, 0x14, 0xc2, 0x9e, 0x01, 0x77, 0x3a};
// An MI300X: HIP's UUID (ROCr's, from the serial) and RADV's (from the PCI address).
const uint8_t kMi300xHip[16] = {'G', 'P', 'U', '-', '5', 'a', '1', '7', '0', 'd', '1', 'e', '0', '0', '1', '4'};
const uint8_t kMi300xVulkan[16] = {0x00, 0x00, 0x00, 0x00, 0xc1, 0x00, 0x00, 0x00,
                                   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
const uint8_t kMatchDriver[16] = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};

vrb_external_handle card_exported_by(const char *api, const uint8_t (&uuid)[16], const char *pci_address)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    vrb::plugin::name_card(h, &uuid, &kMatchDriver, pci_address);
    std::strcpy(h.api, api);
    return h;
}

ImporterIdentity card_importer(const char *api, const uint8_t (&uuid)[16], const char *pci_address)
{
    ImporterIdentity id;
    id.api = api;
    id.uuids_known = true;
    id.device_uuid = &uuid;
    id.driver_uuid = &kMatchDriver;
    id.device_name = "test card";
    id.pci_address = pci_address;
    return id;
}

std::string card_refusal(const vrb_external_handle &h, const ImporterIdentity &id)
{
    try {
        check_same_card(h, id, "memory");
    } catch (const Failure &f) {
        EXPECT_EQ(f.status(), VRB_ERROR_INVALID_ARGUMENT);
        return f.what();
    }
    ADD_FAILURE() << "not refused";
    return {};
}

TEST(CardMatch, AnNvidiaCardIsMatchedByTheUuidCudaAndVulkanShare)
{
    const auto h = card_exported_by("CUDA", kH200, "0000:19:00.0");
    EXPECT_TRUE(h.flags & VRB_EXTERNAL_PCI_ADDRESS_KNOWN);
    EXPECT_STREQ(h.pci_address, "0000:19:00.0");
    EXPECT_EQ(check_same_card(h, card_importer("Vulkan", kH200, "0000:19:00.0"), "memory"), CardKey::uuid);
    EXPECT_EQ(check_same_card(h, card_importer("Vulkan", kH200, ""), "memory"), CardKey::uuid);
}

TEST(CardMatch, AnAmdCardWhoseHipAndVulkanUuidsDifferIsMatchedByItsPciAddress)
{
    const auto from_hip = card_exported_by("HIP", kMi300xHip, "0000:c1:00.0");
    EXPECT_EQ(check_same_card(from_hip, card_importer("Vulkan", kMi300xVulkan, "0000:c1:00.0"), "memory"),
              CardKey::pci_address);
    const auto from_vulkan = card_exported_by("Vulkan", kMi300xVulkan, "0000:c1:00.0");
    EXPECT_EQ(check_same_card(from_vulkan, card_importer("HIP", kMi300xHip, "0000:c1:00.0"), "semaphore"),
              CardKey::pci_address);
    EXPECT_STREQ(vrb::plugin::card_key_name(CardKey::pci_address), "pci-address");
}

TEST(CardMatch, AnotherAmdCardIsRefusedNamingBothPciAddresses)
{
    const auto h = card_exported_by("HIP", kMi300xHip, "0000:c1:00.0");
    const std::string why = card_refusal(h, card_importer("Vulkan", kMi300xVulkan, "0000:41:00.0"));
    EXPECT_NE(why.find("lives on another card"), std::string::npos) << why;
    EXPECT_NE(why.find("at 0000:c1:00.0"), std::string::npos) << why;
    EXPECT_NE(why.find("at 0000:41:00.0"), std::string::npos) << why;
}

TEST(CardMatch, WithinOneApiDifferentUuidsAreAnotherCardWhateverThePciAddressSays)
{
    const auto h = card_exported_by("Vulkan", kMi300xVulkan, "0000:c1:00.0");
    const std::string why = card_refusal(h, card_importer("Vulkan", kH200, "0000:c1:00.0"));
    EXPECT_NE(why.find("lives on another card"), std::string::npos) << why;
}

TEST(CardMatch, UuidsThatDifferAcrossApisWithoutBothPciAddressesAreRefusedSayingWhatIsMissing)
{
    const auto h = card_exported_by("HIP", kMi300xHip, "");
    EXPECT_FALSE(h.flags & VRB_EXTERNAL_PCI_ADDRESS_KNOWN);
    const std::string why = card_refusal(h, card_importer("Vulkan", kMi300xVulkan, "0000:c1:00.0"));
    EXPECT_NE(why.find("the PCI address that would tell is not known to both"), std::string::npos) << why;
}

TEST(CardMatch, AHandleOfAbi15CarriesNoPciAddressAndNoneIsWrittenIntoIt)
{
    vrb_external_handle h{};
    h.struct_size = offsetof(vrb_external_handle, pci_address); // a 1.5 host's handle
    std::memset(h.pci_address, 'x', sizeof h.pci_address);
    vrb::plugin::name_card(h, &kMi300xHip, &kMatchDriver, "0000:c1:00.0");
    EXPECT_FALSE(h.flags & VRB_EXTERNAL_PCI_ADDRESS_KNOWN);
    EXPECT_EQ(h.pci_address[0], 'x') << "past the caller's struct_size";
    h.flags |= VRB_EXTERNAL_PCI_ADDRESS_KNOWN; // set by a confused exporter: still not read
    EXPECT_EQ(vrb::plugin::handle_pci_address(h), "");
}

TEST(CardMatch, WithNoKeyKnownToBothNothingIsCheckedAndSaidSo)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    std::strcpy(h.api, "HIP");
    EXPECT_EQ(check_same_card(h, card_importer("Vulkan", kMi300xVulkan, "0000:c1:00.0"), "memory"), CardKey::unchecked);
}

} // namespace
