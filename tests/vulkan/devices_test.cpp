// What the module says about the devices: lavapipe is listed, described from what
// Vulkan reports (and nothing guessed), with heaps and memory kinds.
#include "backend.hpp"

#include <cpu_caches.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>

namespace vrb::vulkan::test {
namespace {

std::map<std::string, std::string> properties(const vrb_device_info &info)
{
    std::map<std::string, std::string> map;
    for (uint32_t i = 0; i < info.property_count; ++i)
        map[info.properties[i].key] = info.properties[i].value;
    return map;
}

vrb_device_info describe(vrb_context *context, uint32_t index)
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    const vrb_status status = table().device_describe(context, index, &info);
    EXPECT_EQ(status, VRB_OK) << why(status);
    return info;
}

TEST(VulkanModule, negotiates_abi_1_and_names_itself_vulkan)
{
    EXPECT_STREQ(table().name, "vulkan");
    EXPECT_EQ(VRB_VERSION_MAJOR(table().abi_version), 1u);
    EXPECT_GE(table().struct_size, sizeof(vrb_plugin_table));
}

TEST(VulkanDevices, lists_lavapipe_as_a_cpu_device_with_heaps_and_memory_types)
{
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    uint32_t count = 0;
    ASSERT_EQ(table().device_count(context.get(), &count), VRB_OK);
    ASSERT_GE(count, 1u);
    bool found = false;
    for (uint32_t d = 0; d < count; ++d) {
        const vrb_device_info info = describe(context.get(), d);
        if (!std::strstr(info.name, "llvmpipe")) continue;
        found = true;
        EXPECT_EQ(info.type, VRB_DEVICE_CPU);
        EXPECT_STREQ(info.api, "Vulkan");
        EXPECT_STREQ(info.vendor, "Mesa");
        EXPECT_NE(std::string(info.driver_version).find("Mesa"), std::string::npos) << info.driver_version;
        EXPECT_TRUE(info.known & VRB_KNOWN_UUID);
        EXPECT_TRUE(info.known & VRB_KNOWN_TOTAL_MEMORY);
        // Mesa's vendor id is Khronos-assigned, not PCI; lavapipe has no bus address.
        EXPECT_FALSE(info.known & VRB_KNOWN_PCI_IDS);
        EXPECT_FALSE(info.known & VRB_KNOWN_PCI_ADDRESS);
        EXPECT_FALSE(info.known & VRB_KNOWN_BUS_WIDTH);
        EXPECT_FALSE(info.known & VRB_KNOWN_MEMORY_CLOCK);
        ASSERT_GE(info.heap_count, 1u);
        for (uint32_t h = 0; h < info.heap_count; ++h)
            EXPECT_GT(info.heaps[h].bytes, 0u);
        EXPECT_TRUE(info.heaps[0].flags & VRB_MEMORY_HOST_MEMORY) << "a CPU device's memory is system RAM";
        const auto props = properties(info);
        for (const char *key :
             {"vulkan.max_storage_buffer_range", "vulkan.max_memory_allocation_size",
              "vulkan.max_compute_work_group_count", "vulkan.timestamp_period_ns", "vulkan.timestamp_valid_bits",
              "vulkan.subgroup_size", "vulkan.driver_uuid", "vulkan.driver_name"})
            EXPECT_TRUE(props.count(key)) << key;
        EXPECT_EQ(props.at("vulkan.driver_name"), "llvmpipe");

        DevicePtr device = open_device(context.get(), d);
        ASSERT_TRUE(device);
        const std::vector<Kind> kinds = memory_kinds(device.get());
        ASSERT_GE(kinds.size(), 1u);
        std::set<std::string> names;
        for (const Kind &kind : kinds) {
            EXPECT_TRUE(kind.info.flags & VRB_MEMORY_DEVICE_ACCESS) << kind.info.name;
            EXPECT_LT(kind.info.heap_index, info.heap_count);
            EXPECT_TRUE(names.insert(kind.info.name).second) << "two kinds named " << kind.info.name;
        }
        // lavapipe's one memory type: device-local, host-visible, coherent and cached.
        EXPECT_EQ(kinds[0].info.flags & (VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE),
                  VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE);
        EXPECT_STREQ(kinds[0].info.name, "device-local+host-visible+host-coherent+host-cached");
    }
    EXPECT_TRUE(found) << "lavapipe (llvmpipe) is not among the Vulkan devices";
}

// Vulkan has no cache query; a CPU device's loads meet this CPU's caches, so those are
// what it lists, the same the host backend does, and it says where they came from.
TEST(VulkanDevices, a_cpu_device_lists_the_host_cpus_caches_and_says_so)
{
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    uint32_t count = 0;
    ASSERT_EQ(table().device_count(context.get(), &count), VRB_OK);
    vrb_device_info host{};
    vrb::cpu::describe_cpu_caches(host);
    for (uint32_t d = 0; d < count; ++d) {
        const vrb_device_info info = describe(context.get(), d);
        if (info.type != VRB_DEVICE_CPU) continue;
        ASSERT_EQ(info.cache_count, host.cache_count) << info.name;
        for (uint32_t c = 0; c < info.cache_count; ++c) {
            EXPECT_EQ(info.caches[c].level, host.caches[c].level);
            EXPECT_EQ(info.caches[c].bytes, host.caches[c].bytes);
            EXPECT_STREQ(info.caches[c].kind, host.caches[c].kind);
        }
        if (host.cache_count) {
            EXPECT_EQ(properties(info).at("cache_source").rfind("the host CPU's, from ", 0), 0u)
                << properties(info).at("cache_source");
        }
        return;
    }
    GTEST_SKIP() << "no CPU device among the Vulkan devices";
}

TEST(VulkanDevices, fill_only_what_an_older_host_struct_holds)
{
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    // A host built against a struct that ended after `name`.
    const uint32_t size = offsetof(vrb_device_info, name) + sizeof(vrb_device_info::name);
    std::vector<unsigned char> storage(sizeof(vrb_device_info) + 64, 0xab);
    auto *info = reinterpret_cast<vrb_device_info *>(storage.data());
    info->struct_size = size;
    ASSERT_EQ(table().device_describe(context.get(), 0, info), VRB_OK);
    EXPECT_EQ(info->struct_size, size);
    EXPECT_NE(info->name[0], '\0');
    for (std::size_t i = size; i < storage.size(); ++i)
        ASSERT_EQ(storage[i], 0xab) << "byte " << i << " was written";
}

TEST(VulkanDevices, left_open_are_closed_with_their_context)
{
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    vrb_device *device = nullptr;
    ASSERT_EQ(table().device_open(context.get(), 0, &device), VRB_OK);
    vrb_buffer *buffer = nullptr;
    ASSERT_EQ(table().buffer_alloc(device, 0, 1 << 20, &buffer), VRB_OK);
    // Neither the buffer nor the device is released: shutdown does it.
}

TEST(VulkanDevices, refuse_an_index_past_the_last_device)
{
    ContextPtr context = open_context();
    ASSERT_TRUE(context);
    vrb_device_info info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(table().device_describe(context.get(), 1000, &info), VRB_ERROR_INVALID_ARGUMENT);
    vrb_device *device = nullptr;
    EXPECT_EQ(table().device_open(context.get(), 1000, &device), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(table().last_error()).find("1000"), std::string::npos);
}

} // namespace
} // namespace vrb::vulkan::test
