// `vrambench health` end to end on the hand-made H200 sets (tests/data/health), with the
// hand-made published folder as the references; the exit codes a scheduler acts on;
// the ranks `compare` and `report` show; the fleet naming its slow card's reasons.
#include "run_process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

const std::string health_dir = std::string(VRAMBENCH_TEST_DATA) + "/health/";
// The published sets health and compare rank among, in place of the project's results/.
const std::string published_env = "VRAMBENCH_RESULTS=" + health_dir + "published";

ProcessResult health(std::vector<std::string> args, const std::string &env = published_env)
{
    args.insert(args.begin(), "health");
    return vrambench(args, {env});
}

} // namespace

TEST(HealthCli, AHealthyCardExits0WithOneLinePerCheckAndAVerdict)
{
    const auto r = health({"--result", health_dir + "healthy.json"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "  ok    bandwidth.stream triad (16 B): 4150 GB/s; 1.00 of the reference 4171 GB/s"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "  ok    integrity: 5 patterns over 2.0 GiB: every lane read back as written"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "  ok    link: x16 Gen5 under load (during bandwidth.transfer host-to-device pinned "
                                "at 64 MiB), the card's maximum x16 Gen5"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "  --    telemetry: the set records no telemetry for this card")) << r.out;
    EXPECT_TRUE(contains(r.out, "verdict cuda:0: healthy: 9 figures held their floors (9 against a measured "
                                "reference); throttle reasons not read (exit 0)"))
        << r.out;
}

TEST(HealthCli, ACardAtHalfItsReferenceExits5NamingTheFigure)
{
    const auto r = health({"--result", health_dir + "slow.json"});
    EXPECT_EQ(r.exit_code, 5) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "  FAIL  bandwidth.stream triad (16 B): 2075 GB/s; 0.50 of the reference 4171 GB/s"))
        << r.out;
    EXPECT_TRUE(contains(
        r.out, "verdict cuda:0: unhealthy: below reference (bandwidth.stream read (16 B) and 6 more) (exit 5)"))
        << r.out;
    // A reference file's floor for copy (3000 GB/s) judges copy instead.
    const auto file = health(
        {"--result", health_dir + "slow.json", "--reference", health_dir + "reference-h200.json", "--format", "json"});
    EXPECT_EQ(file.exit_code, 5) << file.err;
    const auto j = nlohmann::json::parse(file.out);
    for (const auto &c : j["cards"][0]["checks"])
        if (c["name"] == "bandwidth.stream copy (16 B)") {
            EXPECT_EQ(c["floor"], 3000);
            EXPECT_EQ(c["reference_source"], "tests/data/health/published, with a floor set by hand");
        }
}

TEST(HealthCli, ASetWithAFlippedLaneExits4)
{
    const auto r = health({"--result", health_dir + "flipped.json"});
    EXPECT_EQ(r.exit_code, 4) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "  FAIL  integrity: 1 lane read back wrong: walking-ones")) << r.out;
    EXPECT_TRUE(contains(r.out, "verdict cuda:0: unhealthy: integrity (exit 4)")) << r.out;
}

TEST(HealthCli, ACardWhoseLinkIsDowngradedUnderLoadIsNamedForItsLink)
{
    const auto r = health({"--result", health_dir + "link.json", "--format", "json"});
    EXPECT_EQ(r.exit_code, 5) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["healthy"], false);
    EXPECT_EQ(j["cards"][0]["reasons"], nlohmann::json::array({"link"}));
    EXPECT_EQ(j["cards"][0]["verdict"], "unhealthy: link");
}

TEST(HealthCli, AReferenceFileWithATenfoldTypoIsRefusedNamingTheLine)
{
    const auto r = health({"--result", health_dir + "healthy.json", "--reference", health_dir + "reference-typo.json"});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_TRUE(contains(r.err, "reference-typo.json:11: reference 1 field 'value': 41500 GB/s is above the datasheet "
                                "peak of 4800 GB/s"))
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(HealthCli, BadInputIsRefused)
{
    EXPECT_EQ(health({}).exit_code, 2);
    EXPECT_EQ(health({"--result", health_dir + "healthy.json", "--floor", "1.5"}).exit_code, 2);
    EXPECT_EQ(health({"--result", "/no/such/set.json"}).exit_code, 2);
    const auto device = health({"--result", health_dir + "healthy.json", "--device", "cuda:3"});
    EXPECT_EQ(device.exit_code, 2);
    EXPECT_TRUE(contains(device.err, "no device cuda:3 in the set")) << device.err;
    EXPECT_TRUE(contains(health({"--device", "nonsense"}).err, "name a device as backend:index"));
}

// The quick suite's stream, integrity and transfer, measured now on the host; no
// published set is of this machine and a CPU has no datasheet peak, so nothing is judged:
// "not judged", exit 6, never "healthy".
TEST(HealthCli, MeasuresTheHostNowAndSaysNothingWasJudgedWithoutAReference)
{
    const auto r = health({"--device", "host:0", "--format", "json"}, "VRAMBENCH_RESULTS=");
    EXPECT_EQ(r.exit_code, 6) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["cards"][0]["device"], "host:0");
    EXPECT_EQ(j["healthy"], false);
    EXPECT_TRUE(j["cards"][0]["verdict"].get<std::string>().starts_with("not judged: ")) << j["cards"][0]["verdict"];
    std::vector<std::string> names;
    for (const auto &c : j["cards"][0]["checks"])
        names.push_back(c["name"]);
    for (const char *needed : {"bandwidth.stream triad (16 B)", "integrity", "link", "telemetry"})
        EXPECT_NE(std::find(names.begin(), names.end(), needed), names.end()) << needed;
}

// A device the backend does not have is bad input (2), named: not "could not measure" (3),
// which is for a card that exists and failed to run.
TEST(HealthCli, ADeviceTheBackendDoesNotHaveIsBadInput)
{
    const auto r = health({"--device", "host:7"}, "VRAMBENCH_RESULTS=");
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    EXPECT_TRUE(contains(r.err + r.out, "host:7")) << r.err << r.out;
}

TEST(HealthCli, CompareShowsWhereEachCardStandsAmongTheSetsOfItsModel)
{
    const auto r = vrambench({"compare", health_dir + "healthy.json", health_dir + "slow.json"}, {published_env});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "rank among the sets of NVIDIA H200 (10de:2335, 140.4 GiB), given and published:"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "slow.json cuda:0: 2075 GB/s, percentile 0")) << r.out;
    const auto j = vrambench({"compare", health_dir + "healthy.json", health_dir + "slow.json", "--format", "json"},
                             {published_env});
    const auto rank = nlohmann::json::parse(j.out)["rank"];
    ASSERT_FALSE(rank.empty());
    EXPECT_EQ(rank[0]["population"], 6);
}

TEST(HealthCli, ReportShowsEachCardAmongTheSetsOfItsModel)
{
    const auto r = vrambench({"report", health_dir + "slow.json"}, {published_env});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "Among the sets of its model")) << r.err;
    EXPECT_TRUE(contains(r.out, "bandwidth.stream triad (16 B)")) << r.err;
    EXPECT_TRUE(contains(
        r.out, R"row(["bandwidth.stream triad (16 B)","2075.0 GB/s","4150.0 GB/s","2075.0 to 4274.5","0","5"])row"))
        << "the triad row: this card, the median of 5, the spread, percentile 0";
}

TEST(HealthCli, CompareFleetNamesTheSlowCardWithItsReason)
{
    const auto r = vrambench({"compare", "--fleet", health_dir + "fleet", "--reference", health_dir + "published"},
                             {"VRAMBENCH_RESULTS="});
    EXPECT_EQ(r.exit_code, 5) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "reasons: below reference, link")) << r.out;
    EXPECT_TRUE(contains(r.err, "vrambench: node-3 pci:0000:19:00.0: unhealthy: below reference (bandwidth.stream read "
                                "(16 B) and 6 more), link"))
        << r.err;
    // Without a reference the link still names it.
    const auto bare = vrambench({"compare", "--fleet", health_dir + "fleet"}, {"VRAMBENCH_RESULTS="});
    EXPECT_EQ(bare.exit_code, 5);
    EXPECT_TRUE(contains(bare.out, "reasons: below datasheet floor, link")) << bare.out;
}

// The published sets as `health` finds them itself: the H200 set among them is judged
// against the datasheet floor (it is never its own reference), and a CPU set is not judged.
TEST(HealthCli, ThePublishedH200IsHealthyAndAPublishedCpuSetIsNotJudged)
{
    const std::string results = std::string(VRAMBENCH_SOURCE_DIR) + "/results/";
    const auto h200 = health({"--result", results + "nvidia-h200-cuda/standard.json"}, "VRAMBENCH_RESULTS=" + results);
    EXPECT_EQ(h200.exit_code, 0) << h200.err << h200.out;
    EXPECT_TRUE(contains(h200.out, "verdict cuda:0: healthy: 7 figures held their floors (7 against the datasheet "
                                   "floor)"))
        << h200.out;
    const auto cpu =
        health({"--result", results + "ci-vm-epyc-zen5-2vcpu/standard.json"}, "VRAMBENCH_RESULTS=" + results);
    EXPECT_EQ(cpu.exit_code, 6) << cpu.err << cpu.out;
    EXPECT_TRUE(contains(cpu.out, ": not judged: ")) << cpu.out;
}
