// Curves that grow past their planned sizes where no cache size is known: the rule that
// ends them (growth.hpp), the plans that say so, and the sweep and chase run end to end on
// a module whose run times follow a model of one cache in front of memory.
#include "../sanitized_build.hpp"
#include "curve_plan.hpp"
#include "growth.hpp"
#include "planned_devices.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

vrb::GrowthRule rule(uint64_t most_bytes, double most_seconds = 60)
{
    return vrb::GrowthRule{most_bytes, most_seconds, 0.05, "a quarter of the memory"};
}

// Feeds `growth` the planned sizes and then whatever it asks for, with figure(x) and
// seconds(x), until it ends; the sizes measured.
template <class Figure, class Seconds>
std::vector<uint64_t> grow(vrb::CurveGrowth &growth, std::vector<uint64_t> planned, Figure figure, Seconds seconds)
{
    for (uint64_t x : planned)
        growth.add(x, figure(x), seconds(x));
    while (const auto x = growth.next()) {
        planned.push_back(*x);
        growth.add(*x, figure(*x), seconds(*x));
    }
    return planned;
}

// A bandwidth that is a cache's (300) up to `cache` bytes and memory's (100) from twice it,
// halfway between in the doubling that crosses it.
auto cache_then_memory(uint64_t cache)
{
    return [cache](uint64_t x) -> std::optional<double> { return x <= cache ? 300 : x < 2 * cache ? 180 : 100; };
}

auto quick_points = [](uint64_t) { return 0.01; };

} // namespace

TEST(Growth, StopsWhenTwoPointsTwiceApartAgreeWithinFivePercentAndNamesThem)
{
    vrb::CurveGrowth growth(rule(64ull << 30), 256 * vrb::MiB, 4096);
    const auto sizes =
        grow(growth, {64 * vrb::MiB, 128 * vrb::MiB, 256 * vrb::MiB}, cache_then_memory(300 * vrb::MiB), quick_points);
    // 512 vrb::MiB is in between, 1 GiB is memory, 2 GiB agrees with it.
    EXPECT_EQ(sizes.back(), 2048 * vrb::MiB);
    EXPECT_TRUE(growth.settled());
    EXPECT_EQ(growth.ended_by(), "settled");
    EXPECT_EQ(growth.text(), "grown until two points 2x apart agreed within 5 %: 1 GiB and 2 GiB");
    EXPECT_EQ(growth.to_json()["settled_bytes"], (nlohmann::json{1024 * vrb::MiB, 2048 * vrb::MiB}));
    EXPECT_EQ(growth.to_json()["grown_bytes"], (nlohmann::json{512 * vrb::MiB, 1024 * vrb::MiB, 2048 * vrb::MiB}));
}

TEST(Growth, GrowsAtLeastOnceWhenThePlannedPointsAlreadyAgree)
{
    // The planned points of a flat cache agree with each other: that is no sign of memory,
    // so the curve still doubles past them and compares the new point with the last planned.
    vrb::CurveGrowth growth(rule(64ull << 30), 256 * vrb::MiB, 4096);
    const auto sizes =
        grow(growth, {64 * vrb::MiB, 128 * vrb::MiB, 256 * vrb::MiB}, cache_then_memory(4 * vrb::MiB), quick_points);
    EXPECT_EQ(sizes.back(), 512 * vrb::MiB);
    EXPECT_EQ(growth.text(), "grown until two points 2x apart agreed within 5 %: 256 MiB and 512 MiB");
}

TEST(Growth, AChangeOfMoreThanFivePercentKeepsItGrowing)
{
    // 6 % a doubling never settles; 4 % a doubling settles at the first doubling.
    for (const auto &[step, settles] : {std::pair{1.06, false}, std::pair{1.04, true}}) {
        vrb::CurveGrowth growth(rule(4096 * vrb::MiB), 256 * vrb::MiB, 4096);
        const auto sizes = grow(
            growth, {256 * vrb::MiB},
            [rate = step](uint64_t x) -> std::optional<double> {
                return 100 * std::pow(rate, std::log2(x / (256.0 * vrb::MiB)));
            },
            quick_points);
        EXPECT_EQ(growth.settled(), settles) << step;
        EXPECT_EQ(sizes.back(), settles ? 512 * vrb::MiB : 4096 * vrb::MiB) << step;
    }
}

TEST(Growth, StopsAtTheMemoryCapBeforeTheFigureSettledAndSaysSo)
{
    vrb::CurveGrowth growth(rule(3000 * vrb::MiB), 256 * vrb::MiB, 4096);
    const auto sizes = grow(
        growth, {128 * vrb::MiB, 256 * vrb::MiB},
        [](uint64_t x) -> std::optional<double> { return 1e12 / static_cast<double>(x); }, quick_points);
    EXPECT_EQ(sizes.back(), 2048 * vrb::MiB); // 4 GiB would pass the 3000 vrb::MiB cap
    EXPECT_FALSE(growth.settled());
    EXPECT_EQ(growth.ended_by(), "memory cap");
    EXPECT_EQ(growth.text(), fmt::format("stopped at the cap of {} bytes (2.9 GiB, a quarter of the memory) before "
                                         "the figure settled: 2 GiB was the last point",
                                         3000 * vrb::MiB));
}

TEST(Growth, StopsAtTheTimeCapWhenTheNextPointWouldPassItAndSaysSo)
{
    // Each point takes its GiBs in seconds: 512 vrb::MiB 0.5 s, 1 GiB 1 s, 2 GiB would take 2 s
    // more against a cap of 2 s.
    vrb::CurveGrowth growth(rule(64ull << 30, 2.0), 256 * vrb::MiB, 4096);
    const auto sizes = grow(
        growth, {256 * vrb::MiB}, [](uint64_t x) -> std::optional<double> { return 1e12 / static_cast<double>(x); },
        [](uint64_t x) { return static_cast<double>(x) / (1024.0 * vrb::MiB); });
    EXPECT_EQ(sizes.back(), 1024 * vrb::MiB);
    EXPECT_EQ(growth.ended_by(), "time cap");
    EXPECT_EQ(growth.text(), "stopped at the time cap of 2 s before the figure settled: the grown points took 1.5 s, "
                             "and 2 GiB would take about 2 s more");
}

TEST(Growth, StopsWhereAGrownPointGivesNoFigureOrCannotBeAllocated)
{
    vrb::CurveGrowth failed(rule(64ull << 30), 256 * vrb::MiB, 4096);
    grow(
        failed, {256 * vrb::MiB},
        [](uint64_t x) -> std::optional<double> {
            if (x > 256 * vrb::MiB) return std::nullopt;
            return 1.0;
        },
        quick_points);
    EXPECT_EQ(failed.ended_by(), "no figure");
    EXPECT_EQ(failed.text(), "stopped at 512 MiB before the figure settled: that point gave no figure");

    vrb::CurveGrowth refused(rule(64ull << 30), 256 * vrb::MiB, 4096);
    refused.add(256 * vrb::MiB, 1.0, 0.1);
    ASSERT_EQ(refused.next(), 512 * vrb::MiB);
    refused.refused(512 * vrb::MiB, "out of memory");
    EXPECT_FALSE(refused.next());
    EXPECT_EQ(refused.ended_by(), "allocation");
}

TEST(Growth, ARuleWithNoCapDoesNotGrow)
{
    vrb::CurveGrowth growth(vrb::GrowthRule{}, 256 * vrb::MiB, 4096);
    growth.add(256 * vrb::MiB, 1.0, 0.1);
    EXPECT_FALSE(growth.next());
    EXPECT_EQ(growth.ended_by(), "");
}

namespace {

// A card the device table lacks, whose API reports no cache: a B200-like ID unknown to it.
vrb::test::Description unknown_card(double memory_gib)
{
    vrb::test::Description d;
    d.vendor = 0x10de;
    d.device = 0xffff;
    d.memory_gib = memory_gib;
    d.compute_units = 148;
    return d;
}

std::vector<const vrb::Probe *> curve_probes()
{
    std::vector<const vrb::Probe *> out;
    for (const auto &p : vrb::all_probes())
        if (p->id() == "bandwidth.sweep" || p->id() == "latency.chase") out.push_back(p.get());
    return out;
}

} // namespace

TEST(GrowingPlans, SayTheSweepAndChaseOfACardWithNoKnownCacheAreOpenEndedAndWhatBoundsThem)
{
    const auto device = vrb::test::describe(unknown_card(180));
    ASSERT_EQ(device.last_level_cache_bytes(), 0u);
    const uint64_t quarter = device.info.free_memory_bytes / 4;
    const auto plan = vrb::plan_device(device, curve_probes(), {});
    for (const char *id : {"bandwidth.sweep", "latency.chase"}) {
        const auto &p = vrb::test::planned(plan, id);
        EXPECT_EQ(p.reason, "grow") << id;
        // Planned to the largest cache the table knows (an MI300X's 256 vrb::MiB), then open-ended.
        EXPECT_EQ(p.sizes["to_bytes"].get<uint64_t>(), 256 * vrb::MiB) << id;
        EXPECT_EQ(p.sizes["open_ended"], true) << id;
        EXPECT_EQ(p.sizes["grow_until"], "two points 2x apart agree within 5 %") << id;
        EXPECT_EQ(p.sizes["grow_most_seconds"].get<double>(), 60) << id;
        EXPECT_NE(p.size_rule.find("open-ended past 256 MiB: doubling until two points 2x apart agree within 5 %"),
                  std::string::npos)
            << p.size_rule;
        EXPECT_NE(p.size_rule.find(std::string_view(id) == "latency.chase" ? "as far as the chain's 32-bit links reach"
                                                                           : "a quarter of the 176.4 GiB free"),
                  std::string::npos)
            << p.size_rule;
    }
    EXPECT_EQ(vrb::test::planned(plan, "bandwidth.sweep").sizes["grow_most_bytes"].get<uint64_t>(), quarter);
    // The chase's chain is of 32-bit lane indices: its cap is where they end.
    EXPECT_EQ(vrb::test::planned(plan, "latency.chase").sizes["grow_most_bytes"].get<uint64_t>(), (4ull << 32) - 64);
    // The estimate counts the first doubling: a chase of one more lap, of 512 vrb::MiB.
    const auto text = vrb::plan_text(plan);
    EXPECT_NE(text.find("open_ended=true"), std::string::npos) << text;
    const vrb::CurvePlan chase = vrb::plan_chase(device, {});
    EXPECT_EQ(vrb::first_grown(chase, 64), 512 * vrb::MiB);
    EXPECT_EQ(vrb::chase_warmups(chase, 512 * vrb::MiB, 0), 0u);
}

TEST(GrowingPlans, LeaveACardWithAKnownCacheAndTheQuickChaseAsTheyWere)
{
    const auto h200 = vrb::test::describe(vrb::test::h200());
    for (const auto suite : {vrb::Suite::quick, vrb::Suite::standard, vrb::Suite::full}) {
        vrb::ProbeOptions o;
        o.suite = suite;
        EXPECT_FALSE(vrb::plan_sweep(h200, o).grow);
        EXPECT_FALSE(vrb::plan_chase(h200, o).grow);
    }
    vrb::ProbeOptions quick;
    quick.suite = vrb::Suite::quick;
    const auto unknown = vrb::test::describe(unknown_card(180));
    const vrb::CurvePlan chase = vrb::plan_chase(unknown, quick);
    EXPECT_FALSE(chase.grow);
    EXPECT_EQ(chase.to, 64 * vrb::MiB);
    // --size says where the curve ends, growing or not.
    vrb::ProbeOptions sized;
    sized.size = 64 * vrb::MiB;
    EXPECT_FALSE(vrb::plan_sweep(unknown, sized).grow);
    EXPECT_FALSE(vrb::plan_chase(unknown, sized).grow);
    // A small card's plan stops at a quarter of its cap, so two doublings fit.
    const auto small = vrb::test::describe(unknown_card(2));
    const vrb::CurvePlan sweep = vrb::plan_sweep(small, {});
    EXPECT_EQ(sweep.to, sweep.grow.most_bytes / 4 / 4096 * 4096);
    EXPECT_LE(4 * sweep.to, sweep.grow.most_bytes);
}

namespace {

// The cache-model module (tests/mock/cache_model_plugin.cpp) measured as a card of 256
// vrb::MiB the device table lacks and whose API reports no cache: its plans stop at a
// quarter of their cap (about 15.7 vrb::MiB) and may grow to the cap (about 62.7 vrb::MiB).
struct CacheModel {
    vrb::BackendEntry entry = vrb::open_backend(MOCK_CACHE_MODEL_PATH);
    std::unique_ptr<vrb::Device> device;
    vrb::DeviceRecord record = vrb::test::describe(unknown_card(0.25));
    CacheModel()
    {
        if (entry.state == vrb::BackendEntry::State::available) device = entry.backend->open(0);
    }
};

CacheModel &model()
{
    static CacheModel m;
    return m;
}

class ScopedEnv {
  public:
    ScopedEnv(const char *name, const std::string &value) : name_(name) { ::setenv(name, value.c_str(), 1); }
    ~ScopedEnv() { ::unsetenv(name_); }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    const char *name_;
};

std::vector<vrb::ProbeResult> run_on_model(std::string_view id, vrb::Suite suite)
{
    CacheModel &m = model();
    vrb::ProbeOptions options;
    options.suite = suite;
    std::vector<vrb::ProbeResult> results;
    vrb::ProbeContext ctx{
        *m.device, m.record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
    for (const auto &p : vrb::all_probes())
        if (p->id() == id) p->run(ctx);
    return results;
}

// The 24 vrb::MiB cache lies between the plan's last point and its first doubling.
constexpr uint64_t model_cache = 24 * vrb::MiB;

// Checks a curve that settled past the model's cache: it grew past the cache, stopped
// within two doublings of the first point whose figure is within 5 % of memory's, and
// named its last plateau memory.
void expect_settled_past_the_cache(const vrb::ProbeResult &r)
{
    SCOPED_TRACE(r.probe + " " + r.parameters.value("operation", ""));
    EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << r.verification.detail;
    const auto &points = r.extra.at("curve").at("points");
    const double memory = points.back().at("value").get<double>();
    double settled_at = 0;
    for (const auto &p : points)
        if (std::abs(p.at("value").get<double>() / memory - 1) <= 0.05) {
            settled_at = p.at("working_set_bytes").get<double>();
            break;
        }
    const uint64_t last = r.parameters.at("to_bytes").get<uint64_t>();
    EXPECT_GT(last, model_cache);
    EXPECT_GT(settled_at, static_cast<double>(model_cache));
    EXPECT_LE(static_cast<double>(last), 4 * settled_at);
    const auto &growth = r.extra.at("growth");
    EXPECT_EQ(growth.at("ended_by"), "settled");
    EXPECT_GT(growth.at("grown_bytes").size(), 0u);
    EXPECT_NE(r.parameters.at("size_rule").get<std::string>().find("grown until two points 2x apart agreed within 5 %"),
              std::string::npos)
        << r.parameters.at("size_rule");
    const auto &plateaus = r.extra.at("curve").at("plateaus");
    ASSERT_FALSE(plateaus.empty());
    EXPECT_EQ(plateaus.back().at("name"), "memory") << plateaus.dump();
    EXPECT_GT(plateaus.back().at("from").get<double>(), static_cast<double>(model_cache));
}

class GrowingCurves : public ::testing::Test {
  protected:
    void SetUp() override
    {
        // Whole curves grown to 100 MiB and more, many times slower under the sanitizers:
        // the release build runs them, the sanitized build the growth rule's own tests.
        if (vrb::test::sanitized_build) GTEST_SKIP() << "run by the release build";
        if (model().entry.state != vrb::BackendEntry::State::available)
            GTEST_SKIP() << "cache-model module unavailable: " << model().entry.reason;
        ASSERT_EQ(model().record.last_level_cache_bytes(), 0u);
        const vrb::CurvePlan plan = vrb::plan_sweep(model().record, {});
        ASSERT_LT(plan.to, model_cache);
        ASSERT_GT(2 * plan.to, model_cache);
    }
    ScopedEnv cache_{"VRAMBENCH_MOCK_CACHE_KIB", std::to_string(model_cache >> 10)};
};

} // namespace

TEST_F(GrowingCurves, TakeTheSweepOfACardWithNoKnownCachePastItsCacheAndStopWithinTwoDoublingsOfSettling)
{
    const auto results = run_on_model("bandwidth.sweep", vrb::Suite::quick);
    ASSERT_EQ(results.size(), 3u);
    for (const auto &r : results)
        expect_settled_past_the_cache(r);
}

TEST_F(GrowingCurves, TakeTheChaseOfACardWithNoKnownCachePastItsCacheAndStopWithinTwoDoublingsOfSettling)
{
    const auto results = run_on_model("latency.chase", vrb::Suite::standard);
    ASSERT_EQ(results.size(), 1u);
    expect_settled_past_the_cache(results[0]);
    // Every grown point is one lap of its whole span: no cache can keep what it cannot hold.
    for (const auto &p : results[0].extra.at("curve").at("points"))
        EXPECT_EQ(p.at("footprint_bytes").get<double>(), p.at("working_set_bytes").get<double>());
}

TEST_F(GrowingCurves, StopAtTheCapAndSayItWhereTheFigureNeverSettles)
{
    ScopedEnv never("VRAMBENCH_MOCK_SETTLES", "0");
    const uint64_t cap = model().record.info.free_memory_bytes / 4;
    auto results = run_on_model("bandwidth.sweep", vrb::Suite::quick);
    const auto chase = run_on_model("latency.chase", vrb::Suite::standard);
    results.insert(results.end(), chase.begin(), chase.end());
    ASSERT_EQ(results.size(), 4u);
    for (const auto &r : results) {
        SCOPED_TRACE(r.probe + " " + r.parameters.value("operation", ""));
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << r.verification.detail;
        const auto &growth = r.extra.at("growth");
        EXPECT_EQ(growth.at("ended_by"), "memory cap");
        const uint64_t last = r.parameters.at("to_bytes").get<uint64_t>();
        EXPECT_LE(last, cap);
        EXPECT_GT(2 * last, cap);
        EXPECT_NE(
            r.parameters.at("size_rule").get<std::string>().find(fmt::format("stopped at the cap of {} bytes", cap)),
            std::string::npos)
            << r.parameters.at("size_rule");
        // Nothing says the curve reached memory.
        for (const auto &p : r.extra.at("curve").at("plateaus"))
            EXPECT_NE(p.at("name"), "memory");
    }
}
