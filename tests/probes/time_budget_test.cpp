// The standard suite's time budget per device: what a plan gives up to keep it
// (repetitions, then points), what it never gives up (sizes), and where it is recorded.
#include "../unit/described_device.hpp"
#include "curve_plan.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <gtest/gtest.h>

#include <algorithm>

using vrb::MiB;

namespace {

std::vector<const vrb::Probe *> budgeted_probes()
{
    std::vector<const vrb::Probe *> out;
    for (const auto &p : vrb::all_probes())
        out.push_back(p.get());
    return out;
}

// The 2-vCPU Xeon VM of the recorded sets: L1d 48 KiB and L2 2 MiB a core, the
// socket's 480 MiB L3 reported as shared by the two vCPUs; no peak is known.
vrb::DeviceRecord xeon_vm()
{
    vrb::test::Description d;
    d.api = "host";
    d.type = VRB_DEVICE_CPU;
    d.compute_units = 2;
    d.memory_gib = 16;
    d.llc_bytes = 480 * MiB;
    d.llc_level = 3;
    auto r = vrb::test::describe(d);
    r.info.caches[0].shared_by = 2;
    auto add = [&](uint32_t level, uint64_t bytes) {
        vrb_cache_info &c = r.info.caches[r.info.cache_count++];
        c.level = level;
        c.bytes = bytes;
        c.shared_by = 1;
        std::snprintf(c.kind, sizeof c.kind, "data");
    };
    add(1, 48 << 10);
    add(2, 2 * MiB);
    r.kinds[0].flags = VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PAGEABLE;
    return r;
}

const vrb::ProbePlan &budgeted_probe(const vrb::DevicePlan &plan, std::string_view probe)
{
    const auto it =
        std::find_if(plan.probes.begin(), plan.probes.end(), [&](const vrb::ProbePlan &p) { return p.probe == probe; });
    if (it == plan.probes.end()) throw std::runtime_error("no plan for " + std::string(probe));
    return *it;
}

} // namespace

TEST(TimeBudget, AStandardPlanPastItsBudgetGivesUpRepetitionsThenPointsButNoSize)
{
    const vrb::DeviceRecord vm = xeon_vm();
    const vrb::ProbeOptions standard;
    const vrb::DevicePlan full = vrb::plan_device(vm, budgeted_probes(), standard);
    const vrb::DevicePlan kept = vrb::plan_within_budget(vm, budgeted_probes(), standard);
    ASSERT_GT(full.seconds, vrb::standard_budget_seconds) << vrb::plan_text(full);
    EXPECT_EQ(kept.budget_seconds, vrb::standard_budget_seconds);
    EXPECT_EQ(kept.economy, vrb::most_economy);
    EXPECT_DOUBLE_EQ(kept.unbudgeted_seconds, full.seconds);
    EXPECT_LT(kept.seconds, full.seconds * 0.75) << vrb::plan_text(kept);
    // Every size stays where its rule put it.
    for (const char *probe : {"bandwidth.stream", "bandwidth.sweep", "latency.chase", "pattern.stride",
                              "pattern.alignment", "pattern.gather", "pattern.vector", "memory.kinds"})
        for (const char *key :
             {"array_bytes", "to_bytes", "from_bytes", "footprint_bytes", "elements", "largest_footprint_bytes"})
            EXPECT_EQ(budgeted_probe(kept, probe).sizes.value(key, nlohmann::json()),
                      budgeted_probe(full, probe).sizes.value(key, nlohmann::json()))
                << probe << " " << key;
    EXPECT_EQ(budgeted_probe(kept, "bandwidth.sweep").sizes["points"], budgeted_probe(full, "bandwidth.sweep").sizes["points"]);
    // What it gave up: repetitions, alignment offsets and strides.
    vrb::ProbeOptions frugal = standard;
    frugal.economy = kept.economy;
    EXPECT_EQ(vrb::curve_pace(frugal).reps, 3u);
    EXPECT_EQ(vrb::curve_pace(standard).reps, 5u);
    EXPECT_EQ(vrb::plan_stream(vm, frugal).reps, 5u);
    EXPECT_EQ(vrb::plan_stream(vm, standard).reps, 10u);
    EXPECT_LT(budgeted_probe(kept, "pattern.alignment").sizes["offsets"].size(),
              budgeted_probe(full, "pattern.alignment").sizes["offsets"].size() / 2);
    EXPECT_LT(budgeted_probe(kept, "pattern.stride").sizes["strides"].size(),
              budgeted_probe(full, "pattern.stride").sizes["strides"].size());
    EXPECT_NE(vrb::plan_text(kept).find("time budget 90 s: estimated"), std::string::npos);
    EXPECT_NE(vrb::plan_text(kept).find("with fewer repetitions and points"), std::string::npos);
}

TEST(TimeBudget, APlanWithinItsBudgetGivesUpNothing)
{
    for (const auto &described : {vrb::test::h200(), vrb::test::mi300x()}) {
        const auto device = vrb::test::describe(described);
        const vrb::DevicePlan plan = vrb::plan_within_budget(device, budgeted_probes(), {});
        EXPECT_EQ(plan.economy, 0u) << vrb::plan_text(plan);
        EXPECT_LE(plan.seconds, vrb::standard_budget_seconds);
        EXPECT_DOUBLE_EQ(plan.seconds, vrb::plan_device(device, budgeted_probes(), {}).seconds);
        const auto recorded = vrb::budget_json(plan);
        ASSERT_TRUE(recorded);
        EXPECT_EQ((*recorded)["given_up"], "nothing");
        EXPECT_EQ((*recorded)["kept"], true);
    }
}

TEST(TimeBudget, StopsAtTheFirstEconomyThatKeepsTheBudget)
{
    const vrb::DeviceRecord vm = xeon_vm();
    vrb::ProbeOptions o;
    vrb::ProbeOptions fewer_reps;
    fewer_reps.economy = 1;
    const double at_one = vrb::plan_device(vm, budgeted_probes(), fewer_reps).seconds;
    o.device_budget_seconds = at_one + 1;
    const vrb::DevicePlan plan = vrb::plan_within_budget(vm, budgeted_probes(), o);
    EXPECT_EQ(plan.economy, 1u);
    EXPECT_EQ(vrb::economy_text(plan.economy), "fewer repetitions");
}

TEST(TimeBudget, TheQuickAndFullSuitesAndABudgetOfNoneKeepNone)
{
    const vrb::DeviceRecord vm = xeon_vm();
    for (const vrb::Suite suite : {vrb::Suite::quick, vrb::Suite::full}) {
        vrb::ProbeOptions o;
        o.suite = suite;
        const vrb::DevicePlan plan = vrb::plan_within_budget(vm, budgeted_probes(), o);
        EXPECT_EQ(plan.economy, 0u);
        EXPECT_FALSE(vrb::budget_json(plan));
    }
    vrb::ProbeOptions none;
    none.device_budget_seconds = 0;
    const vrb::DevicePlan plan = vrb::plan_within_budget(vm, budgeted_probes(), none);
    EXPECT_EQ(plan.economy, 0u);
    EXPECT_FALSE(vrb::budget_json(plan));
    EXPECT_NE(vrb::plan_text(plan).find("no time budget"), std::string::npos);
}
