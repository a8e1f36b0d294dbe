// A vendor's OpenCL driver that tells its PCI place only through its own query, as the
// module describes it. Each test runs in a process whose OCL_ICD_VENDORS lists one mock
// driver (ctest sets it), since the ICD loader reads its drivers once a process. The
// mock compiles no kernel, so the device is described without being opened.
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

namespace {

nlohmann::json described_mock()
{
    const vrb::BackendEntry entry = vrb::open_backend(VRB_OPENCL_MODULE);
    EXPECT_EQ(entry.state, vrb::BackendEntry::State::available) << entry.reason;
    if (entry.state != vrb::BackendEntry::State::available) return nlohmann::json::object();
    for (uint32_t i = 0; i < entry.backend->device_count(); ++i) {
        const vrb::DeviceRecord record = vrb::describe_device(*entry.backend, nullptr, i);
        const nlohmann::json d = vrb::to_json(record);
        if (d["name"].get<std::string>().starts_with("Mock")) return d;
    }
    ADD_FAILURE() << "no mock device among " << entry.backend->device_count();
    return nlohmann::json::object();
}

} // namespace

// ROCm's OpenCL has no cl_khr_pci_bus_info: its topology query and PCIe id bring an
// MI300X to its datasheet entry (or its stream array would be its Infinity Cache).
TEST(OpenclPci, AnAmdDeviceReachesTheDeviceTableThroughItsTopologyAndPcieId)
{
    if (!std::getenv("MOCK_AMD_TOPOLOGY")) GTEST_SKIP() << "run by ctest with the AMD mock driver listed";
    const auto d = described_mock();
    ASSERT_TRUE(d.contains("pci") && d["pci"].is_object()) << d.dump(1);
    EXPECT_EQ(d["pci"]["vendor_id"], 0x1002) << d.dump(1);
    EXPECT_EQ(d["pci"]["device_id"], 0x74a1) << d.dump(1);
    // The table's MI300X entry is found (the mock's 4 compute units make it a partition).
    EXPECT_EQ(d["peak"]["card"], "AMD Instinct MI300X") << d.dump(1);
}

// NVIDIA's OpenCL tells bus, slot (device << 3 | function) and domain through its own query.
TEST(OpenclPci, AnNvidiaDeviceHasItsPciAddressFromBusSlotAndDomain)
{
    if (!std::getenv("MOCK_NV_BUS_SLOT")) GTEST_SKIP() << "run by ctest with the NVIDIA mock driver listed";
    const auto d = described_mock();
    ASSERT_TRUE(d.contains("pci") && d["pci"].is_object()) << d.dump(1);
    EXPECT_EQ(d["pci"]["address"], "0002:9a:1c.1") << d.dump(1);
}
