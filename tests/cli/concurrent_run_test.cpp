// `run --concurrent` end to end with a module of three devices: the workers really run
// at once (their runs overlap in time, as the module's trace shows), every result names
// the devices that ran alongside it, and without the flag nothing overlaps and nothing
// is recorded.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

struct Span {
    std::string device;
    unsigned long long start, end;
};

struct Traced {
    ProcessResult process;
    std::vector<Span> spans;
};

Traced run_multi(const std::vector<std::string> &args, const std::string &name, std::vector<std::string> env = {})
{
    const fs::path trace = fs::temp_directory_path() / ("vrb-concurrent-" + std::to_string(getpid()) + "-" + name);
    fs::remove(trace);
    std::vector<std::string> argv{VRAMBENCH_EXE, "run",   "--plugin", MOCK_MULTI_PATH,
                                  "--backend",   "multi", "--probe",  "bandwidth.stream",
                                  "--size",      "64K",   "--reps",   "3"};
    argv.insert(argv.end(), args.begin(), args.end());
    if (std::find(args.begin(), args.end(), "--format") == args.end()) argv.insert(argv.end(), {"--format", "json"});
    Traced t;
    env.insert(env.end(), {"VRAMBENCH_MOCK_RUN_MS=5", "VRAMBENCH_MOCK_TRACE=" + trace.string()});
    t.process = run_process(argv, env);
    std::ifstream in(trace);
    Span s;
    while (in >> s.device >> s.start >> s.end)
        t.spans.push_back(s);
    fs::remove(trace);
    return t;
}

// Whether some run of one device overlapped some run of another.
bool devices_overlapped(const std::vector<Span> &spans)
{
    for (const auto &a : spans)
        for (const auto &b : spans)
            if (a.device < b.device && a.start < b.end && b.start < a.end) return true;
    return false;
}

} // namespace

TEST(CliConcurrent, DeviceAllConcurrentRunsEveryDeviceAtOnceAndRecordsWhatRanAlongside)
{
    const Traced t = run_multi({"--device", "all", "--concurrent"}, "all");
    ASSERT_EQ(t.process.exit_code, 0) << t.process.err;
    const auto doc = nlohmann::json::parse(t.process.out);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    EXPECT_EQ(doc["run"]["concurrent_devices"], (nlohmann::json{"multi:0", "multi:1", "multi:2"}));
    ASSERT_EQ(doc["devices"].size(), 3u);
    std::map<std::string, std::size_t> results, with_both_others;
    for (const auto &r : doc["results"]) {
        ASSERT_TRUE(r.contains("ran_alongside")) << r.dump();
        const std::string device = r["device"];
        ++results[device];
        const auto alongside = r["ran_alongside"].get<std::vector<std::string>>();
        EXPECT_EQ(std::count(alongside.begin(), alongside.end(), device), 0) << "a device runs alongside itself";
        if (alongside.size() == 2) ++with_both_others[device];
        EXPECT_EQ(r["status"], "ok") << r.dump();
    }
    EXPECT_EQ(results.size(), 3u);
    // Started together, each device's first figure was measured while the others ran.
    EXPECT_EQ(with_both_others.size(), 3u) << doc["results"].dump();
    EXPECT_TRUE(devices_overlapped(t.spans)) << t.spans.size() << " runs traced, none overlapping";
}

TEST(CliConcurrent, WithoutTheFlagDevicesRunOneAfterAnotherAndNothingIsRecorded)
{
    const Traced t = run_multi({"--device", "all"}, "sequential");
    ASSERT_EQ(t.process.exit_code, 0) << t.process.err;
    const auto doc = nlohmann::json::parse(t.process.out);
    EXPECT_FALSE(doc["run"].contains("concurrent_devices"));
    for (const auto &r : doc["results"])
        EXPECT_FALSE(r.contains("ran_alongside")) << r.dump();
    ASSERT_FALSE(t.spans.empty());
    EXPECT_FALSE(devices_overlapped(t.spans));
}

TEST(CliConcurrent, AListOfDevicesRunsThoseTogether)
{
    const Traced t = run_multi({"--device", "multi:0", "--device", "multi:2", "--concurrent"}, "list");
    ASSERT_EQ(t.process.exit_code, 0) << t.process.err;
    const auto doc = nlohmann::json::parse(t.process.out);
    EXPECT_EQ(doc["run"]["concurrent_devices"], (nlohmann::json{"multi:0", "multi:2"}));
    std::set<std::string> traced;
    for (const auto &s : t.spans)
        traced.insert(s.device);
    EXPECT_EQ(traced, (std::set<std::string>{"multi:0", "multi:2"}));
    for (const auto &r : doc["results"])
        for (const auto &other : r["ran_alongside"])
            EXPECT_NE(other, "multi:1");
}

TEST(CliConcurrent, TheTableListsEachDeviceUnderItsOwnHeading)
{
    const Traced t = run_multi({"--device", "all", "--concurrent", "--format", "table"}, "table");
    ASSERT_EQ(t.process.exit_code, 0) << t.process.err;
    // Rows follow their device's heading, device after device, as in a run one after another.
    const auto first = t.process.out.find("multi:0"), second = t.process.out.find("multi:1"),
               third = t.process.out.find("multi:2");
    ASSERT_NE(first, std::string::npos) << t.process.out;
    EXPECT_LT(first, second);
    EXPECT_LT(second, third);
}

TEST(CliConcurrent, AllBesideANamedDeviceIsAUsageError)
{
    const ProcessResult r = run_process(
        {VRAMBENCH_EXE, "run", "--plugin", MOCK_MULTI_PATH, "--device", "all", "--device", "multi:0", "--concurrent"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--device all"), std::string::npos) << r.err;
}

TEST(CliConcurrent, ADeviceWhoseWorkerCrashesCostsOnlyItsOwnResults)
{
    const Traced t = run_multi({"--device", "all", "--concurrent"}, "crash", {"VRAMBENCH_MOCK_CRASH=1"});
    EXPECT_EQ(t.process.exit_code, 3) << t.process.err;
    const auto doc = nlohmann::json::parse(t.process.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    std::map<std::string, std::size_t> ok;
    for (const auto &r : doc["results"])
        if (r["status"] == "ok") ++ok[r["device"]];
    EXPECT_EQ(ok["multi:0"], 7u) << doc["results"].dump();
    EXPECT_EQ(ok["multi:2"], 7u);
    EXPECT_EQ(ok.count("multi:1"), 0u);
    for (const auto &b : doc["backends"])
        if (b["name"] == "multi") {
            EXPECT_EQ(b["state"], "crashed");
            EXPECT_NE(b["reason"].get<std::string>().find("SIGSEGV"), std::string::npos) << b.dump();
        }
}
