// Memory kinds named and flagged from Vulkan memory types, on the layouts real GPUs
// report.
#include "memory_kinds.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

namespace vrb::vulkan {
namespace {

constexpr VkMemoryPropertyFlags L = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, V = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                C = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, H = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

VkPhysicalDeviceMemoryProperties memory(std::vector<std::pair<VkMemoryPropertyFlags, uint32_t>> types,
                                        std::vector<std::pair<uint64_t, VkMemoryHeapFlags>> heaps)
{
    VkPhysicalDeviceMemoryProperties m{};
    m.memoryTypeCount = static_cast<uint32_t>(types.size());
    for (std::size_t i = 0; i < types.size(); ++i)
        m.memoryTypes[i] = {types[i].first, types[i].second};
    m.memoryHeapCount = static_cast<uint32_t>(heaps.size());
    for (std::size_t i = 0; i < heaps.size(); ++i)
        m.memoryHeaps[i] = {heaps[i].first, heaps[i].second};
    return m;
}

TEST(MemoryKindNames, list_the_flags_in_a_fixed_order)
{
    EXPECT_EQ(memory_type_name(L), "device-local");
    EXPECT_EQ(memory_type_name(V | C), "host-visible+host-coherent");
    EXPECT_EQ(memory_type_name(H | C | V), "host-visible+host-coherent+host-cached");
    EXPECT_EQ(memory_type_name(L | V | C), "device-local+host-visible+host-coherent");
    EXPECT_EQ(memory_type_name(0), "no-properties");
}

TEST(MemoryKinds, of_a_discrete_gpu_with_resizable_bar)
{
    // The layout of a discrete GPU: VRAM, system RAM in two flavours, and VRAM the host
    // maps through the BAR.
    const auto m = memory({{0, 1}, {L, 0}, {V | C, 1}, {V | C | H, 1}, {L | V | C, 0}},
                          {{24ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}, {64ull << 30, 0}});
    const auto kinds = derive_memory_kinds(m, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 0x1f);
    ASSERT_EQ(kinds.size(), 5u);
    EXPECT_EQ(kinds[0].name, "no-properties");
    EXPECT_EQ(kinds[1].name, "device-local");
    EXPECT_EQ(kinds[1].flags, VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS);
    EXPECT_EQ(kinds[2].name, "host-visible+host-coherent");
    EXPECT_EQ(kinds[2].flags, VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_DEVICE_ACCESS |
                                  VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PINNED);
    EXPECT_EQ(kinds[3].name, "host-visible+host-coherent+host-cached");
    EXPECT_TRUE(kinds[3].flags & VRB_MEMORY_HOST_CACHED);
    EXPECT_EQ(kinds[4].name, "device-local+host-visible+host-coherent");
    EXPECT_FALSE(kinds[4].flags & VRB_MEMORY_HOST_MEMORY);
    EXPECT_EQ(kinds[4].heap_index, 0u);
    EXPECT_EQ(kinds[4].heap_bytes, 24ull << 30);
    EXPECT_TRUE(kinds[0].flags & VRB_MEMORY_HOST_MEMORY);
    EXPECT_FALSE(kinds[0].flags & VRB_MEMORY_PINNED);
}

TEST(MemoryKinds, with_identical_flags_are_told_apart_by_type_index)
{
    const auto m = memory({{L, 0}, {L, 1}, {V | C, 2}, {L, 0}}, {{8ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT},
                                                                 {256u << 20, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT},
                                                                 {16ull << 30, 0}});
    const auto kinds = derive_memory_kinds(m, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 0xf);
    ASSERT_EQ(kinds.size(), 4u);
    EXPECT_EQ(kinds[0].name, "device-local");
    EXPECT_EQ(kinds[1].name, "device-local#1");
    EXPECT_EQ(kinds[3].name, "device-local#3");
}

TEST(MemoryKinds, leave_out_types_a_storage_buffer_cannot_use_and_types_the_backend_cannot_allocate)
{
    const auto m = memory({{L, 0},
                           {V | C, 0},
                           {L | VK_MEMORY_PROPERTY_PROTECTED_BIT, 0},
                           {L | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0},
                           {L | V | C | VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD, 0}},
                          {{1ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}});
    const auto kinds = derive_memory_kinds(m, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 0x1d); // type 1 not usable
    ASSERT_EQ(kinds.size(), 1u);
    EXPECT_EQ(kinds[0].type_index, 0u);
}

TEST(MemoryKinds, of_integrated_gpus_and_cpus_live_in_system_ram)
{
    const auto m = memory({{L, 0}, {L | V | C | H, 0}}, {{8ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}});
    for (auto type : {VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU}) {
        const auto kinds = derive_memory_kinds(m, type, 0x3);
        ASSERT_EQ(kinds.size(), 2u);
        for (const auto &k : kinds)
            EXPECT_TRUE(k.flags & VRB_MEMORY_HOST_MEMORY);
        EXPECT_TRUE(heap_flags(VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, type) & VRB_MEMORY_HOST_MEMORY);
    }
    EXPECT_EQ(heap_flags(VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU),
              uint32_t(VRB_MEMORY_DEVICE_LOCAL));
    EXPECT_EQ(heap_flags(0, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU), uint32_t(VRB_MEMORY_HOST_MEMORY));
}

TEST(MemoryKinds, run_every_operation_at_every_width_and_transfers_at_width_one)
{
    const auto m = memory({{L, 0}, {V | C, 1}}, {{8ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}, {16ull << 30, 0}});
    for (const MemoryKind &kind : derive_memory_kinds(m, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 0x3)) {
        for (uint32_t op = VRB_OP_READ; op <= VRB_OP_CHECK; ++op) {
            if (op == VRB_OP_TRANSFER) continue;
            for (uint32_t width : {4u, 8u, 16u})
                EXPECT_TRUE(runs_on(kind, op, width)) << kind.name << " op " << op << " width " << width;
            for (uint32_t width : {0u, 1u, 2u, 12u, 32u})
                EXPECT_FALSE(runs_on(kind, op, width)) << kind.name << " op " << op << " width " << width;
        }
        EXPECT_TRUE(runs_on(kind, VRB_OP_TRANSFER, 1)) << kind.name;
        EXPECT_FALSE(runs_on(kind, VRB_OP_TRANSFER, 4)) << kind.name;
        EXPECT_FALSE(runs_on(kind, 0, 4)) << kind.name;
        EXPECT_FALSE(runs_on(kind, VRB_OP_CHECK + 1, 4)) << kind.name;
    }
}

TEST(MemoryKinds, that_shaders_cannot_reach_still_transfer)
{
    MemoryKind copy_only;
    copy_only.name = "copy-only";
    copy_only.flags = VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_MEMORY;
    EXPECT_FALSE(runs_on(copy_only, VRB_OP_READ, 4));
    EXPECT_FALSE(runs_on(copy_only, VRB_OP_FILL, 16));
    EXPECT_TRUE(runs_on(copy_only, VRB_OP_TRANSFER, 1));
}

} // namespace
} // namespace vrb::vulkan
