// Telemetry during a measurement: the host from /proc/stat and cpufreq, an AMD card from
// amdgpu's sysfs, an NVIDIA card from NVML (a stand-in library opened the way the real
// one is), summarized per result with what could not be read and why.
#include "../fake_system_tree.hpp"
#include "described_device.hpp"

#include <vrambench/core/card/sampler.hpp>

#include <gtest/gtest.h>

#include <thread>

using namespace vrb;
using vrb::test::FakeSystemTree;
using vrb::test::ScopedEnv;

namespace {

double telemetry_median(const nlohmann::json &telemetry, const char *figure)
{
    return telemetry["figures"][figure]["median"].get<double>();
}

} // namespace

TEST(Telemetry, TheHostGivesBusyTimeFromProcStatAndItsClockFromCpufreq)
{
    FakeSystemTree tree;
    tree.write("/proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n");
    tree.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "3000000\n");
    tree.write("/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2000000\n");
    tree.write("/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "9\n"); // not a core
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    auto host = host_telemetry_source();
    EXPECT_EQ(host->name(), "host-proc");
    // Between two samples 300 of 400 ticks were busy.
    tree.write("/proc/stat", "cpu  250 0 250 900 0 0 0 0 0 0\n");
    const TelemetrySample s = host->sample();
    EXPECT_DOUBLE_EQ(s.figures.at("busy_percent"), 75.0);
    EXPECT_DOUBLE_EQ(s.figures.at("core_clock_mhz"), 2500.0);
    EXPECT_FALSE(s.throttle_reasons);
    const nlohmann::json t = summarize_telemetry({s}, host->name(), host->unavailable(), "timed-runs");
    EXPECT_EQ(t["source"], "host-proc");
    EXPECT_EQ(t["samples"], 1);
    EXPECT_TRUE(t["figures"]["power_w"].is_null());
    EXPECT_EQ(t["unavailable"]["memory_busy_percent"],
              "the host has no memory-controller busy counter in /proc or cpufreq");
    EXPECT_EQ(t["unavailable"]["throttle_reasons"], "cpufreq reports no throttle reasons");
    EXPECT_FALSE(t["unavailable"].contains("busy_percent"));
}

TEST(Telemetry, AHostWithoutCpufreqOrProcStatSaysWhichFileIsMissing)
{
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    auto host = host_telemetry_source();
    const TelemetrySample s = host->sample();
    EXPECT_TRUE(s.figures.empty());
    const nlohmann::json t = summarize_telemetry({s}, host->name(), host->unavailable(), "timed-runs");
    EXPECT_NE(t["unavailable"]["busy_percent"].get<std::string>().find("no such file"), std::string::npos);
    EXPECT_NE(t["unavailable"]["busy_percent"].get<std::string>().find("proc/stat"), std::string::npos);
    EXPECT_NE(t["unavailable"]["core_clock_mhz"].get<std::string>().find("scaling_cur_freq"), std::string::npos);
}

TEST(Telemetry, GarbageInTheHostsFilesIsNotAvailableWithWhatItHeld)
{
    FakeSystemTree tree;
    tree.write("/proc/stat", "intr 1 2 3\n");
    tree.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "fast\n");
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    auto host = host_telemetry_source();
    const TelemetrySample s = host->sample();
    EXPECT_TRUE(s.figures.empty());
    EXPECT_NE(host->unavailable().at("busy_percent").find("does not start with a 'cpu' line"), std::string::npos);
    EXPECT_NE(host->unavailable().at("core_clock_mhz").find("holds 'fast', not a number"), std::string::npos);
}

TEST(Telemetry, AnAmdgpuCardGivesBusyTimeClocksPowerAndTemperature)
{
    FakeSystemTree tree;
    const std::string folder = tree.pci_card("0000:c1:00.0", "32.0 GT/s PCIe", 16, "32.0 GT/s PCIe", 16);
    tree.write(folder + "/gpu_busy_percent", "99\n");
    tree.write(folder + "/mem_busy_percent", "7\n");
    tree.write(folder + "/pp_dpm_sclk", "0: 500Mhz\n1: 2100Mhz *\n");
    tree.write(folder + "/pp_dpm_mclk", "0: 96Mhz\n1: 1300Mhz *\n");
    tree.write(folder + "/hwmon/hwmon3/power1_average", "550000000\n");
    tree.write(folder + "/hwmon/hwmon3/power1_cap", "750000000\n");
    tree.write(folder + "/hwmon/hwmon3/temp1_input", "71000\n");
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const OpenedSource opened = open_telemetry_source(test::card_at_pci_address("0000:c1:00.0"));
    ASSERT_TRUE(opened.source) << opened.why_none;
    EXPECT_EQ(opened.source->name(), "amdgpu-sysfs");
    const TelemetrySample s = opened.source->sample();
    EXPECT_DOUBLE_EQ(s.figures.at("busy_percent"), 99);
    EXPECT_DOUBLE_EQ(s.figures.at("memory_busy_percent"), 7);
    EXPECT_DOUBLE_EQ(s.figures.at("core_clock_mhz"), 2100);
    EXPECT_DOUBLE_EQ(s.figures.at("memory_clock_mhz"), 1300);
    EXPECT_DOUBLE_EQ(s.figures.at("power_w"), 550);
    EXPECT_DOUBLE_EQ(s.figures.at("power_limit_w"), 750);
    EXPECT_NEAR(s.figures.at("power_of_limit"), 550.0 / 750, 1e-12);
    EXPECT_DOUBLE_EQ(s.figures.at("temperature_c"), 71);
    EXPECT_NE(opened.source->unavailable().at("throttle_reasons").find("gpu_metrics"), std::string::npos);
}

TEST(Telemetry, AnAmdgpuFileHoldingGarbageIsNotAvailableWithTheReason)
{
    FakeSystemTree tree;
    const std::string folder = tree.pci_card("0000:c1:00.0", "32.0 GT/s PCIe", 16, "32.0 GT/s PCIe", 16);
    tree.write(folder + "/gpu_busy_percent", "busy\n");
    tree.write(folder + "/pp_dpm_sclk", "0: 500Mhz\n1: 2100Mhz\n"); // no active level
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    std::string why;
    auto amd = amdgpu_telemetry_source("0000:c1:00.0", why);
    ASSERT_TRUE(amd) << why;
    const TelemetrySample s = amd->sample();
    EXPECT_FALSE(s.figures.contains("busy_percent"));
    EXPECT_NE(amd->unavailable().at("busy_percent").find("holds 'busy', not a number"), std::string::npos);
    EXPECT_NE(amd->unavailable().at("core_clock_mhz").find("no active level"), std::string::npos);
    EXPECT_NE(amd->unavailable().at("memory_clock_mhz").find("no such file"), std::string::npos);
    EXPECT_NE(amd->unavailable().at("power_w").find("no hwmon folder"), std::string::npos);
}

TEST(Telemetry, TheSummaryGivesMinMedianAndMaxOfEachFigure)
{
    std::vector<TelemetrySample> samples(4);
    const double busy[] = {10, 90, 40, 60};
    for (int i = 0; i < 4; ++i)
        samples[i].figures["busy_percent"] = busy[i];
    const nlohmann::json t = summarize_telemetry(samples, "nvml", {{"power_w", "nvml: not supported"}}, "timed-runs");
    EXPECT_EQ(t["figures"]["busy_percent"], (nlohmann::json{{"min", 10.0}, {"median", 50.0}, {"max", 90.0}}));
    EXPECT_EQ(t["samples"], 4);
    EXPECT_EQ(t["unavailable"]["power_w"], "nvml: not supported");
    EXPECT_EQ(t["unavailable"]["temperature_c"], "nvml did not report it");
    EXPECT_TRUE(t["throttle_reasons"].is_null());
    const nlohmann::json none = summarize_telemetry({}, "nvml", {}, "none");
    EXPECT_EQ(none["unavailable"]["busy_percent"], "no sample was taken");
}

TEST(Telemetry, PowerThermalAndSlowdownReasonsMarkAResultThrottledButIdleDoesNot)
{
    std::vector<TelemetrySample> samples(3);
    samples[0].throttle_reasons = std::vector<std::string>{"idle"};
    samples[1].throttle_reasons = std::vector<std::string>{"applications-clocks"};
    samples[2].throttle_reasons = std::vector<std::string>{};
    EXPECT_TRUE(throttled_json(samples).is_null());
    samples[2].throttle_reasons = std::vector<std::string>{"power-cap", "hw-thermal"};
    const nlohmann::json t = throttled_json(samples);
    EXPECT_EQ(t["reasons"], (nlohmann::json{"hw-thermal", "power-cap"}));
    EXPECT_EQ(t["samples"], 1);
    for (const char *reason : {"power-cap", "hw-slowdown", "sw-thermal", "hw-thermal", "hw-power-brake"})
        EXPECT_TRUE(is_throttling_reason(reason)) << reason;
    EXPECT_FALSE(is_throttling_reason("sync-boost"));
    const nlohmann::json set = {{"results", {{{"throttled", t}}, {{"throttled", nullptr}}, nlohmann::json::object()}}};
    EXPECT_EQ(throttled_results(set), 1u);
}

TEST(Telemetry, TimedRunsAtAQuarterBelowTheRunsPeakClockAreMarkedClockedDown)
{
    // As an H200 under Vulkan showed: 1980 MHz early in the run, 690 MHz later.
    auto at = [](double mhz) {
        TelemetrySample s;
        s.figures["core_clock_mhz"] = mhz;
        s.throttle_reasons = std::vector<std::string>{"idle"};
        s.during_timed_runs = true;
        return s;
    };
    const std::vector<TelemetrySample> low{at(690), at(690), at(1980)}, near{at(1500), at(1600)};
    const nlohmann::json down = with_clocked_down(nullptr, low, 1980);
    ASSERT_TRUE(down.is_object());
    EXPECT_EQ(down["reasons"], nlohmann::json{"clocked-down"});
    EXPECT_EQ(down["samples"], 2);
    EXPECT_NE(down["detail"].get<std::string>().find("690 MHz"), std::string::npos) << down["detail"];
    EXPECT_TRUE(with_clocked_down(nullptr, near, 1980).is_null()); // 1550 is above 0.75 x 1980
    EXPECT_TRUE(with_clocked_down(nullptr, low, 0).is_null());     // no peak known yet
    EXPECT_TRUE(with_clocked_down(nullptr, {}, 1980).is_null());   // no sample inside the runs
    // Merged with a power cap seen in the same samples, both reasons stay.
    std::vector<TelemetrySample> capped = low;
    capped[0].throttle_reasons = std::vector<std::string>{"power-cap"};
    const nlohmann::json both = with_clocked_down(throttled_json(capped), capped, 1980);
    EXPECT_EQ(both["reasons"], (nlohmann::json{"power-cap", "clocked-down"}));
    EXPECT_EQ(throttled_results({{"results", {{{"throttled", down}}}}}), 1u);
}

TEST(Nvml, TheStandinsFiguresReachTheSourceByPciAddress)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv address("NVML_STANDIN_ADDRESS", "0000:10:00.0");
    const ScopedEnv reasons("NVML_STANDIN_REASONS", "5"); // idle and power cap
    std::string why;
    auto nvml = nvml_telemetry_source("0000:10:00.0", why);
    ASSERT_TRUE(nvml) << why;
    const TelemetrySample s = nvml->sample();
    EXPECT_DOUBLE_EQ(s.figures.at("core_clock_mhz"), 1980);
    EXPECT_DOUBLE_EQ(s.figures.at("memory_clock_mhz"), 2619);
    EXPECT_DOUBLE_EQ(s.figures.at("power_w"), 450);
    EXPECT_DOUBLE_EQ(s.figures.at("power_limit_w"), 700);
    EXPECT_DOUBLE_EQ(s.figures.at("temperature_c"), 62);
    EXPECT_DOUBLE_EQ(s.figures.at("busy_percent"), 97);
    EXPECT_DOUBLE_EQ(s.figures.at("memory_busy_percent"), 41);
    EXPECT_EQ(*s.throttle_reasons, (std::vector<std::string>{"idle", "power-cap"}));
    EXPECT_EQ(link_text(s.link), "x16 Gen5");
}

TEST(Nvml, FailingFunctionsAreNotAvailableInNvmlsOwnWords)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv fail("NVML_STANDIN_FAIL", "nvmlDeviceGetPowerUsage,nvmlDeviceGetUtilizationRates");
    std::string why;
    auto nvml = nvml_telemetry_source("0000:10:00.0", why);
    ASSERT_TRUE(nvml) << why;
    const TelemetrySample s = nvml->sample();
    EXPECT_FALSE(s.figures.contains("power_w"));
    EXPECT_FALSE(s.figures.contains("busy_percent"));
    EXPECT_DOUBLE_EQ(s.figures.at("power_limit_w"), 700);
    EXPECT_EQ(nvml->unavailable().at("power_w"), "nvml: nvmlDeviceGetPowerUsage failed: Not Supported (3)");
    EXPECT_EQ(nvml->unavailable().at("memory_busy_percent"),
              "nvml: nvmlDeviceGetUtilizationRates failed: Not Supported (3)");
    EXPECT_EQ(nvml->unavailable().at("power_of_limit"), "needs both power and its limit");
}

TEST(Nvml, AnAddressNvmlDoesNotKnowOrAFailedInitGivesNoSourceWithTheReason)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    std::string why;
    EXPECT_FALSE(nvml_telemetry_source("0000:77:00.0", why));
    EXPECT_EQ(why, "nvml: no NVIDIA device at 0000:77:00.0: Not Found (6)");
    const ScopedEnv init("NVML_STANDIN_INIT", "fail");
    EXPECT_FALSE(nvml_telemetry_source("0000:10:00.0", why));
    EXPECT_EQ(why, "nvml: nvmlInit_v2 failed: Driver Not Loaded (9)");
}

TEST(Nvml, AMissingLibraryGivesNoSourceAndSaysWhichFile)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const OpenedSource opened = open_telemetry_source(test::card_at_pci_address("0000:10:00.0"));
    EXPECT_FALSE(opened.source);
    EXPECT_NE(opened.why_none.find("nvml: cannot open /nonexistent/libnvidia-ml.so.1"), std::string::npos)
        << opened.why_none;
    EXPECT_NE(opened.why_none.find("not driven by amdgpu"), std::string::npos) << opened.why_none;
}

TEST(CardWatch, ResultsCarryTheStandinsTelemetryAndItsThrottleReasons)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", NVML_STANDIN_PATH);
    const ScopedEnv reasons("NVML_STANDIN_REASONS", "40"); // hardware thermal slowdown
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    CardWatch watch(test::card_at_pci_address("0000:10:00.0"));
    ProbeResult r;
    r.probe = "bandwidth.stream";
    {
        const TimedRuns runs;
        std::this_thread::sleep_for(std::chrono::milliseconds(80));
    }
    watch.annotate(r);
    ASSERT_TRUE(r.telemetry.is_object());
    EXPECT_EQ(r.telemetry["source"], "nvml");
    EXPECT_EQ(r.telemetry["window"], "timed-runs");
    EXPECT_GE(r.telemetry["samples"].get<int>(), 2);
    EXPECT_DOUBLE_EQ(telemetry_median(r.telemetry, "busy_percent"), 97);
    EXPECT_NEAR(telemetry_median(r.telemetry, "power_of_limit"), 450.0 / 700, 1e-12);
    EXPECT_EQ(r.throttled["reasons"], (nlohmann::json{"hw-thermal"}));
    // NVML's utilisation and power are its own averages over a longer window: marked.
    EXPECT_NE(r.telemetry["averaged"]["busy_percent"].get<std::string>().find("1/6 s to 1 s"), std::string::npos);
    EXPECT_NE(r.telemetry["averaged"]["power_w"].get<std::string>().find("averaged over 1 s"), std::string::npos);
    EXPECT_FALSE(r.telemetry["averaged"].contains("core_clock_mhz"));
    const nlohmann::json j = to_json(r);
    EXPECT_EQ(j["throttled"]["reasons"], (nlohmann::json{"hw-thermal"}));
    EXPECT_EQ(result_from_json(j).telemetry, r.telemetry);
}

TEST(CardWatch, ACardWithoutASourceSaysWhyOnEachResult)
{
    const ScopedEnv library("VRAMBENCH_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    FakeSystemTree tree;
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    CardWatch watch(test::card_at_pci_address("0000:10:00.0"));
    ProbeResult r;
    r.probe = "bandwidth.stream";
    watch.annotate(r);
    EXPECT_EQ(r.telemetry["source"], "none");
    EXPECT_NE(r.telemetry["unavailable"]["all"].get<std::string>().find("cannot open"), std::string::npos);
    EXPECT_TRUE(r.throttled.is_null());
}

TEST(CardWatch, TelemetryOffSamplesNothingAndSaysSo)
{
    const ScopedEnv off("VRAMBENCH_TELEMETRY", "off");
    test::Description d;
    d.type = VRB_DEVICE_CPU;
    CardWatch watch(test::describe(d));
    ProbeResult r;
    watch.annotate(r);
    EXPECT_EQ(r.telemetry["unavailable"]["all"], "VRAMBENCH_TELEMETRY=off: no sampling");
}

TEST(CardWatch, AResultNoSampleFellInsideSaysSoRatherThanBorrowTheSamplesAroundIt)
{
    FakeSystemTree tree;
    tree.write("/proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\n");
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    test::Description d;
    d.type = VRB_DEVICE_CPU;
    CardWatch watch(test::describe(d));
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    ProbeResult r;
    watch.annotate(r);
    EXPECT_EQ(r.telemetry["source"], "host-proc");
    EXPECT_EQ(r.telemetry["window"], "none");
    EXPECT_EQ(r.telemetry["samples"], 0);
    EXPECT_TRUE(r.telemetry["figures"]["busy_percent"].is_null()) << r.telemetry.dump();
    EXPECT_TRUE(r.telemetry["throttle_reasons"].is_null());
    EXPECT_NE(
        r.telemetry["unavailable"]["busy_percent"].get<std::string>().find("no sample fell inside the timed runs"),
        std::string::npos)
        << r.telemetry.dump();
    std::this_thread::sleep_for(std::chrono::milliseconds(60)); // outside: left out below
    {
        const TimedRuns runs;
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    ProbeResult inside;
    watch.annotate(inside);
    EXPECT_EQ(inside.telemetry["window"], "timed-runs");
}

TEST(CardWatch, OnlyWhereTheSmsDoTheWorkIsALowClockHeldAgainstAFigure)
{
    EXPECT_TRUE(sms_do_the_work("bandwidth.stream"));
    EXPECT_TRUE(sms_do_the_work("latency.chase"));
    EXPECT_FALSE(sms_do_the_work("bandwidth.transfer")) << "a copy engine moves a transfer's bytes";
    EXPECT_FALSE(sms_do_the_work("bandwidth.peer"));
}
