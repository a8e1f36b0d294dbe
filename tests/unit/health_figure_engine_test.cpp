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
