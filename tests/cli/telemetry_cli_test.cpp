// The card around the memory end to end: a fake sysfs tree puts the mock's card at x8
// Gen4 of x16 Gen5, and `info`, `list`, the transfer results and the report say so; the
// NVML stand-in's figures and throttle reasons reach the results, --fail-on-throttle
// and the report; the host's results carry telemetry from /proc and cpufreq.
#include "../fake_system_tree.hpp"
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using vrb::test::FakeSystemTree;

std::string telemetry_slurp(const fs::path &file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One mock card at 0000:10:00.0, trained at x8 Gen4 of the x16 Gen5 it and its slot support.
struct NarrowCard {
    FakeSystemTree tree;
    NarrowCard() { tree.pci_card("0000:10:00.0", "16.0 GT/s PCIe", 8, "32.0 GT/s PCIe", 16); }
    // `more` after the defaults: a later setting of a variable wins.
    std::vector<std::string> env(const std::vector<std::string> &more = {}) const
    {
        std::vector<std::string> all{tree.env(), "VRAMBENCH_MOCK_DEVICES=1", "VRAMBENCH_MOCK_HOST_KIND=1",
                                     "VRAMBENCH_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1"};
        all.insert(all.end(), more.begin(), more.end());
        return all;
    }
};

fs::path telemetry_temp_file(const std::string &name)
{
    return fs::temp_directory_path() / ("vrb-telemetry-" + std::to_string(::getpid()) + "-" + name);
}

} // namespace

TEST(TelemetryCli, InfoAndListShowACardAtX8Gen4OfX16Gen5AsBelowItsMaxAndTheHostAsHavingNoLink)
{
    const NarrowCard card;
    const ProcessResult info = vrambench({"info", "multi:0", "--plugin", MOCK_MULTI_PATH}, card.env());
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "x8 Gen4 of x16 Gen5 (15.8 of 63.0 GB/s per direction")) << info.out;
    EXPECT_TRUE(contains(info.out, "BELOW ITS MAX: this x16 Gen5 card trained at x8 Gen4: the transfers' ceiling is "
                                   "a quarter of what the card supports"))
        << info.out;
    const ProcessResult as_json =
        vrambench({"info", "multi:0", "--plugin", MOCK_MULTI_PATH, "--format", "json"}, card.env());
    ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
    const json device = json::parse(as_json.out);
    EXPECT_EQ(device["link"]["below_max"], true);
    EXPECT_EQ(device["link"]["current"]["width"], 8);
    EXPECT_EQ(device["link"]["port"]["address"], "0000:00:01.0");

    const ProcessResult list = vrambench({"list", "--plugin", MOCK_MULTI_PATH}, card.env());
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_TRUE(contains(list.out, "pcie link x8 Gen4 of x16 Gen5")) << list.out;
    if (contains(list.out, "host:0")) {
        EXPECT_TRUE(contains(list.out, "pcie link none: a CPU is not a PCI device, so it has no PCIe link"))
            << list.out;
    }
}

TEST(TelemetryCli, TransferResultsAndTheReportSayTheLinkIsBelowItsMax)
{
    const NarrowCard card;
    const fs::path set = telemetry_temp_file("transfer.json"), page = telemetry_temp_file("transfer.html");
    const ProcessResult run =
        vrambench({"run", "--plugin", MOCK_MULTI_PATH, "--backend", "multi", "--probe", "bandwidth.transfer", "--size",
                   "1M", "--reps", "3", "--format", "json", "-o", set.string()},
                  card.env());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json document = json::parse(telemetry_slurp(set));
    EXPECT_FALSE(vrb::validate_result_json(document)) << vrb::validate_result_json(document)->message;
    EXPECT_EQ(document["devices"][0]["link"]["below_max"], true);
    int host_device = 0;
    for (const auto &r : document["results"]) {
        ASSERT_TRUE(r.contains("telemetry")) << r.dump();
        const std::string direction = r["parameters"]["direction"];
        if (direction == "device-to-device") {
            EXPECT_FALSE(r.contains("link_efficiency"));
            continue;
        }
        // The module copies by its copy engine only: the routes asked of its compute units
        // are waived, with nothing moved across the link to judge.
        if (r["parameters"].value("engine", "ce") == "sm") {
            EXPECT_EQ(r["status"], "waived") << r.dump();
            EXPECT_FALSE(r.contains("link_efficiency"));
            continue;
        }
        ++host_device;
        EXPECT_EQ(r["link"]["below_max"], true) << r.dump();
        EXPECT_EQ(r["link"]["current"]["generation"], 4);
        EXPECT_TRUE(r["link_efficiency"].is_number()) << r.dump();
        EXPECT_EQ(r["link"]["taken"].get<std::string>().rfind("during the", 0), 0u) << r["link"]["taken"];
    }
    EXPECT_EQ(host_device, 3); // host to device, device to host, both at once
    const ProcessResult report = vrambench({"report", set.string(), "-o", page.string()});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const std::string html = telemetry_slurp(page);
    EXPECT_TRUE(contains(html, "This x16 Gen5 card trained at x8 Gen4: the transfers' ceiling is a quarter of what "
                               "the card supports."));
    fs::remove(set);
    fs::remove(page);
}

TEST(TelemetryCli, TheNvmlStandinsThrottleReasonsReachResultsFailOnThrottleAndTheReport)
{
    const NarrowCard card;
    const fs::path set = telemetry_temp_file("nvml.json"), page = telemetry_temp_file("nvml.html");
    const std::vector<std::string> env = card.env({std::string("VRAMBENCH_NVML_LIBRARY=") + NVML_STANDIN_PATH,
                                                   "NVML_STANDIN_REASONS=4", "VRAMBENCH_MOCK_RUN_MS=30"});
    const std::vector<std::string> args{"run",     "--plugin",         MOCK_MULTI_PATH, "--backend", "multi",
                                        "--probe", "bandwidth.stream", "--size",        "64K",       "--reps",
                                        "2",       "--format",         "json"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> all = args;
        all.insert(all.end(), more.begin(), more.end());
        return all;
    };
    const ProcessResult plain = vrambench(with({"-o", set.string()}), env);
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_TRUE(contains(plain.err, "measured while the card throttled")) << plain.err;
    const json document = json::parse(telemetry_slurp(set));
    EXPECT_FALSE(vrb::validate_result_json(document)) << vrb::validate_result_json(document)->message;
    ASSERT_FALSE(document["results"].empty());
    for (const auto &r : document["results"]) {
        if (r["status"] != "ok") continue; // a waived figure runs nothing to watch
        EXPECT_EQ(r["telemetry"]["source"], "nvml") << r.dump();
        EXPECT_EQ(r["telemetry"]["figures"]["busy_percent"]["median"], 97.0);
        EXPECT_EQ(r["telemetry"]["figures"]["core_clock_mhz"]["median"], 1980.0);
        EXPECT_EQ(r["throttled"]["reasons"], json{"power-cap"});
    }
    const ProcessResult failing = vrambench(with({"--fail-on-throttle"}), env);
    EXPECT_EQ(failing.exit_code, 4) << failing.err;
    EXPECT_TRUE(contains(failing.err, "--fail-on-throttle makes that a failure")) << failing.err;
    const ProcessResult calm = vrambench(
        with({"--fail-on-throttle"}),
        card.env({std::string("VRAMBENCH_NVML_LIBRARY=") + NVML_STANDIN_PATH, "NVML_STANDIN_REASONS=1"})); // idle only
    EXPECT_EQ(calm.exit_code, 0) << calm.err;

    const ProcessResult report = vrambench({"report", set.string(), "-o", page.string()});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const std::string html = telemetry_slurp(page);
    EXPECT_TRUE(contains(html, "Busy time is not bytes")) << "no utilisation note";
    EXPECT_TRUE(contains(html, "power-cap"));
    EXPECT_TRUE(contains(html, "\"97%\""));
    fs::remove(set);
    fs::remove(page);
}

TEST(TelemetryCli, HostResultsCarryTelemetryFromProcAndCpufreqOrSayWhichIsMissing)
{
    const ProcessResult run = vrambench(
        {"run", "--backend", "host", "--probe", "bandwidth.stream", "--size", "4M", "--reps", "3", "--format", "json"});
    if (contains(run.err, "no backend") || contains(run.err, "unknown backend")) GTEST_SKIP() << run.err;
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json document = json::parse(run.out);
    EXPECT_EQ(document["devices"][0]["unknown"]["link"], "a CPU is not a PCI device, so it has no PCIe link");
    ASSERT_FALSE(document["results"].empty());
    for (const auto &r : document["results"]) {
        const json &t = r["telemetry"];
        EXPECT_EQ(t["source"], "host-proc") << r.dump();
        for (const char *figure : {"busy_percent", "core_clock_mhz"})
            EXPECT_TRUE(t["figures"][figure].is_object() || t["unavailable"][figure].is_string())
                << figure << " " << t.dump();
        EXPECT_TRUE(t["unavailable"]["memory_busy_percent"].is_string());
    }
}

namespace {

// The multi mock's three cards at 0000:10-12:00.0 as the NVML stand-in's H200 pair and
// PCIe-only third card.
std::vector<std::string> nvlink_env(const FakeSystemTree &tree)
{
    return {tree.env(), std::string("VRAMBENCH_NVML_LIBRARY=") + NVML_STANDIN_PATH, "NVML_STANDIN_NVLINK=pair",
            "VRAMBENCH_TELEMETRY=off"};
}

} // namespace

TEST(FabricCli, InfoListAndJsonShowTheH200PairsNvlinkAndSayThePcieOnlyCardHasNone)
{
    FakeSystemTree tree;
    const auto env = nvlink_env(tree);
    const ProcessResult info = vrambench({"info", "multi:0", "--plugin", MOCK_MULTI_PATH}, env);
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "fabric                 18 NVLink links of version 4 to 0000:11:00.0 (450.0 GB/s "
                                   "per direction)"))
        << info.out;
    const ProcessResult alone = vrambench({"info", "multi:2", "--plugin", MOCK_MULTI_PATH}, env);
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    EXPECT_TRUE(contains(alone.out, "fabric                 none: NVLink not available: nvml: "
                                    "nvmlDeviceGetNvLinkState failed: Not Supported (3); xGMI not available"))
        << alone.out;
    const ProcessResult as_json = vrambench({"info", "multi:1", "--plugin", MOCK_MULTI_PATH, "--format", "json"}, env);
    ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
    const json device = json::parse(as_json.out);
    EXPECT_EQ(device["fabric"]["kind"], "nvlink");
    EXPECT_EQ(device["fabric"]["peers"][0]["address"], "0000:10:00.0");
    EXPECT_EQ(device["fabric"]["peers"][0]["links"], 18);
    EXPECT_EQ(device["fabric"]["rate_gb_per_s"], 450.0);
    const ProcessResult list = vrambench({"list", "--plugin", MOCK_MULTI_PATH}, env);
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_TRUE(contains(list.out, "fabric 18 NVLink links of version 4 to 0000:10:00.0")) << list.out;
    EXPECT_TRUE(contains(list.out, "fabric none: NVLink not available")) << list.out;
}

TEST(FabricCli, PeerCopiesSayWhetherTheyCrossedNvlinkAndTheReportSetsThemAgainstItsRate)
{
    FakeSystemTree tree;
    const fs::path set = telemetry_temp_file("peer.json"), page = telemetry_temp_file("peer.html");
    const ProcessResult run =
        vrambench({"run", "--plugin", MOCK_MULTI_PATH, "--backend", "multi", "--probe", "bandwidth.peer", "--suite",
                   "quick", "--size", "256K", "--reps", "2", "--format", "json", "-o", set.string()},
                  nvlink_env(tree));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json document = json::parse(telemetry_slurp(set));
    EXPECT_FALSE(vrb::validate_result_json(document)) << vrb::validate_result_json(document)->message;
    int shared = 0, apart = 0;
    for (const auto &r : document["results"]) {
        if (r["probe"] != "bandwidth.peer") continue;
        const std::string pair = r["parameters"]["pair"];
        if (pair == "multi:0->multi:1" || pair == "multi:1->multi:0") {
            ++shared;
            EXPECT_EQ(r["fabric"]["shared"], true) << r.dump();
            EXPECT_EQ(r["fabric"]["rate_gb_per_s"], 450.0);
            ASSERT_TRUE(r["fabric_efficiency"].is_number()) << r.dump();
            const double ceiling = 450.0 * (r["parameters"]["both_directions"].get<bool>() ? 2 : 1);
            EXPECT_NEAR(r["fabric_efficiency"].get<double>(), r["value"].get<double>() / ceiling, 1e-9);
        } else if (pair.rfind("multi:2", 0) == 0) {
            EXPECT_FALSE(r.contains("fabric")) << r.dump(); // the PCIe-only card records no fabric
        } else {
            ++apart;
            EXPECT_EQ(r["fabric"]["shared"], false) << r.dump();
            EXPECT_FALSE(r.contains("fabric_efficiency"));
        }
    }
    EXPECT_EQ(shared, 4); // each way, one way and both ways at once
    EXPECT_EQ(apart, 4);
    const ProcessResult report = vrambench({"report", set.string(), "-o", page.string()});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const std::string html = telemetry_slurp(page);
    EXPECT_TRUE(contains(html, "18 NVLink links of version 4 between 0000:10:00.0 and 0000:11:00.0")) << "no peer row";
    EXPECT_TRUE(contains(html, "GPU-to-GPU fabric: 18 NVLink links of version 4 to 0000:11:00.0"));
    EXPECT_TRUE(contains(html, "GPU-to-GPU fabric: none (NVLink not available"));
    fs::remove(set);
    fs::remove(page);
}

TEST(FabricCli, InfoShowsAnXgmiHiveFromAmdgpusSysfs)
{
    FakeSystemTree tree;
    const std::string cards[] = {"0000:10:00.0", "0000:11:00.0"};
    for (const auto &address : cards)
        tree.pci_card(address, "16.0 GT/s PCIe", 16, "16.0 GT/s PCIe", 16);
    for (int i = 0; i < 2; ++i) {
        const std::string folder = "/sys/devices/pci0000:00/0000:00:01.0/" + cards[i];
        tree.write(folder + "/xgmi_device_id", std::to_string(700 + i) + "\n");
        tree.write(folder + "/xgmi_hive_info/xgmi_hive_id", "4102592452382432\n");
        for (int n = 0; n < 2; ++n)
            fs::create_directory_symlink(
                "../../" + cards[n], tree.root() / (folder.substr(1) + "/xgmi_hive_info/node" + std::to_string(n + 1)));
    }
    const ProcessResult info =
        vrambench({"info", "multi:0", "--plugin", MOCK_MULTI_PATH},
                  {tree.env(), "VRAMBENCH_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1", "VRAMBENCH_TELEMETRY=off"});
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "fabric                 xGMI hive 4102592452382432 with 0000:11:00.0 (rate unknown"))
        << info.out;
}
