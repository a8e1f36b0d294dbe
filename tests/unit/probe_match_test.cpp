#include <vrambench/core/probes/probe.hpp>

#include <gtest/gtest.h>

TEST(ProbeMatches, MatchesExactIdsAndStarPatterns)
{
    EXPECT_TRUE(vrb::probe_matches("bandwidth.stream", "bandwidth.stream"));
    EXPECT_TRUE(vrb::probe_matches("bandwidth.stream", "bandwidth.*"));
    EXPECT_TRUE(vrb::probe_matches("bandwidth.stream", "*"));
    EXPECT_TRUE(vrb::probe_matches("bandwidth.stream", "*.str*"));
    EXPECT_FALSE(vrb::probe_matches("bandwidth.stream", "latency.*"));
    EXPECT_FALSE(vrb::probe_matches("bandwidth.stream", "bandwidth"));
}

TEST(ProbeMatches, EveryProbeHasAUniqueIdAndASummary)
{
    std::set<std::string> ids;
    for (const auto &probe : vrb::all_probes()) {
        EXPECT_TRUE(ids.insert(std::string(probe->id())).second) << probe->id();
        EXPECT_FALSE(probe->summary().empty());
    }
    EXPECT_TRUE(ids.count("bandwidth.stream"));
}
