// health's checks on hand-made H200 sets (tests/data/health/make_sets.py): each figure
// against the published folder's references and the datasheet, integrity, the link and
// telemetry; and the exit code a scheduler acts on.
#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/health/verdict.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

using nlohmann::json;

namespace {

namespace fs = std::filesystem;
using namespace vrb::health;

fs::path verdict_data(const std::string &name)
{
    return fs::path(VRAMBENCH_TEST_DATA) / "health" / name;
}

const References &recorded_references()
{
    static const References refs = read_references(verdict_data("published"));
    return refs;
}

CardVerdict judged(const nlohmann::json &set, const HealthOptions &options = {})
{
    const auto verdicts = judge_set(set, "set.json", "cuda:0", recorded_references(), options);
    EXPECT_EQ(verdicts.size(), 1u);
    return verdicts.front();
}

CardVerdict judged_file(const std::string &name, const HealthOptions &options = {})
{
    return judged(read_valid_result_set(verdict_data(name)).set, options);
}

const Check &check_named(const CardVerdict &v, const std::string &name)
{
    const auto at = std::find_if(v.checks.begin(), v.checks.end(), [&](const Check &c) { return c.name == name; });
    if (at == v.checks.end()) throw std::runtime_error("no check " + name);
    return *at;
}

} // namespace

TEST(HealthVerdict, AHealthyCardPassesEveryCheckAgainstItsModelsReference)
{
    const CardVerdict v = judged_file("healthy.json");
    EXPECT_EQ(v.exit, vrb::ExitCode::ok) << health_text({v}, recorded_references(), {});
    EXPECT_EQ(v.verdict, "healthy: 9 figures held their floors (9 against a measured reference); throttle reasons "
                         "not read");
    const Check &triad = check_named(v, "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.outcome, Outcome::pass);
    EXPECT_NEAR(*triad.ratio, 1 / 1.005, 1e-6);
    EXPECT_NEAR(*triad.efficiency, 4150.0 / 4800, 1e-6);
    EXPECT_NE(triad.detail.find("86% of the 4800 GB/s HBM3e datasheet peak of the NVIDIA H200 SXM 141GB"),
              std::string::npos)
        << triad.detail;
    EXPECT_EQ(check_named(v, "integrity").outcome, Outcome::pass);
    EXPECT_EQ(check_named(v, "link").outcome, Outcome::pass);
    EXPECT_EQ(check_named(v, "bandwidth.transfer host-to-device pinned at 64 MiB").outcome, Outcome::pass);
}

TEST(HealthVerdict, ACardAtHalfItsReferenceIsBelowTheFloorNamingEachFigure)
{
    const CardVerdict v = judged_file("slow.json");
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    const Check &triad = check_named(v, "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.outcome, Outcome::below_floor);
    EXPECT_EQ(triad.reason, "below reference");
    EXPECT_NEAR(*triad.ratio, 0.5 / 1.005, 1e-6);
    EXPECT_NE(triad.detail.find("0.50 of the reference 4171 GB/s (floor 3128 GB/s = 0.75 x it"), std::string::npos)
        << triad.detail;
    EXPECT_EQ(v.verdict, "unhealthy: below reference (bandwidth.stream read (16 B) and 6 more)");
    // Transfers were not slowed: they pass.
    EXPECT_EQ(check_named(v, "bandwidth.transfer device-to-device at 64 MiB").outcome, Outcome::pass);
    // With the floor at 0.4 the same card passes.
    EXPECT_EQ(judged_file("slow.json", HealthOptions{0.4}).exit, vrb::ExitCode::ok);
}

TEST(HealthVerdict, AFlippedLaneFailsIntegrityWithExit4)
{
    const CardVerdict v = judged_file("flipped.json");
    EXPECT_EQ(v.exit, vrb::ExitCode::verification);
    const Check &integrity = check_named(v, "integrity");
    EXPECT_EQ(integrity.outcome, Outcome::failed);
    EXPECT_NE(integrity.detail.find("1 lane read back wrong: walking-ones"), std::string::npos) << integrity.detail;
    EXPECT_EQ(v.reasons(), std::vector<std::string>{"integrity"});
}

TEST(HealthVerdict, AFigureThatFailedVerificationFailsWithExit4)
{
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    for (auto &r : set["results"])
        if (r["probe"] == "bandwidth.stream" && r["parameters"]["operation"] == "copy") {
            r["status"] = "verification-failed";
            r["verification"] = {{"status", "failed"}, {"detail", "3 lanes wrong"}};
        }
    const CardVerdict v = judged(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::verification);
    EXPECT_EQ(check_named(v, "bandwidth.stream copy (16 B)").reason, "verification");
}

TEST(HealthVerdict, ALinkDowngradedUnderLoadIsNamedForItsLink)
{
    const CardVerdict v = judged_file("link.json");
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    const Check &link = check_named(v, "link");
    EXPECT_EQ(link.outcome, Outcome::below_floor);
    EXPECT_TRUE(link.detail.starts_with("x16 Gen4 under load (during bandwidth.transfer host-to-device pinned at "
                                        "64 MiB), below the card's maximum x16 Gen5: this x16 Gen5 card trained at "
                                        "x16 Gen4: the transfers' ceiling is half of what the card supports"))
        << link.detail;
    EXPECT_EQ(v.reasons(), std::vector<std::string>{"link"});
    EXPECT_EQ(v.verdict, "unhealthy: link");
}

TEST(HealthVerdict, ALinkOrTelemetryNotRecordedIsSaidSoAndJudgesNothing)
{
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    set["devices"][0].erase("link");
    json *loaded = nullptr;
    for (auto &r : set["results"])
        if (r.contains("link")) loaded = &r;
    ASSERT_TRUE(loaded);
    const json under_load = (*loaded)["link"];
    loaded->erase("link");
    CardVerdict v = judged(set);
    EXPECT_EQ(check_named(v, "link").outcome, Outcome::not_recorded);
    EXPECT_EQ(check_named(v, "telemetry").outcome, Outcome::not_recorded);
    EXPECT_EQ(check_named(v, "telemetry").detail, "the set records no telemetry for this card");
    EXPECT_EQ(v.exit, vrb::ExitCode::ok);
    set["devices"][0]["link"] = {{"current", nullptr}, {"max", nullptr}};
    EXPECT_EQ(check_named(judged(set), "link").outcome, Outcome::not_recorded);
    // An idle reading alone is noted, never judged: power management lowers an idle link.
    const json x8 = {{"current", {{"speed_gts", 32.0}, {"width", 8}}}, {"max", {{"speed_gts", 32.0}, {"width", 16}}}};
    set["devices"][0]["link"] = x8;
    v = judged(set);
    EXPECT_EQ(check_named(v, "link").outcome, Outcome::not_recorded);
    EXPECT_NE(check_named(v, "link").detail.find("idle at description it read x8 Gen5"), std::string::npos)
        << check_named(v, "link").detail;
    (*loaded)["link"] = under_load;
    (*loaded)["link"]["current"] = x8["current"];
    v = judged(set);
    EXPECT_EQ(check_named(v, "link").outcome, Outcome::below_floor);
    EXPECT_NE(check_named(v, "link").detail.find("trained at x8 Gen5"), std::string::npos)
        << check_named(v, "link").detail;
}

TEST(HealthVerdict, ASlowdownIsNamedAsThrottledAndAClockSettingIsNot)
{
    // The names the NVML source writes (throttle_reasons.hpp), not names of our own.
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    for (auto &r : set["results"])
        r["telemetry"] = {{"throttle_reasons", {"applications-clocks"}}};
    CardVerdict v = judged(set);
    EXPECT_EQ(check_named(v, "telemetry").outcome, Outcome::pass);
    EXPECT_EQ(v.exit, vrb::ExitCode::ok);
    ASSERT_EQ(set["results"][2]["parameters"]["operation"], "copy");
    set["results"][2]["telemetry"] = {{"throttle_reasons", {"hw-thermal", "idle"}}};
    v = judged(set);
    const Check &t = check_named(v, "telemetry");
    EXPECT_EQ(t.outcome, Outcome::below_floor);
    EXPECT_TRUE(t.detail.starts_with("thermal or hardware slowdown while judged figures ran: hw-thermal during "
                                     "bandwidth.stream copy (16 B); reported, judged by the figures' floors: "
                                     "applications-clocks during "))
        << t.detail;
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    set["results"][2].erase("telemetry");
    set["results"][2]["throttled"] = {{"reasons", {"hw-power-brake"}}, {"samples", 4}, {"detail", "power brake"}};
    EXPECT_EQ(judged(set).reasons(), std::vector<std::string>{"throttled"});
}

TEST(HealthVerdict, AFigureAboveTheDatasheetPeakIsNotTrusted)
{
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    for (auto &r : set["results"])
        if (r["probe"] == "bandwidth.stream" && r["parameters"]["operation"] == "read") r["value"] = 5200.0;
    const CardVerdict v = judged(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::verification);
    EXPECT_EQ(check_named(v, "bandwidth.stream read (16 B)").reason, "above peak");
}

TEST(HealthVerdict, AStreamFigureWithoutAReferenceIsJudgedAgainstTheDatasheetFloor)
{
    const auto healthy = read_valid_result_set(verdict_data("healthy.json")).set;
    const auto verdicts = judge_set(healthy, "healthy.json", "", References{}, {});
    ASSERT_EQ(verdicts.size(), 1u);
    EXPECT_EQ(verdicts[0].exit, vrb::ExitCode::ok) << verdicts[0].verdict;
    const Check &triad = check_named(verdicts[0], "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.judged_against, "the datasheet floor");
    EXPECT_NEAR(*triad.floor, 0.65 * 4800, 1e-9);
    // A transfer has no datasheet floor: without a reference it is not judged.
    EXPECT_EQ(check_named(verdicts[0], "bandwidth.transfer device-to-device at 64 MiB").outcome, Outcome::not_judged);
    // At half its healthy figures (43-45% of the peak) the card is under the datasheet floor.
    const auto set = read_valid_result_set(verdict_data("slow.json")).set;
    const auto slow = judge_set(set, "slow.json", "", References{}, {});
    EXPECT_EQ(slow[0].exit, vrb::ExitCode::below_threshold);
    EXPECT_EQ(check_named(slow[0], "bandwidth.stream triad (16 B)").reason, "below datasheet floor");
    // A tenth of the peak is the floor nothing healthy falls under, reference or not.
    auto broken = set;
    for (auto &r : broken["results"])
        if (r["probe"] == "bandwidth.stream") r["value"] = 300.0;
    const auto v = judge_set(broken, "broken.json", "", References{}, {});
    EXPECT_EQ(v[0].exit, vrb::ExitCode::below_threshold);
    EXPECT_EQ(check_named(v[0], "bandwidth.stream read (16 B)").reason, "below a tenth of the peak");
}

TEST(HealthVerdict, AFigureThatFailedToRunCouldNotBeMeasured)
{
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    for (auto &r : set["results"])
        if (r["probe"] == "bandwidth.stream" && r["parameters"]["operation"] == "dot") {
            r["status"] = "failed";
            r["value"] = nullptr;
            r["error"] = "the kernel timed out";
        }
    const CardVerdict v = judged(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::run_failed);
    EXPECT_NE(check_named(v, "bandwidth.stream dot (16 B)").detail.find("the kernel timed out"), std::string::npos);
    EXPECT_EQ(health_exit({v, judged_file("flipped.json")}), vrb::ExitCode::verification);
}

TEST(HealthVerdict, TheJsonCarriesEveryCheckAndTheExitCode)
{
    const CardVerdict v = judged_file("slow.json");
    const auto j = health_json({v}, recorded_references(), {});
    EXPECT_EQ(j["healthy"], false);
    EXPECT_EQ(j["exit_code"], 5);
    EXPECT_EQ(j["cards"][0]["reasons"], nlohmann::json::array({"below reference"}));
    bool triad = false;
    for (const auto &c : j["cards"][0]["checks"])
        if (c["name"] == "bandwidth.stream triad (16 B)") {
            triad = true;
            EXPECT_EQ(c["outcome"], "below-floor");
            EXPECT_TRUE(c["floor"].is_number());
        }
    EXPECT_TRUE(triad);
}

TEST(HealthVerdict, ADeviceTheSetDoesNotHaveIsRefused)
{
    const auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    EXPECT_THROW(judge_set(set, "healthy.json", "cuda:7", References{}, {}), vrb::UsageError);
}

TEST(HealthVerdict, AnyOtherFigureOfTheCardThatFailedVerificationFailsWithExit4)
{
    auto set = read_valid_result_set(verdict_data("healthy.json")).set;
    EXPECT_EQ(check_named(judged(set), "verification").outcome, Outcome::pass);
    for (auto &r : set["results"])
        if (r["probe"] == "pattern.gather") {
            r["status"] = "verification-failed";
            r["verification"] = {{"status", "failed"}, {"detail", "a gathered element came back wrong"}};
        }
    const CardVerdict v = judged(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::verification);
    const Check &c = check_named(v, "verification");
    EXPECT_EQ(c.outcome, Outcome::failed);
    EXPECT_NE(c.detail.find("failed verification: pattern.gather"), std::string::npos) << c.detail;
}
