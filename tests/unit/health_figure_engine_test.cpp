// Which transfers health judges: the copy engine's, as every reference was measured, and
// a result from before transfers named their engine is the copy engine's.
#include <vrambench/core/health/figure.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json transfer(const char *engine)
{
    nlohmann::json r = {{"probe", "bandwidth.transfer"},
                        {"unit", "GB/s"},
                        {"status", "failed"}, // a route with no curve: judged by its status
                        {"parameters", {{"direction", "device-to-device"}}}};
    if (engine) r["parameters"]["engine"] = engine;
    return r;
}

} // namespace

TEST(HealthFigure, ATransferWithoutAnEngineOrByTheCopyEngineIsJudgedAndOneByTheSmsIsNot)
{
    EXPECT_TRUE(vrb::health::health_figure(transfer(nullptr)).has_value());
    EXPECT_TRUE(vrb::health::health_figure(transfer("ce")).has_value());
    EXPECT_FALSE(vrb::health::health_figure(transfer("sm")).has_value());
}

TEST(HealthFigure, AChaseThatStayedInsideTheCachesIsNotJudgedNorAFailureAndOneThatReachedMemoryIsJudgedThere)
{
    nlohmann::json chase = {{"probe", "latency.chase"},
                            {"status", "ok"},
                            {"unit", "ns"},
                            {"value", 15.2},
                            {"parameters", {{"operation", "chase"}}},
                            {"extra",
                             {{"curve",
                               {{"x", "working_set_bytes"},
                                {"plateaus",
                                 {{{"name", "L1"}, {"value", 1.4}, {"from", 4096}, {"to", 32768}},
                                  {{"name", "past L3"}, {"value", 15.2}, {"from", 1 << 20}, {"to", 64 << 20}}}}}}}}};
    EXPECT_FALSE(vrb::health::health_figure(chase));
    chase["extra"]["curve"]["plateaus"][1]["name"] = "memory";
    const auto judged = vrb::health::health_figure(chase);
    ASSERT_TRUE(judged);
    ASSERT_TRUE(judged->value);
    EXPECT_DOUBLE_EQ(*judged->value, 15.2);
    // A chase that failed is the card's failure to measure, not a figure left out.
    chase["status"] = "failed";
    chase["extra"]["curve"]["plateaus"][1]["name"] = "past L3";
    const auto failed = vrb::health::health_figure(chase);
    ASSERT_TRUE(failed);
    EXPECT_FALSE(failed->value);
}
