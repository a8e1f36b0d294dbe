// The report's memory latency: the chase plateau named memory, in sets that name the TLB
// steps after it and in sets published before they did.
#include "../../core/src/publishing/report/figures.hpp"

#include <gtest/gtest.h>

namespace {

nlohmann::json chase_set(nlohmann::json plateaus)
{
    return {{"results",
             {{{"device", "host:0"},
               {"probe", "latency.chase"},
               {"status", "ok"},
               {"value", 430.0},
               {"extra", {{"curve", {{"plateaus", std::move(plateaus)}}}}}}}}};
}

nlohmann::json plateau(const char *name, double value)
{
    return {{"name", name}, {"value", value}};
}

} // namespace

TEST(ReportFigures, MemoryLatencyIsThePlateauNamedMemoryNotTheTranslationStepsAfterIt)
{
    const auto set = chase_set({plateau("L1", 1.3), plateau("L3", 37), plateau("memory", 135),
                                plateau("memory past the TLB", 166), plateau("memory past the TLB (2)", 288)});
    EXPECT_EQ(vrb::report::memory_latency_ns(set, "host:0"), 135.0);
}

TEST(ReportFigures, MemoryLatencyOfASetPublishedBeforeTlbStepsIsItsLastPlateau)
{
    EXPECT_EQ(vrb::report::memory_latency_ns(chase_set({plateau("L1", 1.6), plateau("memory", 172)}), "host:0"), 172.0);
    // A chase that stayed inside the caches has none.
    EXPECT_FALSE(
        vrb::report::memory_latency_ns(chase_set({plateau("L1", 1.6), plateau("past L3", 60)}), "host:0").has_value());
}
