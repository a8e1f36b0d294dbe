// `vrambench analyze` end to end: what it prints of a set named by an older rule, the set
// it writes (only derived figures changed: plateaus named as this version names them,
// headlines, suspect marks, efficiencies), and a bad input refused with nothing written.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

const std::string xeon_vm = std::string(VRAMBENCH_TEST_DATA) + "/corpus/intel-xeon-vm-2vcpu-d7dada5.json";

std::filesystem::path scratch()
{
    auto dir = std::filesystem::temp_directory_path() / ("vrb-analyze-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

// Every measured value of a set, as text: each curve point's value, runs, samples and
// statistics, and those of each result that is no curve (a curve's own are its headline's,
// chosen from its points, and so derived).
std::string measured(const nlohmann::json &set)
{
    std::string out;
    const auto figure = [&out](const nlohmann::json &j) {
        for (const char *key : {"value", "seconds", "samples", "statistics", "bytes_per_run"})
            out += j.value(key, nlohmann::json()).dump() + "\n";
    };
    for (const auto &r : set.at("results")) {
        if (r["extra"].is_object() && r["extra"].contains("curve"))
            for (const auto &p : r["extra"]["curve"]["points"])
                figure(p);
        else
            figure(r);
    }
    return out;
}

} // namespace

TEST(AnalyzeCli, PrintsTheLevelsASetWasNamedAndIsNowAndWritesNothingWithoutOutput)
{
    const auto before = std::filesystem::last_write_time(xeon_vm);
    const ProcessResult r = vrambench({"analyze", xeon_vm});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "host:0 latency.chase chase: L1 1.429 ns, L2 4.731 ns")) << r.out;
    EXPECT_TRUE(contains(r.out, "L3 44.07 ns, L3 past the TLB 68.5 ns, memory 145.9 ns")) << r.out;
    EXPECT_TRUE(contains(r.out, "was: L1 1.429 ns, cache 2 4.731 ns")) << r.out;
    EXPECT_EQ(std::filesystem::last_write_time(xeon_vm), before);
}

TEST(AnalyzeCli, WritesTheSetWithOnlyItsDerivedFiguresRederivedAndASecondPassChangesNothing)
{
    const auto out = scratch() / "analyzed.json";
    const ProcessResult r = vrambench({"analyze", xeon_vm, "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json written = vrb::read_result_file(out), original = vrb::read_result_file(xeon_vm);
    EXPECT_FALSE(vrb::validate_result_json(written));
    EXPECT_EQ(measured(written), measured(original));
    EXPECT_NE(written, original);
    const ProcessResult again = vrambench({"analyze", out.string()});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_TRUE(contains(again.out, "no derived figure changed")) << again.out;
    EXPECT_FALSE(contains(again.out, "was:")) << again.out;
    EXPECT_TRUE(contains(again.out, "memory 145.9 ns")) << again.out; // the levels, changed or not
    std::filesystem::remove_all(out.parent_path());
}

TEST(AnalyzeCli, RefusesAFileThatIsNoResultSetNamingItAndWritesNothing)
{
    const auto dir = scratch();
    const auto bad = dir / "bad.json", out = dir / "out.json";
    std::ofstream(bad) << R"({"results": 3})";
    const ProcessResult r = vrambench({"analyze", xeon_vm, bad.string()});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_TRUE(contains(r.err, "bad.json")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out; // nothing is said of the good set before all are read
    const ProcessResult one = vrambench({"analyze", bad.string(), "-o", out.string()});
    EXPECT_NE(one.exit_code, 0);
    EXPECT_FALSE(std::filesystem::exists(out));
    // -o writes one set: two are refused.
    const ProcessResult two = vrambench({"analyze", xeon_vm, xeon_vm, "-o", out.string()});
    EXPECT_NE(two.exit_code, 0);
    EXPECT_TRUE(contains(two.err, "one set")) << two.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    std::filesystem::remove_all(dir);
}

namespace {

const std::string analyze_h200 = std::string(VRAMBENCH_SOURCE_DIR) + "/results/nvidia-h200-cuda/standard.json";

nlohmann::json *analyze_cli_result(nlohmann::json &set, const std::string &probe, const std::string &operation)
{
    for (auto &r : set["results"])
        if (r["probe"] == probe && r["parameters"].value("operation", "") == operation) return &r;
    return nullptr;
}

} // namespace

TEST(AnalyzeCli, MarksAFigureAbovePeakPastTheCacheSuspectRederivesAWrongHeadlineAndCountsBoth)
{
    const auto dir = scratch();
    const auto in = dir / "h200.json", out = dir / "analyzed.json";
    nlohmann::json set = vrb::read_result_file(analyze_h200);
    for (auto &d : set["devices"]) { // no datasheet entry, and a slow clock: a low peak
        d["pci"]["device_id"] = 1;
        d["memory_clock_khz"] = 100000;
    }
    nlohmann::json *sweep = analyze_cli_result(set, "bandwidth.sweep", "read");
    ASSERT_TRUE(sweep);
    const nlohmann::json headline = (*sweep)["value"];
    (*sweep)["value"] = 1.5;
    std::ofstream(in) << set.dump(1);
    const ProcessResult r = vrambench({"analyze", in.string(), "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "headlines re-derived")) << r.out;
    EXPECT_TRUE(contains(r.out, "suspect marks re-derived")) << r.out;
    EXPECT_TRUE(contains(r.out, "suspect marks kept as recorded")) << r.out; // the interop pairs'
    EXPECT_TRUE(contains(r.out, "cuda:0 bandwidth.stream read 16B: suspect: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "    was: ok\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "    was: 1.5 GB/s\n")) << r.out;
    nlohmann::json written = vrb::read_result_file(out);
    EXPECT_FALSE(vrb::validate_result_json(written));
    EXPECT_EQ((*analyze_cli_result(written, "bandwidth.stream", "read"))["status"], "suspect");
    EXPECT_EQ((*analyze_cli_result(written, "bandwidth.sweep", "read"))["value"], headline);
    EXPECT_EQ(measured(written), measured(set)); // every point, every value that is a measurement
    const ProcessResult again = vrambench({"analyze", out.string()});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_TRUE(contains(again.out, "no derived figure changed")) << again.out;
    std::filesystem::remove_all(dir);
}
