// The PCIe link read from sysfs by PCI address: rates per generation, a card trained
// below what it supports flagged, a reading retaken under load, files that are missing
// or hold garbage reported as not available with the reason.
#include "../fake_system_tree.hpp"
#include "described_device.hpp"

#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/results/report.hpp>

#include <gtest/gtest.h>

#include <thread>

using namespace vrb;
using vrb::test::FakeSystemTree;
using vrb::test::ScopedEnv;

TEST(Link, RatesFollowEachGenerationsEncoding)
{
    EXPECT_NEAR(*pcie_rate_gb_per_s(2.5, 16), 4.0, 1e-9);       // 8b/10b
    EXPECT_NEAR(*pcie_rate_gb_per_s(5, 16), 8.0, 1e-9);         // 8b/10b
    EXPECT_NEAR(*pcie_rate_gb_per_s(8, 16), 15.754, 1e-3);      // 128b/130b
    EXPECT_NEAR(*pcie_rate_gb_per_s(16, 8), 15.754, 1e-3);      // x8 Gen4 = x16 Gen3
    EXPECT_NEAR(*pcie_rate_gb_per_s(32, 16), 63.015, 1e-3);     // Gen5 x16
    EXPECT_NEAR(*pcie_rate_gb_per_s(64, 16), 121.0, 1e-9);      // FLIT: 242 of 256 bytes
    EXPECT_NEAR(*pcie_rate_gb_per_s(32, 1), 63.015 / 16, 1e-3); // x1
    EXPECT_FALSE(pcie_rate_gb_per_s(20, 16));                   // no generation runs at 20 GT/s
    EXPECT_EQ(pcie_generation(16.0), 4);
    EXPECT_EQ(pcie_generation(3.0), 0);
}

TEST(Link, ACardAtX8Gen4OfX16Gen5IsFlagged)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "16.0 GT/s PCIe", 8, "32.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const PcieLink link = read_pcie_link("0000:41:00.0");
    EXPECT_EQ(link_text(link.current), "x8 Gen4");
    EXPECT_EQ(link_text(link.max), "x16 Gen5");
    EXPECT_EQ(link.port, "0000:00:01.0");
    EXPECT_EQ(link_text(link.port_max), "x16 Gen5");
    EXPECT_EQ(below_max(link), true);
    EXPECT_EQ(link_finding(link),
              "this x16 Gen5 card trained at x8 Gen4: the transfers' ceiling is a quarter of what the card supports");
    const nlohmann::json j = to_json(link, "at description, idle");
    EXPECT_EQ(j["below_max"], true);
    EXPECT_EQ(j["current"]["generation"], 4);
    EXPECT_NEAR(j["current"]["rate_gb_per_s"].get<double>(), 15.754, 1e-3);
    EXPECT_TRUE(j["unknown"].empty()) << j.dump();
}

TEST(Link, AFullLinkIsNotFlaggedAndASlowerSlotIsNamed)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "32.0 GT/s PCIe", 16, "32.0 GT/s PCIe", 16);
    tree.pci_card("0000:42:00.0", "16.0 GT/s PCIe", 16, "32.0 GT/s PCIe", 16, "0000:00:02.0", "16.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const PcieLink full = read_pcie_link("0000:41:00.0");
    EXPECT_EQ(below_max(full), false);
    EXPECT_EQ(link_finding(full), "");
    // A Gen5 card in a Gen4 slot trained at Gen4: all the slot allows, nothing wrong.
    const PcieLink slotted = read_pcie_link("0000:42:00.0");
    EXPECT_EQ(below_max(slotted), false);
    EXPECT_EQ(link_finding(slotted), "");
    EXPECT_NEAR(*supported_rate(slotted), *pcie_rate_gb_per_s(16, 16), 1e-9);
}

TEST(Link, MissingFilesAreNotAvailableWithTheReason)
{
    FakeSystemTree tree;
    tree.write("/sys/bus/pci/devices/0000:41:00.0/max_link_width", "16\n");
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const PcieLink link = read_pcie_link("0000:41:00.0");
    EXPECT_FALSE(link.current.gts);
    EXPECT_EQ(link.max.width, 16u);
    EXPECT_NE(link.unknown.at("current.speed").find("no such file"), std::string::npos);
    EXPECT_NE(link.unknown.at("current.speed").find("current_link_speed"), std::string::npos);
    EXPECT_FALSE(below_max(link)); // unknown, not "no"
    const nlohmann::json j = to_json(link, "at description, idle");
    EXPECT_TRUE(j["below_max"].is_null());
    EXPECT_TRUE(j["unknown"].contains("max.speed"));
}

TEST(Link, GarbageFilesAreNotAvailableWithWhatTheyHeld)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "Unknown", 0, "fast", 16);
    tree.write("/sys/devices/pci0000:00/0000:00:01.0/0000:41:00.0/current_link_width", "x?\n");
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const PcieLink link = read_pcie_link("0000:41:00.0");
    EXPECT_FALSE(link.current.gts);
    EXPECT_FALSE(link.current.width);
    EXPECT_FALSE(link.max.gts);
    EXPECT_NE(link.unknown.at("current.speed").find("holds 'Unknown', not a speed in GT/s"), std::string::npos);
    EXPECT_NE(link.unknown.at("current.width").find("holds 'x?', not a lane count"), std::string::npos);
    EXPECT_NE(link.unknown.at("max.speed").find("holds 'fast'"), std::string::npos);
}

TEST(Link, ACpuHasNoneAndSaysSo)
{
    test::Description d;
    d.type = VRB_DEVICE_CPU;
    d.api = "host";
    DeviceRecord cpu = test::describe(d);
    describe_link(cpu);
    const nlohmann::json j = to_json(cpu);
    ASSERT_TRUE(j.contains("link"));
    EXPECT_TRUE(j["link"].is_null());
    EXPECT_EQ(j["unknown"]["link"], "a CPU is not a PCI device, so it has no PCIe link");
    const std::string text = describe_device_text(j);
    EXPECT_NE(text.find("pcie link"), std::string::npos) << text;
    EXPECT_NE(text.find(" none: a CPU is not a PCI device, so it has no PCIe link\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("unknown: a CPU is not a PCI device, so it has no PCIe link"), std::string::npos) << text;
}

TEST(Link, ADeviceWithoutASysfsFolderSaysWhichFolderWasMissing)
{
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    DeviceRecord card = test::card_at_pci_address("0000:99:00.0");
    describe_link(card);
    EXPECT_TRUE(card.link->is_null());
    EXPECT_NE(card.link_unknown.find("sys/bus/pci/devices/0000:99:00.0"), std::string::npos) << card.link_unknown;
}

TEST(Link, InfoOfADescribedCardAtX8Gen4OfX16Gen5SaysItIsBelowItsMax)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "16.0 GT/s PCIe", 8, "32.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    DeviceRecord card = test::card_at_pci_address("0000:41:00.0");
    describe_link(card);
    const nlohmann::json j = to_json(card);
    EXPECT_EQ(j["link"]["taken"], "at description, idle");
    const std::string text = describe_device_text(j);
    EXPECT_NE(text.find("x8 Gen4 of x16 Gen5 (15.8 of 63.0 GB/s per direction; slot x16 Gen5 at 0000:00:01.0"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("BELOW ITS MAX: this x16 Gen5 card trained at x8 Gen4"), std::string::npos) << text;
    // The description survives the trip through a worker's frame.
    EXPECT_EQ(to_json(device_record_from_json(j))["link"], j["link"]);
}

TEST(Link, AnIdleGen1ReadingIsRetakenUnderLoad)
{
    FakeSystemTree tree;
    const std::string folder = tree.pci_card("0000:41:00.0", "2.5 GT/s PCIe", 16, "32.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const PcieLink idle = read_pcie_link("0000:41:00.0");
    EXPECT_EQ(link_text(idle.current), "x16 Gen1");
    class Quiet final : public TelemetrySource {
      public:
        std::string name() const override { return "none"; }
        TelemetrySample sample() override { return {}; }
    };
    TelemetrySampler sampler(std::make_unique<Quiet>(), "0000:41:00.0", std::chrono::milliseconds(2));
    std::vector<TelemetrySample> during;
    {
        const TimedRuns runs; // a transfer runs: the card brings its link up
        tree.write("/sys/devices/pci0000:00/0000:00:01.0/0000:41:00.0/current_link_speed", "32.0 GT/s PCIe\n");
        for (int i = 0; i < 500 && during.empty(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            for (auto &s : sampler.take())
                if (s.during_timed_runs && s.link.gts && *s.link.gts == 32.0) during.push_back(s);
        }
    }
    ASSERT_FALSE(during.empty());
    const nlohmann::json loaded = link_during(idle, during, "during the timed runs");
    EXPECT_EQ(loaded["current"]["generation"], 5);
    EXPECT_EQ(loaded["below_max"], false);
    EXPECT_EQ(loaded["taken"].get<std::string>().rfind("during the timed runs", 0), 0u);
}

TEST(Link, HostToDeviceTransfersCarryTheirEfficiencyAgainstTheLink)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "16.0 GT/s PCIe", 8, "32.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const nlohmann::json link = to_json(read_pcie_link("0000:41:00.0"), "during the timed runs");
    const double rate = *pcie_rate_gb_per_s(16, 8);
    ProbeResult up;
    up.probe = "bandwidth.transfer";
    up.parameters = {{"direction", "host-to-device pinned"}};
    up.value = 12.0;
    annotate_transfer(up, link);
    ASSERT_TRUE(up.link_efficiency);
    EXPECT_NEAR(*up.link_efficiency, 12.0 / rate, 1e-9);
    EXPECT_EQ(up.link["below_max"], true);
    ProbeResult both = up;
    both.link = nullptr;
    both.parameters = {{"direction", "both-directions pinned"}};
    annotate_transfer(both, link);
    EXPECT_NEAR(*both.link_efficiency, 12.0 / (2 * rate), 1e-9); // the link carries both directions at once
    // Pageable copies made one after the other: one direction at a time, one link's rate.
    ProbeResult in_turn = both;
    in_turn.link = nullptr;
    in_turn.parameters = {{"direction", "both-directions pageable"}, {"directions_at_once", false}};
    annotate_transfer(in_turn, link);
    EXPECT_NEAR(*in_turn.link_efficiency, 12.0 / rate, 1e-9);
    ProbeResult local;
    local.probe = "bandwidth.transfer";
    local.parameters = {{"direction", "device-to-device"}};
    local.value = 900.0;
    annotate_transfer(local, link);
    EXPECT_FALSE(local.link_efficiency); // never crosses the link
    EXPECT_TRUE(local.link.is_null());
    const nlohmann::json j = to_json(up);
    EXPECT_NEAR(j["link_efficiency"].get<double>(), 12.0 / rate, 1e-9);
    EXPECT_EQ(result_from_json(j).link, up.link);
}
