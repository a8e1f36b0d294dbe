// The host module's NUMA node devices end to end: VRAMBENCH_HOST_NUMA_NODES=0,0 makes a
// one-node machine's node 0 two devices beside the whole machine, so the peer probes
// measure node to node as they would across two sockets, and pair nothing with host:0.
#include "../host/machine_numa_nodes.hpp"
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace {

const std::string two_nodes = "VRAMBENCH_HOST_NUMA_NODES=0,0";

nlohmann::json host_backend_listed(const ProcessResult &list)
{
    for (const auto &backend : nlohmann::json::parse(list.out))
        if (backend["name"] == "host") return backend;
    return {};
}

} // namespace

TEST(HostNumaDevices, TheHostModuleListsTheWholeMachineAndEachNamedNodeAsADevice)
{
    const ProcessResult list = vrambench({"list", "--format", "json"}, {two_nodes});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const nlohmann::json host = host_backend_listed(list);
    ASSERT_EQ(host["state"], "available") << host.dump();
    std::vector<std::string> ids;
    for (const auto &device : host["devices"])
        ids.push_back(device["id"].get<std::string>());
    EXPECT_EQ(ids, (std::vector<std::string>{"host:0", "host:1", "host:2"}));
    ASSERT_EQ(host["devices"].size(), 3u);
    EXPECT_FALSE(contains(host["devices"][0]["name"].get<std::string>(), "NUMA node"));
    for (int i : {1, 2})
        EXPECT_TRUE(contains(host["devices"][i]["name"].get<std::string>(), "(NUMA node 0 of "))
            << host["devices"][i].dump();
}

TEST(HostNumaDevices, NodesCopyAndReadEachOthersMemoryAndTheWholeMachineIsSkippedWithTheModulesAnswer)
{
    const ProcessResult run = vrambench({"run", "--backend", "host", "--probe", "*.peer", "--suite", "quick", "--size",
                                         "256K", "--reps", "2", "--format", "json"},
                                        {two_nodes});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    std::set<std::string> copies, both_ways, loads;
    std::set<std::string> named;
    for (const auto &r : doc["results"]) {
        const std::string pair = r["parameters"]["pair"].get<std::string>();
        if (contains(pair, "host:0")) {
            // The whole machine spans both nodes: no pair of it with a node is measured,
            // and each is named with the module's answer.
            EXPECT_EQ(r["status"], "skipped") << r.dump();
            const std::string why = r["error"].get<std::string>();
            const std::string path = r["probe"] == "bandwidth.peer" ? "copy" : "access";
            EXPECT_TRUE(contains(why, r["device"].get<std::string>() + " has no peer " + path + " to " +
                                          r["parameters"]["peer"].get<std::string>() + " (peer_query answered none)"))
                << why;
            named.insert(r["probe"].get<std::string>() + " " + pair);
            continue;
        }
        EXPECT_EQ(r["status"], "ok") << r.dump();
        EXPECT_EQ(r["verification"]["status"], "passed") << r.dump();
        EXPECT_GT(r["value"].get<double>(), 0) << r.dump();
        EXPECT_TRUE(r["parameters"]["peer_access"].get<bool>());
        EXPECT_FALSE(r["parameters"]["through_host"].get<bool>());
        if (r["probe"] == "latency.peer")
            loads.insert(pair);
        else
            (r["parameters"]["both_directions"].get<bool>() ? both_ways : copies).insert(pair);
    }
    const std::set<std::string> node_pairs{"host:1->host:2", "host:2->host:1"};
    std::set<std::string> whole_machine_pairs;
    for (const char *probe : {"bandwidth.peer", "latency.peer"})
        for (const char *pair : {"host:0->host:1", "host:0->host:2", "host:1->host:0", "host:2->host:0"})
            whole_machine_pairs.insert(std::string(probe) + " " + pair);
    EXPECT_EQ(named, whole_machine_pairs);
    EXPECT_EQ(copies, node_pairs);
    EXPECT_EQ(both_ways, node_pairs);
    EXPECT_EQ(loads, node_pairs);
}

TEST(HostNumaDevices, ANodeTheMachineDoesNotHaveFailsTheHostModuleWithAMessageNamingIt)
{
    const ProcessResult list = vrambench({"list", "--format", "json"}, {"VRAMBENCH_HOST_NUMA_NODES=7"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const nlohmann::json host = host_backend_listed(list);
    EXPECT_EQ(host["state"], "failed") << host.dump();
    EXPECT_TRUE(contains(host["reason"].get<std::string>(), "names NUMA node 7, which this machine does not have"))
        << host.dump();
    EXPECT_TRUE(contains(list.err, "NUMA node 7")) << "the module's log says it too: " << list.err;

    const ProcessResult run =
        vrambench({"run", "--backend", "host", "--probe", "bandwidth.peer", "--suite", "quick", "--format", "json"},
                  {"VRAMBENCH_HOST_NUMA_NODES=7"});
    EXPECT_EQ(run.exit_code, 3) << "a backend that failed, not a usage error";
    EXPECT_TRUE(contains(run.err, "backend 'host' is failed")) << run.err;
    EXPECT_TRUE(contains(run.err, "names NUMA node 7")) << run.err;
}

TEST(HostNumaDevices, WithoutTheVariableAOneNodeMachineHasOneHostDevice)
{
    if (vrb::test::machine_numa_nodes() != 1)
        GTEST_SKIP() << "this machine has " << vrb::test::machine_numa_nodes() << " NUMA nodes";
    const ProcessResult list = vrambench({"list", "--format", "json"}, {"VRAMBENCH_HOST_NUMA_NODES="});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const nlohmann::json host = host_backend_listed(list);
    ASSERT_EQ(host["devices"].size(), 1u) << host.dump();
    EXPECT_EQ(host["devices"][0]["id"], "host:0");
}
