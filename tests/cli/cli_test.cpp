// The vrambench executable end to end: what a user types, what comes back, and the
// exit code; bad input gets one clear line on stderr and leaves no partial file.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>
#include <vrambench/pattern.h>
#include <vrambench/plugin.h>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace {

std::size_t lines(const std::string &text)
{
    return std::count(text.begin(), text.end(), '\n');
}

std::filesystem::path temp_dir()
{
    auto dir = std::filesystem::temp_directory_path() / ("vrb-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

// A quick run small enough for any CI machine.
const std::vector<std::string> small_run{"run",    "--backend", "host",    "--suite",         "quick",
                                         "--size", "4M",        "--probe", "bandwidth.stream"};

void expect_usage_error(const ProcessResult &r, const std::string &needle)
{
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

} // namespace

TEST(Cli, ListsTheHostBackendAndItsDevice)
{
    const auto r = vrambench({"list"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("host:0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("      card "), std::string::npos) << "every device shows its card key\n" << r.out;
}

TEST(Cli, InteropProbesShareMemoryVulkanToVulkanAndHostToVulkanAndValidate)
{
    const auto listed = vrambench({"list"});
    if (listed.out.find("vulkan ") == std::string::npos || listed.out.find("vulkan:0") == std::string::npos)
        GTEST_SKIP() << "no Vulkan device here\n" << listed.out;
    const auto file = temp_dir() / "interop.json";
    const auto r = vrambench(
        {"run", "--backend", "vulkan", "--suite", "quick", "--size", "1M", "--probe", "interop.*", "-o", file.string()},
        {"VRAMBENCH_VULKAN_VALIDATION=1"});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto doc = vrb::read_result_file(file);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    std::set<std::string> verified;
    bool sync_skipped = false;
    for (const auto &result : doc["results"]) {
        const std::string probe = result["probe"];
        if (probe == "interop.handoff" && result["verification"]["status"] == "passed")
            verified.insert(result["parameters"]["pair"].get<std::string>());
        // lavapipe offers no exportable timeline semaphore (docs/interop.md).
        if (probe == "interop.sync")
            sync_skipped =
                result["status"] == "skipped" &&
                result["error"].get<std::string>().find("cannot share a timeline semaphore") != std::string::npos;
    }
    EXPECT_TRUE(verified.count("vulkan->vulkan")) << doc["results"].dump(1);
    EXPECT_TRUE(verified.count("host->vulkan")) << doc["results"].dump(1);
    EXPECT_TRUE(sync_skipped);
}

TEST(Cli, InteropSyncTimesSemaphoreRoundTripsBetweenTwoModulesInTheirWorkerAndValidates)
{
    const auto file = temp_dir() / "sync.json";
    const auto r =
        vrambench({"run", "--plugin", MOCK_SEMA_PATH, "--plugin", MOCK_SEMB_PATH, "--backend", "sema", "--device",
                   "sema:0", "--suite", "quick", "--probe", "interop.sync", "-o", file.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto doc = vrb::read_result_file(file);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    std::set<std::string> timed;
    for (const auto &result : doc["results"])
        if (result["probe"] == "interop.sync" && result["verification"]["status"] == "passed" &&
            result["value"].get<double>() > 0)
            timed.insert(result["parameters"]["pair"].get<std::string>());
    EXPECT_EQ(timed, (std::set<std::string>{"sema->sema", "semb->sema"})) << doc["results"].dump(1);
}

TEST(Cli, ListsAnUnavailableBackendWithWhyAndStillSucceeds)
{
    const auto r = vrambench({"list", "--plugin", MOCK_UNAVAILABLE_PATH});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("mock     unavailable: mock driver is not installed"), std::string::npos) << r.out;
}

TEST(Cli, ListsTheBackendTemplateOnlyWhenItsModuleIsNamed)
{
    const auto named = vrambench({"list", "--plugin", VRAMBENCH_TEMPLATE_MODULE});
    EXPECT_EQ(named.exit_code, 0) << named.err;
    EXPECT_NE(named.out.find("template:0"), std::string::npos) << named.out;
    const auto plain = vrambench({"list"});
    EXPECT_EQ(plain.out.find("template"), std::string::npos) << plain.out;
}

TEST(Cli, ListsAModuleOfAnotherAbiAsFailedNamingBothVersions)
{
    const auto r = vrambench({"list", "--plugin", MOCK_WRONG_MAJOR_PATH});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string both = "module speaks 2.0, this vrambench speaks " + std::to_string(VRB_ABI_VERSION_MAJOR) + "." +
                             std::to_string(VRB_ABI_VERSION_MINOR);
    EXPECT_NE(r.out.find(both), std::string::npos) << r.out;
}

TEST(Cli, DescribesOneDeviceInFull)
{
    const auto r = vrambench({"info", "host:0"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("memory kind 0"), std::string::npos) << r.out;
    const auto j = vrambench({"info", "host:0", "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(j.out)["id"], "host:0");
}

TEST(Cli, AQuickRunWritesAResultSetThatValidates)
{
    const auto file = temp_dir() / "quick.json";
    auto args = small_run;
    args.insert(args.end(), {"-o", file.string()});
    const auto r = vrambench(args);
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("triad"), std::string::npos) << r.out;
    const auto doc = vrb::read_result_file(file);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    ASSERT_EQ(doc["results"].size(), 7u);
    for (const auto &result : doc["results"]) {
        EXPECT_EQ(result["verification"]["status"], "passed") << result.dump();
        EXPECT_GT(result["value"].get<double>(), 0);
        EXPECT_EQ(result["samples"].size(), result["seconds"].size());
        // What the estimate counted for each point's warm-up, so the run's work can be
        // estimated again as it ran: none on a CPU.
        EXPECT_EQ(result["extra"]["wall_time"]["warm_seconds_per_point"], 0.0) << result["extra"].dump();
    }
    const auto v = vrambench({"validate", file.string()});
    EXPECT_EQ(v.exit_code, 0) << v.err;
}

TEST(Cli, AResultSetNamesTheCommitTheBinaryWasBuiltFrom)
{
    const auto head =
        run_process({"/usr/bin/env", "git", "-C", VRAMBENCH_SOURCE_DIR, "rev-parse", "--short=12", "HEAD"});
    if (head.exit_code != 0 || head.out.size() < 12) GTEST_SKIP() << "the sources are not a git checkout";
    const auto file = temp_dir() / "commit.json";
    auto args = small_run;
    args.insert(args.end(), {"-o", file.string()});
    ASSERT_EQ(vrambench(args).exit_code, 0);
    const std::string commit = vrb::read_result_file(file)["tool"]["git_commit"];
    // The build looks the commit up each time it runs, so it is HEAD's ("-dirty" when
    // tracked files were changed), never the one configure happened to see.
    EXPECT_EQ(commit.substr(0, 12), head.out.substr(0, 12)) << commit;
}

TEST(Cli, AResultSetNamesThePatternVersionItsBuffersAndChecksumsFollowed)
{
    const auto file = temp_dir() / "pattern.json";
    auto args = small_run;
    args.insert(args.end(), {"-o", file.string()});
    ASSERT_EQ(vrambench(args).exit_code, 0);
    EXPECT_EQ(vrb::read_result_file(file)["tool"]["pattern_version"], VRB_PATTERN_VERSION);
}

TEST(Cli, JsonFormatPutsOnlyJsonOnStdout)
{
    auto args = small_run;
    args.insert(args.end(), {"--format", "json", "--probe", "bandwidth.*"});
    const auto r = vrambench(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out); // throws on anything but JSON
    EXPECT_FALSE(vrb::validate_result_json(doc));
}

TEST(Cli, CsvFormatHasAHeaderAndOneRowPerResult)
{
    auto args = small_run;
    args.insert(args.end(), {"--format", "csv"});
    const auto r = vrambench(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("row,probe,backend,device", 0), 0u);
    EXPECT_EQ(lines(r.out), 8u) << r.out;
}

TEST(Cli, RefusesAnUnknownFlag)
{
    const auto r = vrambench({"run", "--frobnicate"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

TEST(Cli, RefusesBadSizes)
{
    expect_usage_error(vrambench({"run", "--size", "0"}), "'0'");
    expect_usage_error(vrambench({"run", "--size=-1"}), "'-1'");
    expect_usage_error(vrambench({"run", "--size", "1e30"}), "'1e30'");
    expect_usage_error(vrambench({"run", "--size", "abc"}), "'abc'");
}

TEST(Cli, RefusesAnUnknownBackendNamingTheOnesFound)
{
    const auto r = vrambench({"run", "--backend", "nosuch"});
    expect_usage_error(r, "unknown backend 'nosuch' (found: ");
    EXPECT_NE(r.err.find("host"), std::string::npos) << r.err;
}

TEST(Cli, AnUnknownBackendSaysWhereBackendsAreLookedFor)
{
    for (const auto &args :
         {std::vector<std::string>{"run", "--backend", "acme"}, std::vector<std::string>{"info", "acme:0"}}) {
        const auto r = vrambench(args);
        expect_usage_error(r, "unknown backend 'acme'");
        for (const char *where :
             {"next to the vrambench executable", "../lib/vrambench", "VRAMBENCH_PLUGIN_PATH", "--plugin FILE"})
            EXPECT_NE(r.err.find(where), std::string::npos) << where << "\n" << r.err;
    }
}

TEST(Cli, ListHelpGivesTheSearchOrderOfModules)
{
    const auto r = vrambench({"list", "--help"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto plugin = r.out.find("--plugin"), exe = r.out.find("the folder of the vrambench executable"),
               lib = r.out.find("../lib/vrambench"), env = r.out.find("VRAMBENCH_PLUGIN_PATH");
    ASSERT_NE(env, std::string::npos) << r.out;
    EXPECT_LT(plugin, exe) << r.out;
    EXPECT_LT(exe, lib) << r.out;
    EXPECT_LT(lib, env) << r.out;
}

TEST(Cli, APluginPathEntryThatIsAFileOrMissingIsWarnedAboutAndTheRestStillLoads)
{
    const auto dir = temp_dir() / "plugins";
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(MOCK_UNAVAILABLE_PATH, dir / "vrambench-mock.so",
                               std::filesystem::copy_options::overwrite_existing);
    const std::string path = std::string(MOCK_UNAVAILABLE_PATH) + ":" + (dir / "missing").string() + ":" + dir.string();
    const auto r = vrambench({"list"}, {"VRAMBENCH_PLUGIN_PATH=" + path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(std::string("warning: VRAMBENCH_PLUGIN_PATH entry '") + MOCK_UNAVAILABLE_PATH +
                         "' is a file, not a folder"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("entry '" + (dir / "missing").string() + "' does not exist"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("mock"), std::string::npos) << r.out; // the folder entry still counts
    EXPECT_NE(r.out.find("host:0"), std::string::npos) << r.out;
    std::filesystem::remove_all(dir);
}

TEST(Cli, RefusesADeviceIndexOutOfRange)
{
    expect_usage_error(vrambench({"run", "--device", "host:7"}), "device host:7 does not exist");
    expect_usage_error(vrambench({"info", "host"}), "backend:index");
}

TEST(Cli, RefusesAProbePatternThatMatchesNothing)
{
    expect_usage_error(vrambench({"run", "--probe", "nosuch.*"}), "no probe matches 'nosuch.*'");
}

TEST(Cli, RefusesAnOutputIntoAMissingFolderBeforeMeasuring)
{
    const auto file = temp_dir() / "missing" / "r.json";
    auto args = small_run;
    args.insert(args.end(), {"-o", file.string()});
    expect_usage_error(vrambench(args), "does not exist");
    EXPECT_FALSE(std::filesystem::exists(file.parent_path()));
}

TEST(Cli, RunningAnUnavailableBackendIsARunFailure)
{
    const auto r = vrambench({"run", "--plugin", MOCK_UNAVAILABLE_PATH, "--backend", "mock"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("mock driver is not installed"), std::string::npos) << r.err;
}

TEST(Cli, ValidateRefusesATruncatedFileAndLeavesItAlone)
{
    const auto file = temp_dir() / "truncated.json";
    const std::string text = "{\"schema_version\": 1, \"tool\": {\"name\": ";
    std::ofstream(file) << text;
    const auto r = vrambench({"validate", file.string()});
    expect_usage_error(r, "not valid JSON");
    EXPECT_EQ(std::filesystem::file_size(file), text.size());
}

TEST(Cli, ValidateNamesThePathOfASchemaViolation)
{
    const auto file = temp_dir() / "violation.json";
    std::ofstream(file) << R"({"schema_version": 1, "tool": {"name": "vrambench", "version": "1", "git_commit": "x"},
        "run": {}, "host": {}, "backends": [], "devices": [], "results": []})";
    expect_usage_error(vrambench({"validate", file.string()}), "at $.host: Missing required property 'cpu'");
}

TEST(Cli, ValidateRefusesAFileThatIsNotThere)
{
    expect_usage_error(vrambench({"validate", (temp_dir() / "absent.json").string()}), "cannot read");
}

TEST(Cli, IndexTabulatesEachResultSetAndListsACorruptOneAsRefused)
{
    const auto folder = temp_dir() / "published";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder / "host" / "schema");
    auto args = small_run;
    args.insert(args.end(), {"-o", (folder / "host" / "quick.json").string()});
    ASSERT_EQ(vrambench(args).exit_code, 0);
    const auto doc = vrb::read_result_file(folder / "host" / "quick.json");
    std::ofstream(folder / "truncated.json") << "{\"schema_version\": 1, \"tool\": ";
    std::ofstream(folder / "host" / "schema" / "ignored.json") << "not a result set";

    const auto index = folder / "INDEX.md";
    const auto r = vrambench({"index", folder.string(), "-o", index.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("truncated.json: not valid JSON"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("ignored.json"), std::string::npos) << r.err;
    std::ifstream in(index);
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string copy;
    for (const auto &result : doc["results"])
        if (result["parameters"]["operation"] == "copy")
            copy = fmt::format("| {:.1f} |", result["value"].get<double>());
    ASSERT_FALSE(copy.empty());
    const auto row = page.find("| host:0 |");
    ASSERT_NE(row, std::string::npos) << page;
    EXPECT_NE(page.find(copy, row), std::string::npos) << copy << " in\n" << page;
    EXPECT_NE(page.find("[host/quick.json](host/quick.json)"), std::string::npos) << page;
    EXPECT_NE(page.find("- `truncated.json`: not valid JSON"), std::string::npos) << page;
}

TEST(Cli, IndexRefusesAFolderThatIsNotThere)
{
    expect_usage_error(vrambench({"index", (temp_dir() / "absent").string()}), "not a folder of result sets");
}

TEST(Cli, PeakAppliesTheConventionItWasGiven)
{
    const auto clock = vrambench({"peak", "--memory-clock-mhz", "10501", "--bus-bits", "384"});
    EXPECT_EQ(clock.exit_code, 0) << clock.err;
    EXPECT_EQ(clock.out.rfind("1008.1 GB/s", 0), 0u) << clock.out;
    EXPECT_NE(clock.out.find("half the per-pin"), std::string::npos);
    const auto rate = vrambench({"peak", "--data-rate-gbps", "21", "--bus-bits", "384"});
    EXPECT_EQ(rate.out.rfind("1008.0 GB/s", 0), 0u) << rate.out;
    expect_usage_error(vrambench({"peak", "--bus-bits", "384"}), "exactly one of");
}

TEST(Cli, HelpDocumentsTheExitCodes)
{
    const auto r = vrambench({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("4 a result failed verification"), std::string::npos) << r.out;
}

TEST(Cli, PlanPrintsEveryProbesSizesAndAnEstimateWithoutMeasuring)
{
    const auto r = vrambench({"run", "--backend", "host", "--suite", "quick", "--plan"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char *want : {"host:0", "last-level cache:", "peak:", "bandwidth.sweep", "latency.chase",
                             "to_bytes=", "estimated duration of the run:"})
        EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST(Cli, PlanAsJsonGivesTheSameFiguresAsData)
{
    const auto r =
        vrambench({"run", "--backend", "host", "--suite", "quick", "--plan", "--format", "json", "--llc", "8M"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto plan = nlohmann::json::parse(r.out);
    ASSERT_EQ(plan["devices"].size(), 1u);
    const auto &device = plan["devices"][0];
    EXPECT_EQ(device["last_level_cache"]["source"], "option");
    EXPECT_EQ(device["last_level_cache"]["bytes"], 8u << 20);
    EXPECT_GT(plan["estimate_seconds"].get<double>(), 0);
    EXPECT_GE(device["probes"].size(), 7u);
}

TEST(Cli, APlanCostsTheInteropProbesForTheOtherBackendsTheRunWouldPairWith)
{
    const auto listed = vrambench({"list", "--format", "json"});
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    double others = 0;
    for (const auto &b : nlohmann::json::parse(listed.out))
        others += b["state"] == "available" && b["name"] != "host";
    const auto r = vrambench({"run", "--backend", "host", "--suite", "quick", "--plan", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto plan = nlohmann::json::parse(r.out);
    std::size_t seen = 0;
    for (const auto &p : plan["devices"][0]["probes"]) {
        if (!p["probe"].get<std::string>().starts_with("interop.")) continue;
        ++seen;
        EXPECT_EQ(p["sizes"]["pairs"].get<double>(), others) << p.dump();
        // What the run holds for its pairs is planned as the run will hold it.
        if (others > 0 && p["probe"] == "interop.bandwidth") EXPECT_GT(p["held_bytes"].get<uint64_t>(), 0u);
    }
    EXPECT_EQ(seen, 4u) << "handoff, bandwidth, import and sync";
}

TEST(Cli, RefusesABadLlcAndAPlanItCannotWrite)
{
    expect_usage_error(vrambench({"run", "--backend", "host", "--plan", "--llc", "lots"}), "lots");
    expect_usage_error(vrambench({"run", "--backend", "host", "--plan", "--format", "csv"}), "--plan");
    expect_usage_error(vrambench({"run", "--backend", "host", "--plan", "-o", "x.json"}), "--plan");
}

TEST(Cli, PeakReadsHipsHbm3ClockByItsConvention)
{
    const auto hbm3 = vrambench(
        {"peak", "--memory-clock-mhz", "1300", "--bus-bits", "8192", "--runtime", "HIP", "--memory-type", "HBM3"});
    ASSERT_EQ(hbm3.exit_code, 0) << hbm3.err;
    EXPECT_NE(hbm3.out.find("5324.8 GB/s"), std::string::npos) << hbm3.out;
    const auto cuda = vrambench({"peak", "--memory-clock-mhz", "3201", "--bus-bits", "6144"});
    EXPECT_NE(cuda.out.find("4916.7 GB/s"), std::string::npos) << cuda.out;
    expect_usage_error(vrambench({"peak", "--memory-clock-mhz", "1300", "--bus-bits", "8192", "--memory-type", "HBM9"}),
                       "HBM9");
}

TEST(Cli, IndexPrintsMemoryLatencyOnlyForAPlateauNamedMemory)
{
    const auto folder = temp_dir() / "chase-index";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    // A chase over 64 KiB never leaves the caches: its last plateau is no memory.
    const auto cached = folder / "cached.json";
    ASSERT_EQ(vrambench({"run", "--backend", "host", "--suite", "quick", "--probe", "latency.chase", "--size", "64K",
                         "-o", cached.string()})
                  .exit_code,
              0);
    auto doc = vrb::read_result_file(cached);
    auto &plateaus = doc["results"][0]["extra"]["curve"]["plateaus"];
    plateaus = nlohmann::json::array(
        {{{"name", "L2"}, {"value", 7.0}, {"from", 4096.0}, {"to", 65536.0}, {"ends_at", 65536.0}}});
    std::ofstream(cached) << doc.dump(2);
    const auto in_cache = vrambench({"index", folder.string()});
    ASSERT_EQ(in_cache.exit_code, 0) << in_cache.err;
    EXPECT_NE(in_cache.out.find("| not reached |"), std::string::npos) << in_cache.out;
    EXPECT_EQ(in_cache.out.find("7 ns"), std::string::npos) << in_cache.out;

    plateaus[0]["name"] = "memory";
    plateaus[0]["value"] = 640.0;
    std::ofstream(cached) << doc.dump(2);
    const auto in_memory = vrambench({"index", folder.string()});
    EXPECT_NE(in_memory.out.find("| 640 ns past 4 KiB |"), std::string::npos) << in_memory.out;
}

TEST(Cli, MaxSecondsListsTheProbesPastTheBudgetAsSkippedWithTheReason)
{
    // The first probe starts inside any budget; the later ones find it spent.
    const auto r = vrambench({"run", "--backend", "host", "--suite", "quick", "--size", "4M", "--probe",
                              "bandwidth.stream", "--probe", "pattern.stride", "--probe", "pattern.alignment",
                              "--max-seconds", "0.001", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    std::set<std::string> skipped, measured;
    for (const auto &result : doc["results"]) {
        if (result["status"] == "skipped") {
            skipped.insert(result["probe"].get<std::string>());
            EXPECT_NE(result["error"].get<std::string>().find("--max-seconds"), std::string::npos) << result;
        } else {
            measured.insert(result["probe"].get<std::string>());
        }
    }
    EXPECT_EQ(measured, std::set<std::string>{"bandwidth.stream"});
    EXPECT_EQ(skipped, (std::set<std::string>{"pattern.stride", "pattern.alignment"}));
}

TEST(Cli, ProbeMaxSecondsSkipsAProbeWhosePlanEstimatesMoreAndRunsTheOthers)
{
    const std::vector<std::string> common = {
        "--backend", "host",    "--suite",          "quick",   "--size",
        "4M",        "--probe", "bandwidth.stream", "--probe", "pattern.alignment"};
    std::vector<std::string> plan_args = {"run"};
    plan_args.insert(plan_args.end(), common.begin(), common.end());
    plan_args.insert(plan_args.end(), {"--plan", "--format", "json"});
    const auto plan = vrambench(plan_args);
    ASSERT_EQ(plan.exit_code, 0) << plan.err;
    std::map<std::string, double> estimate;
    const auto planned = nlohmann::json::parse(plan.out);
    for (const auto &p : planned["devices"][0]["probes"])
        estimate[p["probe"].get<std::string>()] = p["estimate_seconds"].get<double>();
    ASSERT_EQ(estimate.size(), 2u) << plan.out;
    const auto [slow, fast] = estimate["bandwidth.stream"] > estimate["pattern.alignment"]
                                  ? std::pair{"bandwidth.stream", "pattern.alignment"}
                                  : std::pair{"pattern.alignment", "bandwidth.stream"};
    const double budget = (estimate[slow] + estimate[fast]) / 2;
    ASSERT_LT(estimate[fast], budget);
    std::vector<std::string> run_args = {"run"};
    run_args.insert(run_args.end(), common.begin(), common.end());
    run_args.insert(run_args.end(), {"--probe-max-seconds", fmt::format("{}", budget), "--format", "json"});
    const auto r = vrambench(run_args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    for (const auto &result : doc["results"]) {
        if (result["probe"] == slow) {
            EXPECT_EQ(result["status"], "skipped") << result;
            EXPECT_NE(result["error"].get<std::string>().find("past the --probe-max-seconds budget"), std::string::npos)
                << result;
        } else {
            EXPECT_NE(result["status"], "skipped") << result;
        }
    }
}

TEST(Cli, RefusesAMaxSecondsThatIsNotAPositiveNumber)
{
    expect_usage_error(vrambench({"run", "--backend", "host", "--max-seconds", "-3"}), "--max-seconds");
}

TEST(Cli, AStandardRunPastItsBudgetRunsWithTheRepetitionsItsPlanGaveUpAndSaysSoBeforeItStarts)
{
    const std::vector<std::string> args = {"run",    "--backend", "host",    "--suite",          "standard",
                                           "--size", "1M",        "--probe", "bandwidth.stream", "--budget"};
    auto with = [&](const std::string &budget, const std::string &format) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {budget, "--format", format});
        return vrambench(a);
    };
    const auto r = with("0.001", "json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    const auto &budget = doc["devices"][0]["time_budget"];
    EXPECT_EQ(budget["budget_seconds"], 0.001);
    EXPECT_EQ(budget["economy"], 2);
    EXPECT_EQ(budget["kept"], false);
    for (const auto &result : doc["results"])
        if (result["probe"] == "bandwidth.stream") {
            EXPECT_EQ(result["parameters"]["repetitions"], 5) << result.dump();
        }

    // Within a budget nothing is given up; the table says the budget under the device's line.
    const auto easy = with("100000", "table");
    ASSERT_EQ(easy.exit_code, 0) << easy.err;
    EXPECT_NE(easy.out.find("  time budget 100000 s, estimated"), std::string::npos) << easy.out;
    EXPECT_EQ(easy.out.find("with fewer"), std::string::npos) << easy.out;
    const auto none = with("0", "json");
    ASSERT_EQ(none.exit_code, 0) << none.err;
    const auto plain = nlohmann::json::parse(none.out);
    EXPECT_FALSE(plain["devices"][0].contains("time_budget"));
    for (const auto &result : plain["results"])
        if (result["probe"] == "bandwidth.stream") {
            EXPECT_EQ(result["parameters"]["repetitions"], 10);
        }
    EXPECT_EQ(with("-1", "json").exit_code, 2);
}
