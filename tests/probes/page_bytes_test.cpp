// The page size a module says a probe's buffers lay in (vrb_op_output.page_bytes, ABI 1.7)
// reaches the results: the chase and the sweep as the smallest over their points, the
// stream per result; a module that does not say, or says it past its struct_size, adds
// no parameter.
#include "curve.hpp"

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include "cache_model_runs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

// `id` run on the model over 1 MiB buffers (no growth), its page size `page_bytes` (null:
// unset), answering as a module of ABI 1.6 where `as_1_6`.
std::vector<vrb::ProbeResult> run_paged(std::string_view id, const char *page_bytes, bool as_1_6 = false)
{
    return vrb::test::run_on_cache_model(
        id, {{"VRAMBENCH_MOCK_PAGE_BYTES", page_bytes}, {"VRAMBENCH_MOCK_OUTPUT_1_6", as_1_6 ? "1" : nullptr}});
}

class PageBytes : public vrb::test::CacheModelTest {};

} // namespace

TEST_F(PageBytes, AChaseRecordsThePageSizeItsModuleReportedInItsParametersAndEachPoint)
{
    const auto results = run_paged("latency.chase", "2097152");
    ASSERT_EQ(results.size(), 1u);
    const vrb::ProbeResult &r = results.front();
    EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << r.verification.detail;
    ASSERT_TRUE(r.parameters.contains("page_bytes")) << r.parameters.dump();
    EXPECT_EQ(r.parameters.at("page_bytes"), 2097152u);
    for (const auto &p : r.extra.at("curve").at("points"))
        EXPECT_EQ(p.value("page_bytes", uint64_t{0}), 2097152u) << p.dump();
}

TEST_F(PageBytes, AChaseOfAModuleThatDoesNotKnowItsPagesHasNoPageBytesParameter)
{
    const auto results = run_paged("latency.chase", nullptr);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_FALSE(results.front().parameters.contains("page_bytes")) << results.front().parameters.dump();
    EXPECT_EQ(results.front().verification.status, vrb::Verification::Status::passed);
}

TEST_F(PageBytes, AnOlderModulesOutputEndingBeforePageBytesIsReadAsNotKnowingThem)
{
    // The bytes past its struct_size hold 4096, which is none of its answer.
    const auto results = run_paged("latency.chase", "4096", true);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_FALSE(results.front().parameters.contains("page_bytes")) << results.front().parameters.dump();
    EXPECT_EQ(results.front().verification.status, vrb::Verification::Status::passed);
}

TEST_F(PageBytes, EveryStreamResultRecordsThePageSizeOfItsRuns)
{
    const auto results = run_paged("bandwidth.stream", "4096");
    ASSERT_FALSE(results.empty());
    for (const auto &r : results) {
        if (r.status == vrb::ProbeResult::Status::skipped) continue;
        EXPECT_EQ(r.parameters.value("page_bytes", uint64_t{0}), 4096u) << r.parameters.dump();
    }
    for (const auto &r : run_paged("bandwidth.stream", nullptr))
        EXPECT_FALSE(r.parameters.contains("page_bytes")) << r.parameters.dump();
}

TEST_F(PageBytes, EachSweepCurveRecordsThePageSizeOfItsPoints)
{
    const auto results = run_paged("bandwidth.sweep", "65536");
    ASSERT_EQ(results.size(), 3u);
    for (const auto &r : results) {
        EXPECT_EQ(r.parameters.value("page_bytes", uint64_t{0}), 65536u) << r.parameters.dump();
        for (const auto &p : r.extra.at("curve").at("points"))
            EXPECT_EQ(p.value("page_bytes", uint64_t{0}), 65536u) << p.dump();
    }
    for (const auto &r : run_paged("bandwidth.sweep", nullptr))
        EXPECT_FALSE(r.parameters.contains("page_bytes")) << r.parameters.dump();
}

TEST(PageSizes, AreTheSmallestAnyRunSaidAndIgnoreRunsThatSaidNone)
{
    vrb::PageSizes pages;
    vrb::ProbeResult r;
    pages.record(r);
    EXPECT_FALSE(r.parameters.contains("page_bytes")) << "no run said a page size";
    for (uint64_t said : {uint64_t{2} << 20, uint64_t{0}, uint64_t{4096}, uint64_t{2} << 20})
        pages.add(said);
    EXPECT_EQ(pages.smallest(), 4096u);
    pages.record(r);
    EXPECT_EQ(r.parameters.at("page_bytes"), 4096u);
}
