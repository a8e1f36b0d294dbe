// The peer probes end to end on a module of three devices: the matrix of pairs each
// device measures, the paths the module reports, the pairs without one named, and a
// copy that drops bytes caught by the destination's own check.
#include "run_process.hpp"

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/results/schema.hpp>
#include <vrambench/operation.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

ProcessResult run_peers(const std::vector<std::string> &env = {})
{
    return run_process({VRAMBENCH_EXE, "run", "--plugin", MOCK_MULTI_PATH, "--backend", "multi", "--probe", "*.peer",
                        "--suite", "quick", "--size", "256K", "--reps", "2", "--format", "json"},
                       env);
}

std::vector<nlohmann::json> results_of(const nlohmann::json &doc, const std::string &probe)
{
    std::vector<nlohmann::json> out;
    for (const auto &r : doc["results"])
        if (r["probe"] == probe) out.push_back(r);
    return out;
}

} // namespace

TEST(PeerProbes, EveryDeviceCopiesToEveryOtherOneWayAndBothWaysAndReadsItsMemoryInPlace)
{
    const ProcessResult run = run_peers();
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    std::set<std::string> copies, both_ways, loads;
    for (const auto &r : results_of(doc, "bandwidth.peer")) {
        EXPECT_EQ(r["status"], "ok") << r.dump();
        EXPECT_EQ(r["verification"]["status"], "passed") << r.dump();
        EXPECT_TRUE(r["parameters"]["peer_access"].get<bool>());
        (r["parameters"]["both_directions"].get<bool>() ? both_ways : copies)
            .insert(r["parameters"]["pair"].get<std::string>());
    }
    for (const auto &r : results_of(doc, "latency.peer")) {
        EXPECT_EQ(r["verification"]["status"], "passed") << r.dump();
        EXPECT_GT(r["value"].get<double>(), 0);
        EXPECT_GT(r["extra"]["own_memory_latency_ns"].get<double>(), 0);
        loads.insert(r["parameters"]["pair"].get<std::string>());
    }
    const std::set<std::string> matrix{"multi:0->multi:1", "multi:0->multi:2", "multi:1->multi:0",
                                       "multi:1->multi:2", "multi:2->multi:0", "multi:2->multi:1"};
    EXPECT_EQ(copies, matrix);
    EXPECT_EQ(both_ways, matrix);
    EXPECT_EQ(loads, matrix);
}

TEST(PeerProbes, PairsWithoutAPathAreNamedWithWhatTheModuleAnswered)
{
    // Only multi:0 reaches multi:1; every other ordered pair has no path.
    const ProcessResult run = run_peers({"VRAMBENCH_MOCK_PEERS=0-1"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    std::set<std::string> measured, named;
    for (const auto &r : results_of(doc, "bandwidth.peer")) {
        const std::string pair = r["parameters"]["pair"].get<std::string>();
        if (r["status"] == "skipped") {
            // One skipped result per pair, naming it, its peer and the module's answer.
            const std::string peer = r["parameters"]["peer"].get<std::string>();
            EXPECT_NE(r["error"].get<std::string>().find("has no peer copy to " + peer), std::string::npos) << r.dump();
            EXPECT_NE(r["error"].get<std::string>().find("peer_query answered none"), std::string::npos) << r.dump();
            EXPECT_TRUE(named.insert(pair).second) << "named twice: " << pair;
            continue;
        }
        measured.insert(pair);
    }
    EXPECT_EQ(measured, std::set<std::string>{"multi:0->multi:1"});
    EXPECT_EQ(named, (std::set<std::string>{"multi:0->multi:2", "multi:1->multi:0", "multi:1->multi:2",
                                            "multi:2->multi:0", "multi:2->multi:1"}));

    const ProcessResult copy_only = run_peers({"VRAMBENCH_MOCK_PEERS=copy"});
    ASSERT_EQ(copy_only.exit_code, 0) << copy_only.err;
    const auto copies = nlohmann::json::parse(copy_only.out);
    for (const auto &r : results_of(copies, "bandwidth.peer"))
        EXPECT_TRUE(r["parameters"]["through_host"].get<bool>()) << r.dump();
    for (const auto &r : results_of(copies, "latency.peer")) {
        EXPECT_EQ(r["status"], "skipped") << r.dump();
        EXPECT_NE(r["error"].get<std::string>().find("has no peer access"), std::string::npos) << r.dump();
    }
}

TEST(PeerProbes, ACopyThatDropsBytesFailsVerificationAtTheDestination)
{
    const ProcessResult run = run_peers({"VRAMBENCH_MOCK_PEER_SKEW=64"});
    EXPECT_EQ(run.exit_code, 4) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    const auto copies = results_of(doc, "bandwidth.peer");
    ASSERT_FALSE(copies.empty());
    for (const auto &r : copies) {
        EXPECT_EQ(r["verification"]["status"], "failed") << r.dump();
        EXPECT_NE(r["verification"]["detail"].get<std::string>().find("arrived wrong"), std::string::npos) << r.dump();
    }
}

TEST(PeerProbes, AModuleWithOneDeviceSaysThereIsNoPeer)
{
    const ProcessResult run =
        run_process({VRAMBENCH_EXE, "run", "--backend", "host", "--probe", "*.peer", "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    for (const auto &r : doc["results"]) {
        EXPECT_EQ(r["status"], "skipped") << r.dump();
        EXPECT_NE(r["error"].get<std::string>().find("the only device of host"), std::string::npos) << r.dump();
    }
}

// The table's rule, through the module itself: another device's buffer is an operand only
// as far as the peer bits reach, and never for an operation they do not cover.
TEST(PeerProbes, AnotherDevicesBufferIsRefusedUnlessThePeerPathCoversTheOperation)
{
    const vrb::BackendEntry entry = vrb::open_backend(MOCK_MULTI_PATH);
    ASSERT_TRUE(entry.backend) << entry.reason;
    auto zero = entry.backend->open(0), one = entry.backend->open(1);
    auto mine = zero->allocate(0, 1 << 16), theirs = one->allocate(0, 1 << 16);
    auto status_of = [&](vrb_operation op) -> std::string {
        try {
            zero->run(op, 1);
            return "ran";
        } catch (const vrb::BackendError &e) {
            return e.what();
        }
    };
    vrb_operation copy = vrb::make_operation(VRB_OP_TRANSFER, 1, 1 << 16);
    copy.src1 = {mine->handle(), 0};
    copy.dst = {theirs->handle(), 0};
    vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, (1 << 16) / 4);
    read.src1 = {theirs->handle(), 0};
    vrb_operation elementwise = vrb::make_operation(VRB_OP_COPY, 4, (1 << 16) / 4);
    elementwise.src1 = {theirs->handle(), 0};
    elementwise.dst = {mine->handle(), 0};

    EXPECT_EQ(zero->peer_flags(*one), uint32_t{VRB_PEER_COPY | VRB_PEER_ACCESS});
    EXPECT_EQ(status_of(copy), "ran");
    EXPECT_EQ(status_of(read), "ran");
    EXPECT_NE(status_of(elementwise).find("belongs to another device"), std::string::npos);

    ::setenv("VRAMBENCH_MOCK_PEERS", "copy", 1);
    EXPECT_EQ(status_of(copy), "ran");
    EXPECT_NE(status_of(read).find("has no peer access to it"), std::string::npos) << status_of(read);
    ::setenv("VRAMBENCH_MOCK_PEERS", "none", 1);
    EXPECT_NE(status_of(copy).find("has no peer copy to it"), std::string::npos) << status_of(copy);
    ::setenv("VRAMBENCH_MOCK_PEERS", "bad-bits", 1);
    try {
        zero->peer_flags(*one);
        ADD_FAILURE() << "an answer with unknown bits was taken";
    } catch (const vrb::BackendError &e) {
        EXPECT_NE(std::string(e.what()).find("bits outside VRB_PEER_*"), std::string::npos) << e.what();
    }
    ::unsetenv("VRAMBENCH_MOCK_PEERS");
    EXPECT_THROW(zero->peer_flags(*zero), vrb::BackendError) << "a device is not its own peer";
}
