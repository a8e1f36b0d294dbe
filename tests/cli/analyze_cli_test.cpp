// `vrambench analyze` end to end: what it prints of a set named by an older rule, the set
// it writes (only plateaus changed, and named as this version names them), and a bad
// input refused with nothing written.
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

// Every measured value of a set: each result's value and each curve point's.
std::vector<double> measured(const nlohmann::json &set)
{
    std::vector<double> out;
    for (const auto &r : set.at("results")) {
        if (r["value"].is_number()) out.push_back(r["value"].get<double>());
        if (r["extra"].is_object() && r["extra"].contains("curve"))
            for (const auto &p : r["extra"]["curve"]["points"])
                if (p["value"].is_number()) out.push_back(p["value"].get<double>());
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

TEST(AnalyzeCli, WritesTheSetWithOnlyItsPlateausRederivedAndASecondPassChangesNothing)
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
