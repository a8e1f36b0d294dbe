// The two ways a device copies within itself, on the cache-model module
// (tests/mock/cache_model_plugin.cpp), whose copy engine moves 3 GB/s of traffic and whose
// COPY kernel 1 GB/s past its cache: bandwidth.stream sets its copy beside the driver's
// (extra.driver_copy), and bandwidth.transfer waives a route by the compute units that the
// module declines or does not know, in the module's words or in what it did instead.
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include "cache_model_runs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

// `id` on the model over 1 MiB (past its 1 MiB cache once a copy's two arrays count), its
// copy engine as VRAMBENCH_MOCK_COPY says (null: unset).
std::vector<vrb::ProbeResult> run_copying(std::string_view id, const char *copy)
{
    return vrb::test::run_on_cache_model(id, {{"VRAMBENCH_MOCK_COPY", copy}});
}

std::vector<const vrb::ProbeResult *> stream_copies(const std::vector<vrb::ProbeResult> &results)
{
    std::vector<const vrb::ProbeResult *> copies;
    for (const auto &r : results)
        if (r.parameters.value("operation", "") == "copy") copies.push_back(&r);
    return copies;
}

std::vector<const vrb::ProbeResult *> routes_by(const std::vector<vrb::ProbeResult> &results, const char *engine)
{
    std::vector<const vrb::ProbeResult *> routes;
    for (const auto &r : results)
        if (r.parameters.value("engine", "") == engine) routes.push_back(&r);
    return routes;
}

class CopyRoutes : public vrb::test::CacheModelTest {};

} // namespace

TEST_F(CopyRoutes, StreamCopyRecordsTheDriversCopyTrafficBesideItsOwnAndTheirRatio)
{
    const auto results = run_copying("bandwidth.stream", "engine");
    const auto copies = stream_copies(results);
    ASSERT_FALSE(copies.empty());
    for (const vrb::ProbeResult *r : copies) {
        SCOPED_TRACE(r->parameters.dump());
        ASSERT_EQ(r->verification.status, vrb::Verification::Status::passed) << r->verification.detail;
        ASSERT_TRUE(r->value);
        EXPECT_NEAR(*r->value, 1.0, 1e-9); // the model's COPY kernel past its cache
        ASSERT_TRUE(r->extra.contains("driver_copy")) << r->extra.dump();
        const nlohmann::json &driver = r->extra.at("driver_copy");
        EXPECT_EQ(driver.at("operation"), "transfer");
        EXPECT_EQ(driver.at("engine"), "ce");
        EXPECT_EQ(driver.at("array_bytes"), r->parameters.at("array_bytes"));
        // Read once and written once, as COPY is counted: the engine's 3 GB/s of traffic.
        EXPECT_NEAR(driver.at("traffic_gb_per_s").get<double>(), 3.0, 1e-9) << driver.dump();
        EXPECT_GE(driver.at("passes").get<uint32_t>(), 1u);
        EXPECT_NEAR(r->extra.at("versus_driver_copy").get<double>(), 1.0 / 3.0, 1e-9);
    }
}

TEST_F(CopyRoutes, StreamCopyWithoutADriverCopyRecordsTheModulesWordsAndNoRatio)
{
    const auto results = run_copying("bandwidth.stream", nullptr);
    const auto copies = stream_copies(results);
    ASSERT_FALSE(copies.empty());
    for (const vrb::ProbeResult *r : copies) {
        SCOPED_TRACE(r->parameters.dump());
        // The kernel's own figure stands; only the figure beside it is missing, and why.
        EXPECT_EQ(r->verification.status, vrb::Verification::Status::passed) << r->verification.detail;
        const nlohmann::json &driver = r->extra.at("driver_copy");
        EXPECT_FALSE(driver.contains("traffic_gb_per_s"));
        EXPECT_NE(driver.value("error", "").find("the model device has no copy engine"), std::string::npos)
            << driver.dump();
        EXPECT_FALSE(r->extra.contains("versus_driver_copy"));
    }
}

TEST_F(CopyRoutes, ARouteByTheComputeUnitsTheModuleDeclinesIsWaivedInItsWords)
{
    const auto results = run_copying("bandwidth.transfer", "declines-sm");
    const auto by_units = routes_by(results, "sm");
    ASSERT_FALSE(by_units.empty()) << "a GPU's device memory is copied by its compute units too";
    for (const vrb::ProbeResult *r : by_units) {
        SCOPED_TRACE(r->parameters.dump());
        EXPECT_EQ(r->status, vrb::ProbeResult::Status::waived) << r->error.value_or("");
        EXPECT_NE(r->error.value_or("").find("compute units copy nothing"), std::string::npos) << r->error.value_or("");
        EXPECT_NE(r->verification.status, vrb::Verification::Status::failed);
    }
    // The engine's routes ran and verified beside them.
    const auto by_engine = routes_by(results, "ce");
    ASSERT_FALSE(by_engine.empty());
    for (const vrb::ProbeResult *r : by_engine)
        EXPECT_EQ(r->verification.status, vrb::Verification::Status::passed) << r->parameters.dump();
}

TEST_F(CopyRoutes, ARouteByTheComputeUnitsTheModuleCopiedWithItsEngineIsWaivedNotCountedAsTheUnits)
{
    const auto results = run_copying("bandwidth.transfer", "engine");
    const auto by_units = routes_by(results, "sm");
    ASSERT_FALSE(by_units.empty());
    for (const vrb::ProbeResult *r : by_units) {
        SCOPED_TRACE(r->parameters.dump());
        EXPECT_EQ(r->status, vrb::ProbeResult::Status::waived) << r->error.value_or("");
        EXPECT_NE(r->error.value_or("").find("copied with its copy engine"), std::string::npos)
            << r->error.value_or("");
        EXPECT_FALSE(r->value) << "the engine's figure must not pass for the compute units'";
    }
}
