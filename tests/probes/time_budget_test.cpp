// The standard suite's time budget per device: what a plan gives up to keep it
// (repetitions, then points, then sizes) and where it is recorded.
#include "curve_plan.hpp"
#include "planned_devices.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <gtest/gtest.h>

#include <algorithm>

using vrb::test::every_probe;
using vrb::test::planned;

TEST(TimeBudget, AStandardPlanPastItsBudgetGivesUpRepetitionsThenPointsThenSizes)
{
    const vrb::DeviceRecord vm = vrb::test::intel_two_vcpu_vm();
    const vrb::ProbeOptions standard;
    const vrb::DevicePlan full = vrb::plan_device(vm, every_probe(), standard);
    vrb::ProbeOptions points = standard;
    points.economy = 2;
    const vrb::DevicePlan fewer = vrb::plan_device(vm, every_probe(), points);
    ASSERT_GT(full.seconds, vrb::standard_budget_seconds) << vrb::plan_text(full);
    EXPECT_LT(fewer.seconds, full.seconds * 0.75) << vrb::plan_text(fewer);
    // Repetitions and points go before any size: each stays where its rule put it.
    for (const char *probe : {"bandwidth.stream", "bandwidth.sweep", "latency.chase", "pattern.stride",
                              "pattern.alignment", "pattern.gather", "pattern.vector", "memory.kinds"})
        for (const char *key :
             {"array_bytes", "to_bytes", "from_bytes", "footprint_bytes", "elements", "largest_footprint_bytes"})
            EXPECT_EQ(planned(fewer, probe).sizes.value(key, nlohmann::json()),
                      planned(full, probe).sizes.value(key, nlohmann::json()))
                << probe << " " << key;
    EXPECT_EQ(planned(fewer, "bandwidth.sweep").sizes["points"], planned(full, "bandwidth.sweep").sizes["points"]);
    // What it gave up: repetitions, alignment offsets and strides.
    EXPECT_EQ(vrb::curve_pace(points).reps, 3u);
    EXPECT_EQ(vrb::curve_pace(standard).reps, 5u);
    EXPECT_EQ(vrb::plan_stream(vm, points).reps, 5u);
    EXPECT_EQ(vrb::plan_stream(vm, standard).reps, 10u);
    EXPECT_LT(planned(fewer, "pattern.alignment").sizes["offsets"].size(),
              planned(full, "pattern.alignment").sizes["offsets"].size() / 2);
    EXPECT_LT(planned(fewer, "pattern.stride").sizes["strides"].size(),
              planned(full, "pattern.stride").sizes["strides"].size());
    // Still past the budget (here the RAM budget's smaller arrays already keep 90 s, so
    // a tighter one): sizes go too, and the plan says which.
    vrb::ProbeOptions tight = standard;
    tight.device_budget_seconds = 30;
    const vrb::DevicePlan kept = vrb::plan_within_budget(vm, every_probe(), tight);
    EXPECT_EQ(kept.budget_seconds, 30);
    EXPECT_EQ(kept.economy, vrb::most_economy);
    EXPECT_LE(kept.seconds, 30) << vrb::plan_text(kept);
    EXPECT_NE(vrb::plan_text(kept).find("time budget 30 s: estimated"), std::string::npos);
    EXPECT_NE(vrb::plan_text(kept).find("with fewer repetitions, points and sizes"), std::string::npos);
    EXPECT_NE(vrb::plan_text(kept).find("sizes given up:"), std::string::npos);
}

TEST(TimeBudget, APlanWithinItsBudgetGivesUpNothing)
{
    for (const auto &described : {vrb::test::h200(), vrb::test::mi300x()}) {
        const auto device = vrb::test::describe(described);
        const vrb::DevicePlan plan = vrb::plan_within_budget(device, every_probe(), {});
        EXPECT_EQ(plan.economy, 0u) << vrb::plan_text(plan);
        EXPECT_LE(plan.seconds, vrb::standard_budget_seconds);
        EXPECT_DOUBLE_EQ(plan.seconds, vrb::plan_device(device, every_probe(), {}).seconds);
        const auto recorded = vrb::budget_json(plan);
        ASSERT_TRUE(recorded);
        EXPECT_EQ((*recorded)["given_up"], "nothing");
        EXPECT_EQ((*recorded)["kept"], true);
    }
}

TEST(TimeBudget, StopsAtTheFirstEconomyThatKeepsTheBudget)
{
    // A GPU's: its memory is its own, so no RAM budget caps its arrays first.
    const vrb::DeviceRecord h200 = vrb::test::describe(vrb::test::h200());
    vrb::ProbeOptions o;
    vrb::ProbeOptions fewer_reps;
    fewer_reps.economy = 1;
    const double at_zero = vrb::plan_device(h200, every_probe(), o).seconds;
    const double at_one = vrb::plan_device(h200, every_probe(), fewer_reps).seconds;
    ASSERT_LT(at_one, at_zero);
    o.device_budget_seconds = (at_one + at_zero) / 2;
    const vrb::DevicePlan plan = vrb::plan_within_budget(h200, every_probe(), o);
    EXPECT_EQ(plan.economy, 1u);
    EXPECT_EQ(vrb::economy_text(plan.economy), "fewer repetitions");
}

TEST(TimeBudget, TheQuickAndFullSuitesAndABudgetOfNoneKeepNone)
{
    const vrb::DeviceRecord vm = vrb::test::intel_two_vcpu_vm();
    for (const vrb::Suite suite : {vrb::Suite::quick, vrb::Suite::full}) {
        vrb::ProbeOptions o;
        o.suite = suite;
        const vrb::DevicePlan plan = vrb::plan_within_budget(vm, every_probe(), o);
        EXPECT_EQ(plan.economy, 0u);
        EXPECT_FALSE(vrb::budget_json(plan));
    }
    vrb::ProbeOptions none;
    none.device_budget_seconds = 0;
    const vrb::DevicePlan plan = vrb::plan_within_budget(vm, every_probe(), none);
    EXPECT_EQ(plan.economy, 0u);
    EXPECT_FALSE(vrb::budget_json(plan));
    EXPECT_NE(vrb::plan_text(plan).find("no time budget"), std::string::npos);
}
