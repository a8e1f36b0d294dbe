// NUMA nodes as host devices, on the host backend's own classes (no module loaded):
// which devices VRAMBENCH_HOST_NUMA_NODES makes, where their memory and threads are,
// who is whose peer as make_table's run() sees it, and a node the machine lacks.
// A one-node machine plays several nodes by naming node 0 twice ("0,0").
#include "cpu_affinity.hpp"
#include "host_module.hpp"
#include "machine_numa_nodes.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/plugin_table.hpp>

#include <gtest/gtest.h>

#include <linux/mempolicy.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace vrb::host {
namespace {

// Sets (or, with nullopt, unsets) an environment variable for one scope.
class NumaNodesVariable {
  public:
    explicit NumaNodesVariable(std::optional<std::string> value)
    {
        if (const char *old = std::getenv(name)) before_ = old;
        if (value)
            ::setenv(name, value->c_str(), 1);
        else
            ::unsetenv(name);
    }
    ~NumaNodesVariable()
    {
        if (before_)
            ::setenv(name, before_->c_str(), 1);
        else
            ::unsetenv(name);
    }
    NumaNodesVariable(const NumaNodesVariable &) = delete;
    NumaNodesVariable &operator=(const NumaNodesVariable &) = delete;

  private:
    static constexpr const char *name = "VRAMBENCH_HOST_NUMA_NODES";
    std::optional<std::string> before_;
};

std::string property(const vrb_device_info &info, const std::string &key)
{
    for (uint32_t i = 0; i < info.property_count; ++i)
        if (key == info.properties[i].key) return info.properties[i].value;
    return {};
}

vrb_device_info described(HostContext &ctx, uint32_t index)
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    ctx.describe(index, info);
    return info;
}

// Node devices exist only where the module was built with libnuma.
bool built_with_libnuma()
{
    NumaNodesVariable unset(std::nullopt);
    HostContext ctx(nullptr);
    return property(described(ctx, 0), "numa_nodes").find("without libnuma") == std::string::npos;
}

// The memory policy of the mapping around `address`, and whether node 0 is in its mask
// (get_mempolicy(2) by its syscall: the test needs no libnuma of its own).
struct Policy {
    int mode = -1;
    bool node0 = false;
};
Policy policy_at(const void *address)
{
    Policy p;
    unsigned long mask[16] = {};
    if (syscall(SYS_get_mempolicy, &p.mode, mask, sizeof mask * 8, address, MPOL_F_ADDR) != 0) return {};
    p.node0 = (mask[0] & 1) != 0;
    return p;
}

class NumaNodeDevices : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (!built_with_libnuma()) GTEST_SKIP() << "the host backend was built without libnuma";
    }
};

TEST_F(NumaNodeDevices, EachNodeTheVariableNamesIsADeviceBesideTheWholeMachine)
{
    NumaNodesVariable nodes("0,0");
    HostContext ctx(nullptr);
    ASSERT_EQ(ctx.device_count(), 3u);
    const vrb_device_info machine = described(ctx, 0);
    EXPECT_EQ(std::string(machine.name).find("NUMA node"), std::string::npos) << machine.name;
    EXPECT_NE(property(machine, "numa_nodes").find("host:1..host:2 are nodes 0,0"), std::string::npos)
        << property(machine, "numa_nodes");
    for (uint32_t index : {1u, 2u}) {
        const vrb_device_info node = described(ctx, index);
        EXPECT_NE(std::string(node.name).find("(NUMA node 0 of "), std::string::npos) << node.name;
        EXPECT_EQ(property(node, "numa_node_cpus"), cpu_list_text(ctx.node(index)->cpus));
        EXPECT_EQ(node.compute_units, ctx.node(index)->cpus.size());
        EXPECT_EQ(ctx.pool_of(index).size(), ctx.node(index)->cpus.size());
        EXPECT_NE(&ctx.pool_of(index), &ctx.pool()) << "a node's workers are its own";
        EXPECT_GT(node.total_memory_bytes, 0u);
        EXPECT_EQ(node.heaps[0].bytes, node.total_memory_bytes);
    }
}

TEST_F(NumaNodeDevices, ANodeDevicesBufferIsBoundToItsNodeAndTheMachinesIsNot)
{
    NumaNodesVariable nodes("0,0");
    HostContext ctx(nullptr);
    auto machine = ctx.open(0), node = ctx.open(1);
    auto bound = node->alloc(0, 1 << 20), anywhere = machine->alloc(0, 1 << 20);
    const Policy on_node = policy_at(bound->bytes_at(0));
    EXPECT_EQ(on_node.mode, MPOL_BIND);
    EXPECT_TRUE(on_node.node0);
    EXPECT_EQ(policy_at(bound->bytes_at((1 << 20) - 1)).mode, MPOL_BIND) << "the whole buffer, not its first page";
    EXPECT_EQ(policy_at(anywhere->bytes_at(0)).mode, MPOL_DEFAULT);
    EXPECT_EQ(bound->device(), node.get());
    EXPECT_EQ(anywhere->device(), machine.get());
}

TEST_F(NumaNodeDevices, NodeDevicesAreEachOthersPeersAndTheWholeMachineIsNobodys)
{
    NumaNodesVariable nodes("0,0");
    HostContext ctx(nullptr);
    auto machine = ctx.open(0), one = ctx.open(1), two = ctx.open(2);
    EXPECT_EQ(one->peer(*two), uint32_t{VRB_PEER_COPY | VRB_PEER_ACCESS});
    EXPECT_EQ(two->peer(*one), uint32_t{VRB_PEER_COPY | VRB_PEER_ACCESS});
    EXPECT_EQ(machine->peer(*one), 0u);
    EXPECT_EQ(one->peer(*machine), 0u);
}

// Through the C table the shipped module exports: the peer bits decide which of another
// device's buffers run() takes (plugin_table.hpp), so HostBuffer must name its device.
TEST_F(NumaNodeDevices, TheTableLetsANodeCopyIntoAndReadItsPeersMemoryAndNothingMore)
{
    NumaNodesVariable nodes("0,0");
    const vrb_plugin_table table =
        plugin::make_table<HostContext, HostDevice, HostBuffer>({"host", "NUMA test", "1.0"});
    ASSERT_NE(table.peer_query, nullptr);
    vrb_context *ctx = nullptr;
    ASSERT_EQ(table.init(nullptr, &ctx), VRB_OK) << table.last_error();
    vrb_device *dev[3] = {};
    vrb_buffer *buf[3] = {};
    constexpr uint64_t bytes = 1 << 16;
    std::vector<uint32_t> lanes(bytes / 4);
    std::iota(lanes.begin(), lanes.end(), 7u);
    for (uint32_t i = 0; i < 3; ++i) {
        ASSERT_EQ(table.device_open(ctx, i, &dev[i]), VRB_OK) << table.last_error();
        ASSERT_EQ(table.buffer_alloc(dev[i], 0, bytes, &buf[i]), VRB_OK) << table.last_error();
    }
    ASSERT_EQ(table.buffer_upload(buf[1], 0, lanes.data(), bytes), VRB_OK);
    uint32_t flags = 0;
    ASSERT_EQ(table.peer_query(dev[1], dev[2], &flags), VRB_OK);
    EXPECT_EQ(flags, uint32_t{VRB_PEER_COPY | VRB_PEER_ACCESS});
    ASSERT_EQ(table.peer_query(dev[0], dev[1], &flags), VRB_OK);
    EXPECT_EQ(flags, 0u);

    auto run = [&](vrb_device *on, vrb_operation op) {
        double seconds = 0;
        vrb_op_output out{};
        out.struct_size = sizeof out;
        const vrb_status status = table.run(on, &op, 1, &seconds, &out);
        return std::pair{status, status == VRB_OK ? out.checksum : 0};
    };
    vrb_operation transfer = make_operation(VRB_OP_TRANSFER, 1, bytes);
    transfer.src1 = {buf[1], 0};
    transfer.dst = {buf[2], 0};
    EXPECT_EQ(run(dev[1], transfer).first, VRB_OK) << table.last_error();
    std::vector<uint32_t> arrived(bytes / 4);
    ASSERT_EQ(table.buffer_download(buf[2], 0, arrived.data(), bytes), VRB_OK);
    EXPECT_EQ(arrived, lanes) << "host:1 copied its memory into host:2's";

    vrb_operation read = make_operation(VRB_OP_READ, 4, bytes / 4);
    read.src1 = {buf[2], 0};
    const auto [read_status, sum] = run(dev[1], read);
    EXPECT_EQ(read_status, VRB_OK) << table.last_error();
    EXPECT_EQ(sum, std::accumulate(lanes.begin(), lanes.end(), uint64_t{0})) << "host:1 read host:2's memory in place";

    vrb_operation elementwise = make_operation(VRB_OP_COPY, 4, bytes / 4);
    elementwise.dst = {buf[2], 0};
    elementwise.src1 = {buf[1], 0};
    EXPECT_EQ(run(dev[1], elementwise).first, VRB_ERROR_INVALID_ARGUMENT) << "no peer bit covers a kernel's store";
    transfer.dst = {buf[0], 0};
    EXPECT_EQ(run(dev[1], transfer).first, VRB_ERROR_INVALID_ARGUMENT) << "host:0 is no peer of a node";
    EXPECT_NE(std::string(table.last_error()).find("has no peer copy"), std::string::npos) << table.last_error();
    transfer.src1 = {buf[0], 0};
    transfer.dst = {buf[1], 0};
    EXPECT_EQ(run(dev[0], transfer).first, VRB_ERROR_INVALID_ARGUMENT) << "nor a node host:0's";

    for (uint32_t i = 0; i < 3; ++i) {
        table.buffer_free(buf[i]);
        table.device_close(dev[i]);
    }
    table.shutdown(ctx);
}

TEST_F(NumaNodeDevices, ANodeTheMachineDoesNotHaveStopsTheBackendWithAMessageNamingIt)
{
    std::vector<std::string> logged;
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    host.user = &logged;
    host.log = [](void *user, int32_t level, const char *message) {
        if (level >= VRB_LOG_ERROR) static_cast<std::vector<std::string> *>(user)->push_back(message);
    };
    {
        NumaNodesVariable nodes("0,7");
        try {
            HostContext ctx(&host);
            ADD_FAILURE() << "a node the machine lacks became a device";
        } catch (const plugin::Failure &failure) {
            EXPECT_EQ(failure.status(), VRB_ERROR_INVALID_ARGUMENT);
            EXPECT_NE(std::string(failure.what()).find("names NUMA node 7, which this machine does not have"),
                      std::string::npos)
                << failure.what();
        }
        ASSERT_EQ(logged.size(), 1u);
        EXPECT_NE(logged[0].find("NUMA node 7"), std::string::npos) << logged[0];
    }
    for (const char *typo : {"0;1", "0,", "-1", "zero", "0,,1"}) {
        NumaNodesVariable nodes(typo);
        try {
            HostContext ctx(nullptr);
            ADD_FAILURE() << typo << " was taken as a list of nodes";
        } catch (const plugin::Failure &failure) {
            EXPECT_NE(std::string(failure.what()).find("is not a comma-separated list of NUMA node numbers"),
                      std::string::npos)
                << failure.what();
        }
    }
}

TEST(NumaNodeDevicesByDefault, AMachineOfOneNodeIsOneDevice)
{
    if (vrb::test::machine_numa_nodes() != 1)
        GTEST_SKIP() << "this machine has " << vrb::test::machine_numa_nodes() << " NUMA nodes";
    NumaNodesVariable unset(std::nullopt);
    HostContext ctx(nullptr);
    EXPECT_EQ(ctx.device_count(), 1u);
    EXPECT_EQ(ctx.node(0), nullptr);
}

TEST(NodeWorkers, APoolMadeForSomeCpusRunsEveryTaskOnThemAndAScopedPinIsUndone)
{
    const std::vector<int> allowed = allowed_cpus();
    ASSERT_FALSE(allowed.empty());
    const int last = allowed.back();
    WorkerPool pool({last});
    ASSERT_EQ(pool.size(), 1u);
    std::vector<int> seen(8, -1);
    for (int &cpu : seen)
        pool.run([&](unsigned, unsigned) { cpu = sched_getcpu(); });
    for (int cpu : seen)
        EXPECT_EQ(cpu, last);

    cpu_set_t before, inside, after;
    ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
    {
        const ScopedAffinity pinned({last});
        ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof inside, &inside), 0);
        EXPECT_EQ(CPU_COUNT(&inside), 1);
        EXPECT_TRUE(CPU_ISSET(last, &inside));
        EXPECT_EQ(sched_getcpu(), last);
    }
    ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after));
    EXPECT_EQ(cpu_list_text({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
}

} // namespace
} // namespace vrb::host
