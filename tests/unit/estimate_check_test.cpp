// Each probe's wall time against its plan's estimate, as a result set records them.
#include <vrambench/core/run/estimate_check.hpp>

#include <gtest/gtest.h>

namespace {

nlohmann::json result(const std::string &probe, double probe_seconds, nlohmann::json estimate)
{
    return {{"probe", probe},
            {"device", "host:0"},
            {"extra",
             {{"wall_time",
               {{"seconds", probe_seconds}, {"probe_seconds", probe_seconds}, {"probe_estimate_seconds", estimate}}}}}};
}

} // namespace

TEST(EstimateCheck, AProbeTakesTheTimeOfItsLastResult)
{
    const nlohmann::json doc = {{"results",
                                 {result("latency.chase", 10, 40.0),
                                  result("latency.chase", 120, 40.0),
                                  result("bandwidth.stream", 2, 3.0),
                                  {{"probe", "old"}, {"device", "host:0"}}}}};
    const auto times = vrb::probe_wall_times(doc);
    ASSERT_EQ(times.size(), 2u) << "a result without a wall time is no probe's time";
    EXPECT_EQ(times[0].probe, "latency.chase");
    EXPECT_DOUBLE_EQ(times[0].seconds, 120);
    EXPECT_DOUBLE_EQ(*times[0].estimate, 40);
}

TEST(EstimateCheck, WarnsOfAProbeOverThreeTimesItsEstimateAndOfNoOtherOne)
{
    const nlohmann::json doc = {{"results",
                                 {result("latency.chase", 121, 40.0),    // 3.03 x
                                  result("pattern.gather", 119, 40.0),   // 2.98 x
                                  result("capacity.report", 0.4, 0.0),   // too short to judge
                                  result("interop.sync", 2, nullptr)}}}; // no estimate to judge by
    const auto warnings = vrb::estimate_warnings(doc);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("latency.chase on host:0 took 121.0 s, 3.0 x its plan's 40.00 s estimate"),
              std::string::npos)
        << warnings[0];
}
