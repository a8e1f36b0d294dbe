// health on what the producers really write: the H200 set published under results/ as it
// was recorded (its telemetry, throttle reasons and link objects are the runner's), and
// sets derived from it: a slow stream read, a slowdown reason by the name NVML's table
// gives, the link as the sampler records it through VRAMBENCH_SYSFS_ROOT; the CPU set,
// which nothing can be judged against.
#include "../fake_system_tree.hpp"

#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/card/throttle_reasons.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/health/verdict.hpp>
#include <vrambench/core/publishing/fleet.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace vrb::health;
using nlohmann::json;
using vrb::test::FakeSystemTree;
using vrb::test::ScopedEnv;

const NamedSet &recorded_h200()
{
    static const NamedSet set =
        read_valid_result_set(fs::path(VRAMBENCH_RESULTS_DIR) / "nvidia-h200-cuda" / "standard.json");
    return set;
}

// The published folder as an installed or a built vrambench reads it: the H200 set among them.
const References &published_refs()
{
    static const References refs = [] {
        References r = references_from_sets(read_result_folder(VRAMBENCH_RESULTS_DIR));
        r.origins.push_back(VRAMBENCH_RESULTS_DIR);
        return r;
    }();
    return refs;
}

CardVerdict judged_recorded(const json &set, const References &refs = published_refs())
{
    const auto verdicts = judge_set(set, "set.json", "cuda:0", refs, {});
    EXPECT_EQ(verdicts.size(), 1u);
    return verdicts.front();
}

const Check &recorded_check(const CardVerdict &v, const std::string &name)
{
    const auto at = std::find_if(v.checks.begin(), v.checks.end(), [&](const Check &c) { return c.name == name; });
    if (at == v.checks.end()) throw std::runtime_error("no check " + name);
    return *at;
}

json &stream(json &set, const std::string &operation)
{
    for (auto &r : set["results"])
        if (r["probe"] == "bandwidth.stream" && r["parameters"]["operation"] == operation) return r;
    throw std::runtime_error("no stream " + operation);
}

// A reason by the name the NVML source writes for its bit.
std::string nvml_name(unsigned long long bit)
{
    for (const auto &r : vrb::kThrottleReasons)
        if (r.nvml_bit == bit) return std::string(r.name);
    throw std::runtime_error("no reason for the bit");
}

const std::string read_figure = "bandwidth.stream read (16 B)";

} // namespace

TEST(HealthRecordedSet, ThePublishedH200IsHealthyAgainstTheDatasheetFloorNotAgainstItself)
{
    const CardVerdict v = judged_recorded(recorded_h200().set);
    EXPECT_EQ(v.exit, vrb::ExitCode::ok) << health_text({v}, published_refs(), {});
    // It is the only H200 set published: never its own reference, so the datasheet floor.
    EXPECT_EQ(v.verdict, "healthy: 7 figures held their floors (7 against the datasheet floor); no thermal or "
                         "hardware slowdown (DCGM's reasons)");
    const Check &read = recorded_check(v, read_figure);
    EXPECT_EQ(read.judged_against, "the datasheet floor");
    EXPECT_NEAR(*read.floor, datasheet_floor_share * 4800, 1e-9);
    // The power cap NVML reported during interop.handoff (9 of 20 samples) is reported, not failed.
    const Check &t = recorded_check(v, "telemetry");
    EXPECT_EQ(t.outcome, Outcome::pass);
    EXPECT_NE(t.detail.find("power-cap during interop.handoff"), std::string::npos) << t.detail;
    // Pageable transfers are the host's memcpy as much as the card's: reported, not judged.
    const Check &pageable = recorded_check(v, "bandwidth.transfer host-to-device pageable at 64 MiB");
    EXPECT_EQ(pageable.outcome, Outcome::not_judged);
    EXPECT_TRUE(pageable.judged_against.empty());
    EXPECT_EQ(recorded_check(v, "link").outcome, Outcome::pass) << recorded_check(v, "link").detail;
}

TEST(HealthRecordedSet, TheH200WithItsStreamReadAt60PercentExits5NamingTheFigure)
{
    json set = recorded_h200().set;
    stream(set, "read")["value"] = stream(set, "read")["value"].get<double>() * 0.6;
    const CardVerdict v = judged_recorded(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    EXPECT_EQ(v.verdict, "unhealthy: below datasheet floor (" + read_figure + ")");
    EXPECT_EQ(recorded_check(v, read_figure).outcome, Outcome::below_floor);
}

TEST(HealthRecordedSet, AJudgedSetNeverCountsInItsOwnReferenceWhateverItsNameOrRun)
{
    // Two sets of the model: the recorded one, and a card at 0.6 of it. Were the slow set
    // in the median of the two (0.8), it would pass the 0.75 floor.
    json slow = recorded_h200().set;
    slow["run"]["id"] = "slow0000000000aa";
    for (auto &r : slow["results"])
        if (r["probe"] == "bandwidth.stream") r["value"] = r["value"].get<double>() * 0.6;
    const References refs = references_from_sets({recorded_h200(), {"/elsewhere/copy.json", slow}});
    CardVerdict v = judged_recorded(slow, refs);
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    const Check &read = recorded_check(v, read_figure);
    EXPECT_EQ(read.reason, "below reference");
    EXPECT_NEAR(*read.ratio, 0.6, 1e-9);
    EXPECT_EQ(read.judged_against, "a measured reference");
    // The same run written again (another host name, another file) is still itself by its run...
    json rewritten = slow;
    rewritten["host"]["hostname"] = "renamed";
    EXPECT_NEAR(*recorded_check(judged_recorded(rewritten, refs), read_figure).ratio, 0.6, 1e-9);
    // ... and a set that records no run id is itself by its content.
    json anonymous = slow;
    anonymous["run"].erase("id");
    const References by_content = references_from_sets({recorded_h200(), {"x.json", anonymous}});
    EXPECT_NEAR(*recorded_check(judged_recorded(anonymous, by_content), read_figure).ratio, 0.6, 1e-9);
    // Only the judged set's figures are left out: the reference of the others stands.
    EXPECT_EQ(by_content.find(card_model_of(recorded_h200().set["devices"][0]), {"bandwidth.stream", "read", 16})
                  ->members.size(),
              2u);
}

TEST(HealthRecordedSet, AThermalOrHardwareSlowdownDuringAJudgedFigureFailsAndAPowerCapIsReported)
{
    json set = recorded_h200().set;
    stream(set, "triad")["telemetry"]["throttle_reasons"] = {nvml_name(0x40)}; // HW thermal
    CardVerdict v = judged_recorded(set);
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    const Check &t = recorded_check(v, "telemetry");
    EXPECT_EQ(t.outcome, Outcome::below_floor);
    EXPECT_NE(t.detail.find("hw-thermal during bandwidth.stream triad (16 B)"), std::string::npos) << t.detail;
    EXPECT_EQ(v.reasons(), std::vector<std::string>{"throttled"});
    for (const unsigned long long bit : {0x8ull, 0x20ull, 0x80ull}) { // HW slowdown, SW thermal, HW power brake
        json other = recorded_h200().set;
        stream(other, "read")["telemetry"]["throttle_reasons"] = {nvml_name(bit)};
        EXPECT_EQ(judged_recorded(other).exit, vrb::ExitCode::below_threshold) << nvml_name(bit);
    }
    // A power cap, idle, application or display clocks during a figure that held its floor: reported.
    for (const unsigned long long bit : {0x1ull, 0x2ull, 0x4ull, 0x100ull}) {
        json capped = recorded_h200().set;
        stream(capped, "read")["telemetry"]["throttle_reasons"] = {nvml_name(bit)};
        const CardVerdict c = judged_recorded(capped);
        EXPECT_EQ(c.exit, vrb::ExitCode::ok) << nvml_name(bit) << ": " << c.verdict;
        EXPECT_NE(recorded_check(c, "telemetry").detail.find(nvml_name(bit) + " during " + read_figure),
                  std::string::npos)
            << recorded_check(c, "telemetry").detail;
    }
    // ... and where the figure under it fell short, the figure fails, not the reason.
    json short_capped = recorded_h200().set;
    stream(short_capped, "read")["telemetry"]["throttle_reasons"] = {nvml_name(0x4)};
    stream(short_capped, "read")["value"] = 2000.0;
    const CardVerdict s = judged_recorded(short_capped);
    EXPECT_EQ(s.exit, vrb::ExitCode::below_threshold);
    EXPECT_EQ(s.reasons(), std::vector<std::string>{"below datasheet floor"});
    // A slowdown during a figure health does not judge is reported, not failed.
    json elsewhere = recorded_h200().set;
    for (auto &r : elsewhere["results"])
        if (r["probe"] == "interop.handoff") r["telemetry"]["throttle_reasons"] = {nvml_name(0x8)};
    EXPECT_EQ(judged_recorded(elsewhere).exit, vrb::ExitCode::ok);
}

TEST(HealthRecordedSet, NoReadableThrottleReasonIsNeverCalledNotThrottled)
{
    json set = recorded_h200().set;
    for (auto &r : set["results"])
        if (r.contains("telemetry") && r["telemetry"].is_object()) {
            r["telemetry"]["throttle_reasons"] = nullptr;
            r["telemetry"]["unavailable"]["throttle_reasons"] = "amdgpu gives its throttle status only inside the "
                                                                "binary gpu_metrics file";
            r.erase("throttled");
        }
    const CardVerdict v = judged_recorded(set);
    const Check &t = recorded_check(v, "telemetry");
    EXPECT_EQ(t.outcome, Outcome::not_recorded);
    EXPECT_NE(t.detail.find("no throttle reason was readable"), std::string::npos) << t.detail;
    EXPECT_NE(t.detail.find("gpu_metrics"), std::string::npos) << t.detail;
    EXPECT_EQ(v.verdict.find("no thermal"), std::string::npos) << v.verdict;
    EXPECT_NE(v.verdict.find("throttle reasons not read"), std::string::npos) << v.verdict;
}

TEST(HealthRecordedSet, ACpuHostWithNoReferenceIsNotJudgedWithItsOwnExitCodeAndTheFleetCountsIt)
{
    const NamedSet cpu =
        read_valid_result_set(fs::path(VRAMBENCH_RESULTS_DIR) / "ci-vm-epyc-zen5-2vcpu" / "standard.json");
    const auto verdicts = judge_set(cpu.set, cpu.name, "", published_refs(), {});
    ASSERT_FALSE(verdicts.empty());
    for (const CardVerdict &v : verdicts) {
        EXPECT_EQ(v.exit, not_judged_exit) << v.verdict;
        EXPECT_TRUE(v.verdict.starts_with("not judged: ")) << v.verdict;
    }
    EXPECT_EQ(static_cast<int>(health_exit(verdicts)), 6);
    const vrb::FleetComparison fleet = vrb::compare_fleet_documents({{"zen5.json", cpu.set}}, {}, {References{}});
    EXPECT_EQ(vrb::fleet_not_judged(fleet).size(), fleet.health.size());
    EXPECT_EQ(vrb::fleet_exit_code(fleet), 6);
    EXPECT_EQ(vrb::fleet_json(fleet)["not_judged"], fleet.health.size());
}

TEST(HealthRecordedSet, ASetWhoseFiguresWereAllSkippedIsNotJudged)
{
    json set = recorded_h200().set;
    for (auto &r : set["results"])
        if (r["probe"] == "bandwidth.stream" || r["probe"] == "bandwidth.transfer" || r["probe"] == "latency.chase") {
            r["status"] = "skipped";
            r["error"] = "not run";
        }
    const CardVerdict v = judged_recorded(set);
    EXPECT_EQ(v.exit, not_judged_exit) << v.verdict;
    // The stream read alone is not enough either.
    json only_read = recorded_h200().set;
    for (auto &r : only_read["results"])
        if (r["probe"] == "bandwidth.stream" && r["parameters"]["operation"] != "read") r["status"] = "skipped";
    const CardVerdict one = judged_recorded(only_read);
    EXPECT_EQ(one.exit, not_judged_exit) << one.verdict;
    EXPECT_NE(one.verdict.find("1 figure held (1 against the datasheet floor)"), std::string::npos) << one.verdict;
    // Nor are six other figures without the stream read.
    json no_read = recorded_h200().set;
    stream(no_read, "read")["status"] = "skipped";
    const CardVerdict six = judged_recorded(no_read);
    EXPECT_EQ(six.exit, not_judged_exit) << six.verdict;
    EXPECT_NE(six.verdict.find("6 figures held (6 against the datasheet floor) and not the stream read"),
              std::string::npos)
        << six.verdict;
}

namespace {

// The H200 set with its link as the runner records it from a fake sysfs: the description's
// reading (idle) on the device, the samples' reading on every host-device transfer.
json with_link(const std::string &idle_speed, int idle_width, const std::string &max_speed,
               const std::string &slot_speed, const vrb::LinkSpeed &under_load)
{
    FakeSystemTree tree;
    const std::string address = "0000:41:00.0";
    tree.pci_card(address, idle_speed, idle_width, max_speed, 16, "0000:00:01.0", slot_speed, 16);
    const ScopedEnv env("VRAMBENCH_SYSFS_ROOT", tree.root().string());
    const vrb::PcieLink described = vrb::read_pcie_link(address);
    std::vector<vrb::TelemetrySample> samples(3);
    for (auto &s : samples)
        s.link = under_load;
    json set = recorded_h200().set;
    set["devices"][0]["link"] = vrb::to_json(described, "at description, idle");
    for (auto &r : set["results"])
        if (r.contains("link") && r["link"].is_object())
            r["link"] = vrb::link_during(described, samples, "during the timed runs");
    return set;
}

} // namespace

TEST(HealthRecordedSet, AnIdleGen1LinkIsNotedAndTheReadingUnderLoadJudged)
{
    const CardVerdict v =
        judged_recorded(with_link("2.5 GT/s PCIe", 16, "32.0 GT/s PCIe", "32.0 GT/s PCIe", {32.0, 16}));
    const Check &link = recorded_check(v, "link");
    EXPECT_EQ(link.outcome, Outcome::pass) << link.detail;
    EXPECT_NE(link.detail.find("x16 Gen5 under load"), std::string::npos) << link.detail;
    EXPECT_NE(link.detail.find("idle at description it read x16 Gen1"), std::string::npos) << link.detail;
    EXPECT_EQ(v.exit, vrb::ExitCode::ok);
}

TEST(HealthRecordedSet, AGen5CardInAGen4SlotAtGen4IsHealthy)
{
    const CardVerdict v =
        judged_recorded(with_link("16.0 GT/s PCIe", 16, "32.0 GT/s PCIe", "16.0 GT/s PCIe", {16.0, 16}));
    const Check &link = recorded_check(v, "link");
    EXPECT_EQ(link.outcome, Outcome::pass) << link.detail;
    EXPECT_NE(link.detail.find("the x16 Gen4 slot's maximum"), std::string::npos) << link.detail;
    EXPECT_EQ(v.exit, vrb::ExitCode::ok);
}

TEST(HealthRecordedSet, AnX8LinkOfAnX16CardUnderLoadIsUnhealthy)
{
    const CardVerdict v =
        judged_recorded(with_link("32.0 GT/s PCIe", 8, "32.0 GT/s PCIe", "32.0 GT/s PCIe", {32.0, 8}));
    const Check &link = recorded_check(v, "link");
    EXPECT_EQ(link.outcome, Outcome::below_floor) << link.detail;
    EXPECT_NE(link.detail.find("x8 Gen5 under load"), std::string::npos) << link.detail;
    EXPECT_EQ(v.exit, vrb::ExitCode::below_threshold);
    EXPECT_EQ(v.reasons(), std::vector<std::string>{"link"});
}
