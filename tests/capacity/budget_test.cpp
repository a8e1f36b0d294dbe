// How much the capacity probes may take, from what a device reports and what the user
// asked: margins, the quick suite's cap, percentages, and devices that report nothing.
#include "capacity_budget.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <gtest/gtest.h>

#include <cstring>

using namespace vrb;
using namespace vrb::capacity;

using vrb::GiB;
using vrb::MiB;

namespace {

vrb_memory_kind_info kind(const char *name, uint32_t flags, uint32_t heap)
{
    vrb_memory_kind_info k{};
    k.struct_size = sizeof k;
    std::strncpy(k.name, name, sizeof k.name - 1);
    k.flags = flags;
    k.heap_index = heap;
    return k;
}

// A discrete card: a host-visible kind listed first, then the bulk of device memory.
DeviceRecord card(uint64_t free_bytes)
{
    DeviceRecord d;
    d.id = "gpu:0";
    d.info.struct_size = sizeof d.info;
    d.info.total_memory_bytes = 141 * GiB;
    d.info.free_memory_bytes = free_bytes;
    d.info.known = VRB_KNOWN_TOTAL_MEMORY | (free_bytes ? VRB_KNOWN_FREE_MEMORY : 0);
    d.info.heap_count = 2;
    d.info.heaps[0].bytes = 64 * GiB;
    d.info.heaps[1].bytes = 141 * GiB;
    d.kinds.push_back(kind("host", VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_PINNED, 0));
    d.kinds.push_back(kind("rebar", VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_DEVICE_ACCESS, 1));
    d.kinds.push_back(kind("device", VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS, 1));
    return d;
}

ProbeOptions suite(Suite s)
{
    ProbeOptions o;
    o.suite = s;
    return o;
}

} // namespace

TEST(CapacityBudget, PicksDeviceMemoryTheHostCannotMap)
{
    const CapacityBudget b = plan_capacity_budget(card(100 * GiB), suite(Suite::standard));
    EXPECT_EQ(b.kind, 2u);
    EXPECT_EQ(b.kind_name, "device");
}

TEST(CapacityBudget, StandardLeavesFivePercentOfALargeDeviceFree)
{
    const CapacityBudget b = plan_capacity_budget(card(100 * GiB), suite(Suite::standard));
    EXPECT_EQ(b.margin, 5 * GiB);
    EXPECT_EQ(b.bytes, 95 * GiB);
    EXPECT_NE(b.rule.find("margin"), std::string::npos) << b.rule;
}

TEST(CapacityBudget, StandardLeavesAtLeast512MiBOfASmallDeviceFree)
{
    const CapacityBudget b = plan_capacity_budget(card(4 * GiB), suite(Suite::full));
    EXPECT_EQ(b.bytes, 4 * GiB - 512 * MiB);
}

TEST(CapacityBudget, QuickTakesAtMost32MiB)
{
    const CapacityBudget b = plan_capacity_budget(card(100 * GiB), suite(Suite::quick));
    EXPECT_EQ(b.bytes, 32 * MiB);
    EXPECT_NE(b.rule.find("quick"), std::string::npos) << b.rule;
}

TEST(CapacityBudget, ADeviceWithLessFreeThanTheMarginGetsNothing)
{
    EXPECT_EQ(plan_capacity_budget(card(300 * MiB), suite(Suite::standard)).bytes, 0u);
}

TEST(CapacityBudget, AnAbsoluteLimitOverridesTheMarginAndTheQuickCap)
{
    ProbeOptions o = suite(Suite::quick);
    o.memory_limit = parse_memory_limit("8G");
    const CapacityBudget b = plan_capacity_budget(card(100 * GiB), o);
    EXPECT_EQ(b.bytes, 8 * GiB);
    EXPECT_NE(b.rule.find("--memory-limit"), std::string::npos) << b.rule;
}

TEST(CapacityBudget, APercentageIsOfTheReportedFreeMemory)
{
    ProbeOptions o = suite(Suite::standard);
    o.memory_limit = parse_memory_limit("50%");
    EXPECT_EQ(plan_capacity_budget(card(100 * GiB), o).bytes, 50 * GiB);
    o.memory_limit = parse_memory_limit("100%");
    EXPECT_EQ(plan_capacity_budget(card(100 * GiB), o).bytes, 100 * GiB);
}

TEST(CapacityBudget, RoundsDownToTheGranule)
{
    ProbeOptions o = suite(Suite::standard);
    o.memory_limit = parse_memory_limit("100000000");
    EXPECT_EQ(plan_capacity_budget(card(100 * GiB), o).bytes, 94 * MiB);
}

TEST(CapacityBudget, UsesTheHeapBudgetWhenTheApiReportsNoFreeMemory)
{
    DeviceRecord d = card(0);
    d.info.heaps[1].budget_bytes = 20 * GiB;
    const CapacityBudget b = plan_capacity_budget(d, suite(Suite::standard));
    EXPECT_EQ(b.reported_free, 20 * GiB);
    EXPECT_EQ(b.bytes, 19 * GiB);
}

TEST(CapacityBudget, RefusesToGuessOnADeviceThatReportsNoMemory)
{
    DeviceRecord d = card(0);
    d.info.known = 0;
    d.info.heaps[0].bytes = d.info.heaps[1].bytes = 0;
    EXPECT_THROW(plan_capacity_budget(d, suite(Suite::standard)), RunError);
    ProbeOptions o = suite(Suite::standard);
    o.memory_limit = parse_memory_limit("10%");
    EXPECT_THROW(plan_capacity_budget(d, o), RunError);
    o.memory_limit = parse_memory_limit("1G");
    EXPECT_EQ(plan_capacity_budget(d, o).bytes, 1 * GiB);
}

TEST(CapacityBudget, RefusesADeviceWithNoKindDeviceOperationsCanReach)
{
    DeviceRecord d = card(10 * GiB);
    d.kinds.resize(1);
    EXPECT_THROW(plan_capacity_budget(d, suite(Suite::standard)), RunError);
}

namespace {

// A host or a CPU Vulkan device: its one kind lives in system RAM.
DeviceRecord system_ram(uint64_t free_bytes)
{
    DeviceRecord d;
    d.id = "host:0";
    d.info.struct_size = sizeof d.info;
    d.info.free_memory_bytes = free_bytes;
    d.info.known = VRB_KNOWN_FREE_MEMORY;
    d.kinds.push_back(
        kind("pageable",
             VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_HOST_VISIBLE, 0));
    return d;
}

} // namespace

TEST(CapacityBudget, SystemRamGetsAQuarterOfItsFreeMemoryByDefaultAndSaysSo)
{
    const CapacityBudget b = plan_capacity_budget(system_ram(20 * GiB), suite(Suite::full));
    // The share is a quarter; a thirty-second of it is kept for what the run holds beside
    // its buffers.
    EXPECT_EQ(b.bytes + b.host_reserve, 5 * GiB);
    EXPECT_EQ(b.host_reserve, 160 * MiB);
    EXPECT_NE(b.rule.find("system RAM"), std::string::npos) << b.rule;
    EXPECT_NE(b.rule.find("160 MiB is kept for what the run holds beside its buffers"), std::string::npos) << b.rule;
}

TEST(CapacityBudget, ASmallShareOfSystemRamKeeps32MiBForWhatTheRunHoldsBesideItsBuffers)
{
    // lavapipe's 2 GiB: a quarter is 512 MiB, whose thirty-second (16 MiB) a worker passed.
    const CapacityBudget b = plan_capacity_budget(system_ram(2 * GiB), suite(Suite::standard));
    EXPECT_EQ(b.bytes + b.host_reserve, 512 * MiB);
    EXPECT_EQ(b.host_reserve, 32 * MiB);
}

TEST(CapacityBudget, SystemRamGetsAtMost8GiBByDefault)
{
    const CapacityBudget b = plan_capacity_budget(system_ram(200 * GiB), suite(Suite::full));
    EXPECT_EQ(b.bytes + b.host_reserve, 8 * GiB);
}

TEST(CapacityBudget, SystemRamGetsAtMost2GiBInTheStandardSuiteAndSaysSo)
{
    const CapacityBudget b = plan_capacity_budget(system_ram(200 * GiB), suite(Suite::standard));
    EXPECT_EQ(b.bytes + b.host_reserve, 2 * GiB);
    EXPECT_EQ(b.host_reserve, 64 * MiB);
    EXPECT_NE(b.rule.find("2 GiB in the standard suite"), std::string::npos) << b.rule;
}

TEST(CapacityBudget, DeviceMemoryIsNotCappedLikeSystemRamInTheStandardSuite)
{
    EXPECT_EQ(plan_capacity_budget(card(100 * GiB), suite(Suite::standard)).bytes, 95 * GiB);
}

TEST(CapacityBudget, MemoryLimitOfAllTheFreeReachesEverySystemRamByte)
{
    ProbeOptions o = suite(Suite::standard);
    o.memory_limit = parse_memory_limit("100%");
    EXPECT_EQ(plan_capacity_budget(system_ram(20 * GiB), o).bytes, 20 * GiB);
    EXPECT_EQ(plan_capacity_budget(system_ram(20 * GiB), o).host_reserve, 0u) << "a limit is allocated as asked";
}

TEST(CapacityBudget, DeviceMemoryKeepsItsMarginRuleWithoutTheSystemRamCap)
{
    EXPECT_EQ(plan_capacity_budget(card(100 * GiB), suite(Suite::standard)).bytes, 95 * GiB);
}
