// The capacity and integrity probes through the executable: a clean run exits 0 with
// a schema-valid result set, a flipped bit exits 4 (a verification failure) with its
// address in the JSON, and an allocation failure mid-way is recorded, not fatal.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

using namespace vrb;

namespace {

nlohmann::json parse(const ProcessResult &r)
{
    nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.out << r.err;
    return doc;
}

const std::vector<std::string> host_run{"run",   "--backend", "host", "--suite",
                                        "quick", "--format",  "json", "--memory-limit"};

// The same run on the test-only host-faults module, whose faults the variables switch on.
const std::vector<std::string> faults_run{
    "run",  "--plugin",      VRAMBENCH_HOST_FAULTS_MODULE, "--backend", "host-faults", "--suite", "quick", "--format",
    "json", "--memory-limit"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string> &more)
{
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

} // namespace

TEST(CapacityCli, EveryCapacityAndIntegrityProbeRunsCleanAndValidates)
{
    const auto r = vrambench(with(host_run, {"64M", "--probe", "capacity.*", "--probe", "integrity.*"}));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json doc = parse(r);
    ASSERT_TRUE(doc.is_object());
    const auto violation = validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    std::set<std::string> probes;
    for (const auto &result : doc.at("results"))
        probes.insert(result.at("probe").get<std::string>());
    EXPECT_EQ(probes, (std::set<std::string>{"capacity.report", "capacity.max-alloc", "capacity.total",
                                             "capacity.alloc-latency", "capacity.fragmentation", "integrity.pattern"}));
}

TEST(CapacityCli, AFlippedBitExitsWithTheVerificationCodeAndNamesItsAddress)
{
    const auto r =
        vrambench(with(faults_run, {"32M", "--probe", "integrity.pattern"}), {"VRAMBENCH_TEST_FLIP_BIT=1048581"});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    const nlohmann::json doc = parse(r);
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(doc.at("run").at("status"), "verification-failed");
    const auto &first = doc.at("results").at(0);
    EXPECT_EQ(first.at("status"), "verification-failed");
    EXPECT_EQ(first.at("extra").at("first_addresses").at(0).at("byte"), 1048580);
    EXPECT_NE(r.err.find("failed verification"), std::string::npos) << r.err;
}

TEST(CapacityCli, AnAllocationFailureMidwayThroughTotalIsRecordedAndTheRunSucceeds)
{
    const auto r =
        vrambench(with(faults_run, {"64M", "--probe", "capacity.total"}), {"VRAMBENCH_TEST_FAIL_ALLOC_AFTER=5"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json doc = parse(r);
    ASSERT_TRUE(doc.is_object());
    const auto &result = doc.at("results").at(0);
    EXPECT_EQ(result.at("extra").at("ended_by"), "allocation-failure");
    EXPECT_EQ(result.at("value"), 5 * 8 * 1048576.0);
}
