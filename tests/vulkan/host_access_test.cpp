// How uploads and downloads reach a buffer's bytes, and where the backend's own host
// buffers live, on the memory layouts real GPUs report.
#include "host_access.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace vrb::vulkan {
namespace host_access_test {

constexpr VkMemoryPropertyFlags L = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, V = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                C = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, H = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
constexpr uint64_t MiB = uint64_t(1) << 20;

VkPhysicalDeviceMemoryProperties types(const std::vector<VkMemoryPropertyFlags> &flags)
{
    VkPhysicalDeviceMemoryProperties m{};
    m.memoryTypeCount = static_cast<uint32_t>(flags.size());
    for (std::size_t i = 0; i < flags.size(); ++i)
        m.memoryTypes[i] = {flags[i], (flags[i] & L) ? 0u : 1u};
    m.memoryHeapCount = 2;
    return m;
}

TEST(HostPath, bulk_access_to_a_resizable_bar_goes_through_the_device)
{
    // An H200's "device-local+host-visible+host-coherent": reading 256 MiB back through
    // the mapping took 13 s of a run whose timed part took milliseconds.
    EXPECT_EQ(choose_host_path(L | V | C, 256 * MiB, false), HostPath::Staging);
    EXPECT_EQ(choose_host_path(L | V, 64 * 1024, false), HostPath::Staging);
    EXPECT_EQ(choose_host_path(L | V | C, kSmallHostAccessBytes + 1, false), HostPath::Staging);
}

TEST(HostPath, small_access_to_a_resizable_bar_uses_the_mapping)
{
    EXPECT_EQ(choose_host_path(L | V | C, kSmallHostAccessBytes, false), HostPath::Mapping);
    EXPECT_EQ(choose_host_path(L | V | C, 4, false), HostPath::Mapping);
}

TEST(HostPath, host_cached_memory_uses_the_mapping_at_any_size)
{
    EXPECT_EQ(choose_host_path(V | C | H, 256 * MiB, false), HostPath::Mapping);
    // Integrated GPUs and CPU implementations (lavapipe): device-local and cached.
    EXPECT_EQ(choose_host_path(L | V | C | H, 256 * MiB, false), HostPath::Mapping);
}

TEST(HostPath, system_memory_that_is_not_cached_uses_the_mapping)
{
    EXPECT_EQ(choose_host_path(V | C, 256 * MiB, false), HostPath::Mapping);
}

TEST(HostPath, memory_the_host_cannot_map_goes_through_the_device)
{
    EXPECT_EQ(choose_host_path(L, 4, false), HostPath::Staging);
    EXPECT_EQ(choose_host_path(0, 4, false), HostPath::Staging);
}

TEST(HostPath, always_stage_sends_everything_through_the_device)
{
    EXPECT_EQ(choose_host_path(V | C | H, 4, true), HostPath::Staging);
    EXPECT_EQ(choose_host_path(L | V | C, 4, true), HostPath::Staging);
}

TEST(HostBufferType, prefers_cached_system_memory_on_a_discrete_gpu)
{
    // The H200's order: device-local, no properties, V|C, V|C|H, L|V|C.
    const auto m = types({L, 0, V | C, V | C | H, L | V | C});
    EXPECT_EQ(choose_host_buffer_type(m, 0x1f), 3u);
}

TEST(HostBufferType, takes_system_memory_before_a_bar_without_cached_memory)
{
    const auto m = types({L, L | V | C, V | C});
    EXPECT_EQ(choose_host_buffer_type(m, 0x7), 2u);
}

TEST(HostBufferType, takes_a_bar_when_nothing_else_is_visible)
{
    const auto m = types({L, L | V | C});
    EXPECT_EQ(choose_host_buffer_type(m, 0x3), 1u);
}

TEST(HostBufferType, keeps_to_the_allowed_types)
{
    const auto m = types({L, V | C, V | C | H});
    EXPECT_EQ(choose_host_buffer_type(m, 0x3), 1u);
    EXPECT_EQ(choose_host_buffer_type(m, 0x1), UINT32_MAX);
}

} // namespace host_access_test
} // namespace vrb::vulkan
