// The GPU-to-GPU fabric read by PCI address: NVLink through the NVML stand-in, loaded the
// way the real library is (VRAMBENCH_NVML_LIBRARY); xGMI from a fake amdgpu sysfs tree.
// An H200 pair's 18 links, a PCIe-only card answering NOT_SUPPORTED, garbage answers, a
// hive of two cards, and peer copies set against the links they cross.
#include "../fake_system_tree.hpp"
#include "described_device.hpp"

#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/results/report.hpp>

#include <gtest/gtest.h>

using namespace vrb;
using vrb::test::FakeSystemTree;
using vrb::test::ScopedEnv;

namespace {

// Two amdgpu cards of one xGMI hive, each with the hive's mirror of node entries.
void xgmi_hive(const FakeSystemTree &tree)
{
    const std::string cards[] = {"0000:43:00.0", "0000:44:00.0"};
    for (const auto &address : cards)
        tree.pci_card(address, "16.0 GT/s PCIe", 16, "16.0 GT/s PCIe", 16);
    for (int i = 0; i < 2; ++i) {
        const std::string folder = "/sys/devices/pci0000:00/0000:00:01.0/" + cards[i];
        tree.write(folder + "/xgmi_device_id", i == 0 ? "5512812304512312\n" : "5512812304512313\n");
        tree.write(folder + "/xgmi_physical_id", std::to_string(i) + "\n");
        tree.write(folder + "/xgmi_hive_info/xgmi_hive_id", "4102592452382432\n");
        for (int n = 0; n < 2; ++n)
            std::filesystem::create_directory_symlink(
                "../../" + cards[n], tree.root() / (folder.substr(1) + "/xgmi_hive_info/node" + std::to_string(n + 1)));
    }
}

ProbeResult peer_copy(double value, bool both)
{
    ProbeResult r;
    r.probe = "bandwidth.peer";
    r.value = value;
    r.parameters = {{"peer", "cuda:1"}, {"both_directions", both}};
    return r;
}

} // namespace

TEST(Fabric, TheNvlinkRateTableHoldsNvidiasPublishedFiguresAndNoGuess)
{
    EXPECT_EQ(nvlink_link_rate_gb_per_s(1), 20.0);
    for (uint32_t v : {2u, 3u, 4u})
        EXPECT_EQ(nvlink_link_rate_gb_per_s(v), 25.0) << v;
    EXPECT_FALSE(nvlink_link_rate_gb_per_s(0));
    EXPECT_FALSE(nvlink_link_rate_gb_per_s(5)); // NVLink 5 or NVML's 3.1: not guessed
    EXPECT_FALSE(nvlink_link_rate_gb_per_s(7));
}

TEST(Fabric, AnH200PairReads18Version4LinksToItsPeerAt450GBPerDirection)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "pair");
    const FabricReading reading = read_nvlink("0000:10:00.0");
    ASSERT_TRUE(reading.fabric) << reading.why_none;
    const Fabric &f = *reading.fabric;
    EXPECT_EQ(f.kind, "nvlink");
    ASSERT_EQ(f.links.size(), 18u);
    EXPECT_EQ(f.links[17].index, 17u);
    EXPECT_EQ(f.links[0].remote_address, "0000:11:00.0"); // NVML's "00000000:11:00.0", as sysfs writes it
    EXPECT_EQ(f.links[0].remote_type, "gpu");
    EXPECT_EQ(f.links[0].version, 4u);
    EXPECT_NEAR(*f.links[0].speed_gb_per_s, 26.562, 1e-9);
    ASSERT_EQ(f.peers.size(), 1u);
    EXPECT_EQ(f.peers[0].links, 18u);
    EXPECT_NEAR(*f.peers[0].rate_gb_per_s, 450.0, 1e-9);
    EXPECT_EQ(f.peers[0].rate_source, "NVIDIA's published rate of the NVLink version");
    EXPECT_TRUE(f.unknown.empty());
    EXPECT_EQ(fabric_summary(f), "18 NVLink links of version 4 to 0000:11:00.0 (450.0 GB/s per direction)");
    // The other card of the pair sees the first.
    EXPECT_EQ(read_nvlink("0000:11:00.0").fabric->peers.at(0).address, "0000:10:00.0");
}

TEST(Fabric, APcieOnlyCardIsNotAvailableInNvmlsOwnWords)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "pair");
    const FabricReading reading = read_nvlink("0000:12:00.0");
    EXPECT_FALSE(reading.fabric);
    EXPECT_EQ(reading.why_none, "not available: nvml: nvmlDeviceGetNvLinkState failed: Not Supported (3)");
    EXPECT_EQ(read_nvlink("0000:77:00.0").why_none,
              "not available: nvml: no NVIDIA device at 0000:77:00.0: Not Found (6)");
    const ScopedEnv missing("VRAMBENCH_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    EXPECT_EQ(read_nvlink("0000:10:00.0").why_none.rfind("not available: nvml: cannot open /nonexistent/", 0), 0u);
}

TEST(Fabric, AFailingVersionLeavesTheRateToNvmlsLinkSpeedAndSaysWhy)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "pair");
    const ScopedEnv fail("NVML_STANDIN_FAIL", "nvmlDeviceGetNvLinkVersion");
    const Fabric f = *read_nvlink("0000:10:00.0").fabric;
    EXPECT_EQ(f.unknown.at("link 0.version"), "nvml: nvmlDeviceGetNvLinkVersion failed: Not Supported (3)");
    ASSERT_EQ(f.peers.size(), 1u);
    EXPECT_FALSE(f.peers[0].version);
    EXPECT_NEAR(*f.peers[0].rate_gb_per_s, 18 * 26.562, 1e-9);
    EXPECT_EQ(f.peers[0].rate_source, "the link speed NVML reports");
    const ScopedEnv no_speed("NVML_STANDIN_FAIL", "nvmlDeviceGetNvLinkVersion,nvmlDeviceGetFieldValues");
    const Fabric g = *read_nvlink("0000:10:00.0").fabric;
    EXPECT_FALSE(g.peers[0].rate_gb_per_s);
    EXPECT_EQ(g.peers[0].rate_source, "the links' version is unknown, and NVML gave no link speed");
    EXPECT_NE(fabric_summary(g).find("rate unknown: the links' version is unknown"), std::string::npos)
        << fabric_summary(g);
}

TEST(Fabric, GarbageAnswersAreUnknownWithWhatNvmlAnswered)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "garbage");
    const FabricReading reading = read_nvlink("0000:10:00.0");
    ASSERT_TRUE(reading.fabric) << reading.why_none;
    const Fabric &f = *reading.fabric;
    EXPECT_EQ(f.links.size(), 17u); // link 0's state is neither up nor down
    EXPECT_EQ(f.unknown.at("link 0"), "nvml: nvmlDeviceGetNvLinkState answered 7, neither enabled nor disabled");
    EXPECT_EQ(f.unknown.at("link 1.version"),
              "nvml: nvmlDeviceGetNvLinkVersion answered 4000000000, which is no NVLink version");
    EXPECT_EQ(f.unknown.at("link 2.remote"),
              "nvml: nvmlDeviceGetNvLinkRemotePciInfo_v2 answered 'zz:?-not-a-bus', not a PCI address");
    EXPECT_EQ(f.unknown.at("speed"),
              "nvml: the NVLink speed field answered a value of type 0, not the unsigned int of a speed in MB/s");
    // Link 2 goes to an end NVML could not name; the others to the peer, with link 1's
    // version unknown, so no version is common and no rate is claimed.
    ASSERT_EQ(f.peers.size(), 2u);
    EXPECT_EQ(f.peers[0].address, "");
    EXPECT_EQ(f.peers[1].links, 16u);
    EXPECT_FALSE(f.peers[1].rate_gb_per_s);
    const nlohmann::json j = to_json(f);
    EXPECT_TRUE(j["rate_gb_per_s"].is_null());
    EXPECT_EQ(fabric_from_json(j).unknown, f.unknown);
}

TEST(Fabric, AnXgmiHiveOfTwoCardsNamesTheOtherCardAndLeavesTheRateUnknown)
{
    FakeSystemTree tree;
    xgmi_hive(tree);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const FabricReading reading = read_xgmi("0000:43:00.0");
    ASSERT_TRUE(reading.fabric) << reading.why_none;
    const Fabric &f = *reading.fabric;
    EXPECT_EQ(f.kind, "xgmi");
    EXPECT_EQ(f.source, "amdgpu-sysfs");
    EXPECT_EQ(f.hive_id, "4102592452382432");
    EXPECT_EQ(f.device_id, "5512812304512312");
    EXPECT_EQ(f.physical_id, "0");
    ASSERT_EQ(f.peers.size(), 1u); // the card itself is not its own peer
    EXPECT_EQ(f.peers[0].address, "0000:44:00.0");
    EXPECT_FALSE(f.peers[0].rate_gb_per_s);
    EXPECT_EQ(fabric_summary(f), "xGMI hive 4102592452382432 with 0000:44:00.0 (rate unknown: amdgpu's sysfs names "
                                 "the hive's members, not the links' count or speed)");
    EXPECT_EQ(read_xgmi("0000:44:00.0").fabric->peers.at(0).address, "0000:43:00.0");
}

TEST(Fabric, ACardWithoutXgmiFilesOrNvlinkSaysBothReasons)
{
    FakeSystemTree tree;
    tree.pci_card("0000:41:00.0", "16.0 GT/s PCIe", 16, "16.0 GT/s PCIe", 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv address("NVML_STANDIN_ADDRESS", "0000:41:00.0");
    const FabricReading reading = read_fabric("0000:41:00.0");
    EXPECT_FALSE(reading.fabric);
    EXPECT_EQ(reading.why_none.rfind("NVLink not available: nvml: nvmlDeviceGetNvLinkState failed: Not Supported "
                                     "(3); xGMI not available: amdgpu writes no xgmi_device_id for this card (no "
                                     "such file: ",
                                     0),
              0u)
        << reading.why_none;
}

TEST(Fabric, TheDeviceRecordCarriesTheFabricOrWhyNotAndReadsItBack)
{
    FakeSystemTree tree;
    xgmi_hive(tree);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    DeviceRecord card = test::card_at_pci_address("0000:43:00.0");
    describe_link(card);
    const nlohmann::json j = to_json(card);
    EXPECT_EQ(j["fabric"]["kind"], "xgmi");
    EXPECT_EQ(j["fabric"]["peers"][0]["address"], "0000:44:00.0");
    EXPECT_EQ(to_json(device_record_from_json(j))["fabric"], j["fabric"]);
    EXPECT_EQ(fabric_summary_text(j).rfind("xGMI hive 4102592452382432 with 0000:44:00.0", 0), 0u);

    DeviceRecord cpu = test::card_at_pci_address("0000:43:00.0");
    cpu.info.type = VRB_DEVICE_CPU;
    describe_fabric(cpu);
    const nlohmann::json none = to_json(cpu);
    ASSERT_TRUE(none.contains("fabric"));
    EXPECT_TRUE(none["fabric"].is_null());
    EXPECT_EQ(none["unknown"]["fabric"], "a CPU is not a GPU, so it has no GPU-to-GPU fabric");
    EXPECT_EQ(fabric_summary_text(none), "none: a CPU is not a GPU, so it has no GPU-to-GPU fabric");
    nlohmann::json old = none;
    old.erase("fabric");
    EXPECT_EQ(fabric_summary_text(old), ""); // a set written before fabrics were read
}

TEST(Fabric, APeerCopyOverTheSharedLinksGetsItsEfficiencyAgainstTheirRate)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "pair");
    const nlohmann::json fabric = to_json(*read_nvlink("0000:10:00.0").fabric);

    ProbeResult one = peer_copy(360, false);
    annotate_peer(one, fabric, "0000:11:00.0");
    EXPECT_EQ(one.fabric["shared"], true);
    EXPECT_EQ(one.fabric["links"], 18);
    EXPECT_EQ(one.fabric["summary"],
              "18 NVLink links of version 4 between 0000:10:00.0 and 0000:11:00.0 (450.0 GB/s per direction)");
    ASSERT_TRUE(one.fabric_efficiency);
    EXPECT_NEAR(*one.fabric_efficiency, 0.8, 1e-9);

    ProbeResult both = peer_copy(720, true);
    annotate_peer(both, fabric, "0000:11:00.0");
    EXPECT_NEAR(*both.fabric_efficiency, 0.8, 1e-9); // both directions at once count the links twice

    ProbeResult apart = peer_copy(20, false);
    annotate_peer(apart, fabric, "0000:12:00.0");
    EXPECT_EQ(apart.fabric["shared"], false);
    EXPECT_EQ(apart.fabric["summary"],
              "no NVLink link between 0000:10:00.0 and 0000:12:00.0: the copy takes PCIe or the host");
    EXPECT_FALSE(apart.fabric_efficiency);

    ProbeResult unnamed = peer_copy(20, false);
    annotate_peer(unnamed, fabric, "");
    EXPECT_TRUE(unnamed.fabric["shared"].is_null());

    ProbeResult stream = peer_copy(360, false);
    stream.probe = "bandwidth.stream";
    annotate_peer(stream, fabric, "0000:11:00.0");
    EXPECT_TRUE(stream.fabric.is_null());

    const nlohmann::json written = to_json(one);
    EXPECT_EQ(result_from_json(written).fabric, one.fabric);
    EXPECT_NEAR(result_from_json(written).fabric_efficiency.value(), 0.8, 1e-9);
}

TEST(Fabric, TheCardWatchFindsThePeersAddressByItsId)
{
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv mode("NVML_STANDIN_NVLINK", "pair");
    const ScopedEnv off("VRAMBENCH_TELEMETRY", "off");
    DeviceRecord card = test::card_at_pci_address("0000:10:00.0");
    describe_fabric(card);
    std::vector<std::string> asked;
    CardWatch watch(card, [&](const std::string &id) {
        asked.push_back(id);
        return id == "cuda:1" ? std::string("0000:11:00.0") : std::string();
    });
    ProbeResult r = peer_copy(360, false);
    watch.annotate(r);
    EXPECT_EQ(r.fabric["shared"], true);
    ProbeResult again = peer_copy(360, true);
    watch.annotate(again);
    EXPECT_EQ(asked, std::vector<std::string>{"cuda:1"}); // asked once per peer
}
