// The curve and pattern probes on the host backend, end to end through the core.
#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

namespace {

struct Host {
    vrb::BackendEntry entry = vrb::open_backend(VRAMBENCH_HOST_MODULE);
    std::unique_ptr<vrb::Device> device;
    vrb::DeviceRecord record;
    Host()
    {
        if (entry.state != vrb::BackendEntry::State::available) return;
        device = entry.backend->open(0);
        record = vrb::describe_device(*entry.backend, device.get(), 0);
    }
};

Host &host()
{
    static Host h;
    return h;
}

const vrb::Probe &probe(std::string_view id)
{
    for (const auto &p : vrb::all_probes())
        if (p->id() == id) return *p;
    throw std::runtime_error("no probe " + std::string(id));
}

std::vector<vrb::ProbeResult> run(std::string_view id, vrb::ProbeOptions options)
{
    Host &h = host();
    std::vector<vrb::ProbeResult> results;
    vrb::ProbeContext ctx{
        *h.device, h.record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
    probe(id).run(ctx);
    return results;
}

vrb::ProbeOptions quick(uint64_t size)
{
    vrb::ProbeOptions o;
    o.suite = vrb::Suite::quick;
    o.size = size; // the quick plan, kept small so the whole suite stays fast
    return o;
}

const nlohmann::json &curve_of(const vrb::ProbeResult &r)
{
    return r.extra.at("curve");
}

class HostProbes : public ::testing::TestWithParam<const char *> {
  protected:
    void SetUp() override
    {
        if (host().entry.state != vrb::BackendEntry::State::available)
            GTEST_SKIP() << "host backend unavailable: " << host().entry.reason;
    }
};

} // namespace

TEST_P(HostProbes, RunTheirQuickPlanAndVerifyEveryResult)
{
    const auto results = run(GetParam(), quick(8 << 20));
    ASSERT_FALSE(results.empty());
    for (const auto &r : results) {
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed)
            << r.probe << " " << r.parameters.dump() << ": " << r.verification.detail << " " << r.error.value_or("");
        EXPECT_TRUE(r.status == vrb::ProbeResult::Status::ok || r.status == vrb::ProbeResult::Status::suspect)
            << r.probe << " " << vrb::to_string(r.status) << ": " << r.error.value_or("");
        ASSERT_TRUE(r.value.has_value()) << r.probe;
        EXPECT_GT(*r.value, 0) << r.probe;
        EXPECT_FALSE(r.samples.empty()) << r.probe;
        if (r.extra.is_object() && r.extra.contains("curve")) {
            for (const auto &p : curve_of(r).at("points"))
                EXPECT_FALSE(p.at("samples").empty()) << r.probe;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryCurveAndPatternProbe, HostProbes,
                         ::testing::Values("bandwidth.sweep", "latency.chase", "pattern.stride", "pattern.alignment",
                                           "pattern.gather", "pattern.vector", "memory.kinds", "bandwidth.transfer"));

// The headline is the slowest offset, so a misaligned copy's cost is the figure read
// first; the aligned figure stands beside it.
TEST_F(HostProbes, AlignmentsHeadlineIsItsSlowestOffsetWithTheAlignedFigureBesideIt)
{
    const auto results = run("pattern.alignment", quick(1 << 20));
    ASSERT_EQ(results.size(), 2u);
    for (const auto &r : results) {
        ASSERT_TRUE(r.value) << r.parameters.dump();
        double slowest = 0, aligned = 0, at = -1;
        for (const auto &p : curve_of(r).at("points")) {
            const double v = p.at("value").get<double>();
            if (at < 0 || v < slowest) std::tie(slowest, at) = std::pair{v, p.at("offset_bytes").get<double>()};
            if (p.at("offset_bytes").get<double>() == 0) aligned = v;
        }
        EXPECT_DOUBLE_EQ(*r.value, slowest) << r.extra.dump();
        EXPECT_EQ(r.extra.at("headline"), "the slowest offset");
        EXPECT_DOUBLE_EQ(r.extra.at("headline_offset_bytes").get<double>(), at);
        EXPECT_DOUBLE_EQ(r.extra.at("aligned_gb_per_s").get<double>(), aligned);
        EXPECT_DOUBLE_EQ(r.extra.at("slowest_to_aligned").get<double>(), slowest / aligned);
    }
}

TEST_F(HostProbes, SweepFindsCachePlateausNearTheCacheSizesTheOsReports)
{
#if defined(VRAMBENCH_SANITIZED)
    GTEST_SKIP() << "cache and latency shapes are not measured in a sanitizer build: instrumentation changes them";
#endif
    // Past the caches this machine's cores really reach; the best run of each point,
    // so a busy machine's stalls do not make steps.
    auto options = quick(256 << 20);
    options.estimator = vrb::Estimator::max;
    const auto results = run("bandwidth.sweep", options);
    const auto &info = host().record.info;
    ASSERT_GT(info.cache_count, 0u) << "the host reports no caches";
    bool near_a_cache = false;
    std::size_t most_plateaus = 0;
    std::string seen;
    for (const auto &r : results) {
        const auto &plateaus = curve_of(r).at("plateaus");
        most_plateaus = std::max(most_plateaus, plateaus.size());
        seen += r.parameters.at("operation").get<std::string>() + ": " + plateaus.dump() + "\n";
        for (std::size_t k = 0; k + 1 < plateaus.size(); ++k) {
            const double end = plateaus[k].at("ends_at").get<double>();
            // One cache instance, or one per worker for caches private to a core.
            for (uint32_t c = 0; c < info.cache_count; ++c)
                for (double instances : {1.0, static_cast<double>(info.compute_units)}) {
                    const double size = static_cast<double>(info.caches[c].bytes) * instances;
                    if (end >= size / 2 && end <= size * 2) near_a_cache = true;
                }
        }
    }
    EXPECT_GE(most_plateaus, 2u) << seen;
    EXPECT_TRUE(near_a_cache) << seen;
}

TEST_F(HostProbes, ChaseFindsMemoryLatencyAtLeastFiveTimesL1Latency)
{
#if defined(VRAMBENCH_SANITIZED)
    GTEST_SKIP() << "cache and latency shapes are not measured in a sanitizer build: instrumentation changes them";
#endif
    auto options = quick(64 << 20);
    options.estimator = vrb::Estimator::min;
    options.repetitions = 20; // a run descheduled by the machine's other work is not the minimum
    const auto results = run("latency.chase", options);
    ASSERT_EQ(results.size(), 1u);
    // The smallest working set lives in L1, the largest (64 MiB) past every cache these
    // cores reach. Points, not plateaus: a busy machine can blur a plateau's edge, not
    // a 5x gap between the two ends.
    const auto &points = curve_of(results[0]).at("points");
    ASSERT_GE(points.size(), 2u);
    const double first = points.front().at("value").get<double>();
    const double last = points.back().at("value").get<double>();
    EXPECT_GE(last, 5 * first) << points.dump();
    EXPECT_FALSE(curve_of(results[0]).at("plateaus").empty());
}

TEST_F(HostProbes, StrideOneReadsFasterThanStrideSixtyFour)
{
#if defined(VRAMBENCH_SANITIZED)
    GTEST_SKIP() << "cache and latency shapes are not measured in a sanitizer build: instrumentation changes them";
#endif
    auto options = quick(256 << 20); // a 64 MiB buffer: past the caches
    options.estimator = vrb::Estimator::max;
    const auto results = run("pattern.stride", options);
    ASSERT_EQ(results.size(), 1u);
    double one = 0, sixty_four = 0;
    for (const auto &p : curve_of(results[0]).at("points")) {
        if (p.at("stride_elements").get<double>() == 1) one = p.at("value").get<double>();
        if (p.at("stride_elements").get<double>() == 64) sixty_four = p.at("value").get<double>();
    }
    ASSERT_GT(sixty_four, 0) << "stride 64 was not measured";
    EXPECT_GT(one, sixty_four);
}

TEST_F(HostProbes, RefuseASweepRangeThatEndsBeforeItStarts)
{
    EXPECT_THROW(run("bandwidth.sweep", quick(1024)), vrb::UsageError);
    EXPECT_THROW(run("latency.chase", quick(1024)), vrb::UsageError);
}

TEST_F(HostProbes, StreamRunsLastAtLeastAMillisecondByMakingPassesInsideEachRun)
{
    // One pass over 256 KiB takes microseconds: each run must make many.
    const auto results = run("bandwidth.stream", quick(256 << 10));
    ASSERT_EQ(results.size(), 7u);
    for (const auto &r : results) {
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed)
            << r.parameters.dump() << ": " << r.verification.detail;
        EXPECT_GT(r.parameters.at("passes").get<uint32_t>(), 1u) << r.parameters.dump();
        for (double s : r.seconds)
            EXPECT_GE(s, 1e-3) << r.parameters.dump();
        EXPECT_NE(r.byte_counting.value_or("").find("times the passes each run made"), std::string::npos);
        EXPECT_EQ(r.bytes_per_run.value_or(0) % r.parameters.at("passes").get<uint64_t>(), 0u);
    }
}
