// CHASE by device address (backends/vulkan/chase_links.hpp) on the machine's device,
// lavapipe in CI, which offers buffer device addresses: which walk runs (the device's
// vulkan.chase_walk property, and the module's log of each chase), where it ends, how it
// reports a stray, the walk of indices where it is asked for, and links made once for
// each chain and what it holds, a lap walked untimed after they are made.
#include "backend.hpp"

#include "../chase_chains.hpp"

#include <vrambench/operation.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vrb::vulkan::test {
namespace {

using vrb::test::follow;
using vrb::test::random_cycle;

constexpr uint32_t kLlvmpipe = 13; // VK_DRIVER_ID_MESA_LLVMPIPE

// A context whose module logs into `messages`, and its device 0, opened with the
// environment as it is when the fixture is made.
struct LoggedDevice {
    std::vector<std::string> messages;
    ContextPtr context;
    DevicePtr device;
    std::map<std::string, std::string> properties;

    LoggedDevice()
    {
        vrb_host_table host{};
        host.struct_size = sizeof host;
        host.abi_version = VRB_ABI_VERSION;
        host.user = &messages;
        host.log = [](void *user, int32_t, const char *message) {
            static_cast<std::vector<std::string> *>(user)->emplace_back(message);
        };
        vrb_context *c = nullptr;
        const vrb_status status = table().init(&host, &c);
        if (status != VRB_OK) {
            ADD_FAILURE() << "init: " << why(status);
            return;
        }
        context.reset(c);
        vrb_device_info info{};
        info.struct_size = sizeof info;
        EXPECT_EQ(table().device_describe(c, 0, &info), VRB_OK);
        for (uint32_t i = 0; i < info.property_count; ++i)
            properties[info.properties[i].key] = info.properties[i].value;
        device = open_device(c);
    }

    bool logged(const std::string &words) const
    {
        for (const std::string &m : messages)
            if (m.find(words) != std::string::npos) return true;
        return false;
    }
    std::string log() const
    {
        std::string all;
        for (const std::string &m : messages)
            all += m + "\n";
        return all;
    }
};

// Walks `chain` laid at `offset` bytes into a buffer of kind 0 for each of `steps`,
// expecting the host's end.
void expect_host_ends(vrb_device *device, const std::vector<uint32_t> &chain, uint64_t offset,
                      std::initializer_list<uint64_t> steps)
{
    BufferPtr buffer = alloc(device, 0, offset + chain.size() * 4);
    ASSERT_TRUE(buffer);
    upload(buffer.get(), offset, chain);
    for (uint64_t n : steps) {
        vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, n);
        op.src1 = {buffer.get(), offset};
        EXPECT_EQ(run(device, op).output.checksum, follow(chain, n)) << n << " steps";
    }
}

// The status and message of a chase of 40000 steps (three dispatches on lavapipe) over
// a chain that leaves its buffer at element `at`.
std::string stray_report(vrb_device *device, uint32_t at)
{
    const uint32_t n = 30000;
    std::vector<uint32_t> chain(n);
    for (uint32_t i = 0; i < n; ++i)
        chain[i] = (i + 1) % n;
    chain[at] = 123456789;
    chain[n - 1] = 987654321;
    BufferPtr buffer = alloc(device, 0, 256 + n * 4);
    upload(buffer.get(), 256, chain);
    vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, 40000);
    op.src1 = {buffer.get(), 256};
    const vrb_status status = try_run(device, op);
    EXPECT_EQ(status, VRB_ERROR_INVALID_ARGUMENT) << why(status);
    std::string report = table().last_error();
    // Ending on the stray without following it is an answer.
    op.count = at + 1;
    EXPECT_EQ(run(device, op).output.checksum, 123456789u);
    return report;
}

bool walks_addresses(const LoggedDevice &d)
{
    return d.properties.count("vulkan.chase_walk") && d.properties.at("vulkan.chase_walk") == "device addresses";
}

TEST(ChaseWalk, lavapipe_walks_indices_unless_asked_for_addresses_since_its_step_is_its_own_loop)
{
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    ASSERT_TRUE(d.properties.count("vulkan.chase_walk"));
    if (!d.properties.count("vulkan.driver_id") || d.properties.at("vulkan.driver_id") != std::to_string(kLlvmpipe))
        GTEST_SKIP() << "not lavapipe";
    EXPECT_EQ(d.properties.at("vulkan.chase_walk"), "indices");
    expect_host_ends(d.device.get(), random_cycle(5000, 17), 192, {1, 9, 40001});
    EXPECT_TRUE(d.logged("CHASE walks the chain's indices")) << d.log();
}

TEST(ChaseWalk, lavapipe_walks_device_addresses_and_ends_where_the_host_walk_does)
{
    const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", "addresses");
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    ASSERT_TRUE(d.properties.count("vulkan.chase_walk"));
    if (d.properties.count("vulkan.driver_id") && d.properties.at("vulkan.driver_id") == std::to_string(kLlvmpipe)) {
        EXPECT_EQ(d.properties.at("vulkan.chase_walk"), "device addresses");
    }
    if (!walks_addresses(d)) GTEST_SKIP() << "this device offers no buffer device addresses";

    // Odd indices: links of 8 bytes an index. Step counts across dispatches (16384 each
    // on lavapipe), at an offset into the buffer.
    const std::vector<uint32_t> cycle = random_cycle(5000, 17);
    expect_host_ends(d.device.get(), cycle, 192, {1, 2, 7, 8, 9, 5000, 16384, 16385, 40001});
    EXPECT_TRUE(d.logged("CHASE walks device addresses, links of 8 bytes an index")) << d.log();
    EXPECT_FALSE(d.logged("indices'")) << d.log();

    // One node per 64-byte line, as the latency probe lays them: links at the indices'
    // own bytes. The answer is the index the last step loaded, whatever it is.
    std::vector<uint32_t> lines(16 * 600, 0);
    const std::vector<uint32_t> nodes = random_cycle(600, 5);
    for (uint32_t k = 0; k < 600; ++k)
        lines[16 * k] = 16 * nodes[k];
    lines[16 * nodes[0] + 3] = 77; // odd, but at an odd index: never read by a walk from 0
    expect_host_ends(d.device.get(), lines, 0, {1, 3, 600, 20000});
    EXPECT_TRUE(d.logged("CHASE walks device addresses, links at the indices' own bytes")) << d.log();
}

TEST(ChaseWalk, walks_device_addresses_over_several_buffer_segments)
{
    const ScopedEnv segments("VRAMBENCH_VULKAN_SEGMENT_BYTES", "65536");
    const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", "addresses");
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    if (!walks_addresses(d)) GTEST_SKIP() << "this device offers no buffer device addresses";
    // 100'000 indices over seven segments, from an offset inside the second.
    expect_host_ends(d.device.get(), random_cycle(100'000, 3), 65536 + 40, {2, 100'000, 100'001});
    EXPECT_TRUE(d.logged("CHASE walks device addresses")) << d.log();
}

TEST(ChaseWalk, a_stray_is_reported_by_the_address_walk_as_the_index_walk_reports_it)
{
    std::vector<std::string> reports[2];
    for (const char *walk : {"addresses", "indices"}) {
        SCOPED_TRACE(walk);
        const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", walk);
        const LoggedDevice d;
        ASSERT_TRUE(d.device);
        if (std::string(walk) == "addresses" && !walks_addresses(d)) GTEST_SKIP() << "no buffer device addresses";
        // In the first dispatch, and in the second (after the first's last step).
        for (uint32_t at : {5u, 16383u, 20000u})
            reports[std::string(walk) == "indices"].push_back(stray_report(d.device.get(), at));
        EXPECT_TRUE(d.logged(std::string(walk) == "indices" ? "CHASE walks the chain's indices"
                                                            : "CHASE walks device addresses"))
            << d.log();
    }
    ASSERT_EQ(reports[0].size(), 3u);
    EXPECT_EQ(reports[0], reports[1]);
    for (const std::string &report : reports[0])
        EXPECT_NE(report.find("123456789"), std::string::npos) << report;
}

TEST(ChaseWalk, the_index_walk_runs_where_it_is_asked_for)
{
    const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", "indices");
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    EXPECT_EQ(d.properties.at("vulkan.chase_walk"), "indices");
    expect_host_ends(d.device.get(), random_cycle(5000, 17), 192, {1, 9, 40001});
    EXPECT_TRUE(d.logged("CHASE walks the chain's indices")) << d.log();
    EXPECT_FALSE(d.logged("CHASE walks device addresses")) << d.log();
}

// How many times the module logged `words` since `from` messages in.
std::size_t times_logged(const LoggedDevice &d, const std::string &words, std::size_t from = 0)
{
    std::size_t n = 0;
    for (std::size_t i = from; i < d.messages.size(); ++i)
        n += d.messages[i].find(words) != std::string::npos;
    return n;
}

constexpr const char *kLinksMade = "CHASE made the links of its chain";
constexpr const char *kWarmLap = "CHASE walks a lap untimed";

// A chase of `steps` over the chain at `offset` of `buffer`, `runs` timed runs, as the
// latency probe times a point: answers the end.
uint64_t chase_point(vrb_device *device, vrb_buffer *buffer, uint64_t offset, uint64_t steps, uint32_t runs)
{
    vrb_operation op = vrb::make_operation(VRB_OP_CHASE, 4, steps);
    op.src1 = {buffer, offset};
    return run(device, op, runs).output.checksum;
}

TEST(ChaseLinksKept, a_points_warm_up_and_timed_runs_walk_links_made_once_after_one_untimed_lap)
{
    const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", "addresses");
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    if (!walks_addresses(d)) GTEST_SKIP() << "this device offers no buffer device addresses";
    const std::vector<uint32_t> chain = random_cycle(5000, 17);
    BufferPtr buffer = alloc(d.device.get(), 0, 64 + chain.size() * 4);
    upload(buffer.get(), 64, chain);
    EXPECT_EQ(chase_point(d.device.get(), buffer.get(), 64, 3000, 1), follow(chain, 3000)); // the warm-up
    EXPECT_EQ(chase_point(d.device.get(), buffer.get(), 64, 3000, 3), follow(chain, 3000)); // the timed runs
    EXPECT_EQ(chase_point(d.device.get(), buffer.get(), 64, 77, 3), follow(chain, 77));     // other steps
    EXPECT_EQ(times_logged(d, kLinksMade), 1u) << "one chain, one content: one making of its links\n" << d.log();
    EXPECT_EQ(times_logged(d, kWarmLap), 1u) << "only the call that made the links walks a lap untimed\n" << d.log();
}

TEST(ChaseLinksKept, a_new_chain_or_offset_or_a_write_into_the_chain_makes_the_links_again)
{
    const ScopedEnv env("VRAMBENCH_VULKAN_CHASE", "addresses");
    const LoggedDevice d;
    ASSERT_TRUE(d.device);
    if (!walks_addresses(d)) GTEST_SKIP() << "this device offers no buffer device addresses";
    vrb_device *device = d.device.get();
    std::vector<uint32_t> chain = random_cycle(4096, 3);
    BufferPtr buffer = alloc(device, 0, 2 * chain.size() * 4);
    upload(buffer.get(), 0, chain);
    chase_point(device, buffer.get(), 0, 1000, 1);
    ASSERT_EQ(times_logged(d, kLinksMade), 1u) << d.log();

    // The next point's chain, uploaded into the same buffer.
    chain = random_cycle(4096, 11);
    upload(buffer.get(), 0, chain);
    EXPECT_EQ(chase_point(device, buffer.get(), 0, 1000, 1), follow(chain, 1000));
    EXPECT_EQ(times_logged(d, kLinksMade), 2u) << d.log();

    // The same bytes walked from another offset: another chain.
    upload(buffer.get(), chain.size() * 4, chain);
    const std::size_t before = d.messages.size();
    EXPECT_EQ(chase_point(device, buffer.get(), chain.size() * 4, 1000, 1), follow(chain, 1000));
    EXPECT_EQ(times_logged(d, kLinksMade, before), 1u) << d.log();

    // An operation of this module writing the chain's buffer: a COPY of a chain of its
    // own over the first one.
    const std::vector<uint32_t> copied = random_cycle(4096, 29);
    BufferPtr source = alloc(device, 0, copied.size() * 4);
    upload(source.get(), 0, copied);
    chase_point(device, buffer.get(), 0, 1000, 1); // links of the first chain, again
    const std::size_t made = times_logged(d, kLinksMade);
    vrb_operation copy = vrb::make_operation(VRB_OP_COPY, 4, copied.size());
    copy.dst = {buffer.get(), 0};
    copy.src1 = {source.get(), 0};
    run(device, copy);
    EXPECT_EQ(chase_point(device, buffer.get(), 0, 1000, 1), follow(copied, 1000));
    EXPECT_EQ(times_logged(d, kLinksMade), made + 1) << d.log();
}

} // namespace
} // namespace vrb::vulkan::test
