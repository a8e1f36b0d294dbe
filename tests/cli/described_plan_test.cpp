// `run --plan --describe FILE`: what a run would do on a card this machine does not have,
// from the device a result set or `info --format json` recorded.
#include "../unit/described_device.hpp"
#include "run_process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

std::filesystem::path write_device(const std::string &name, const nlohmann::json &document)
{
    const auto file = std::filesystem::temp_directory_path() / ("vrb-described-" + name + ".json");
    std::ofstream(file) << document.dump(2);
    return file;
}

nlohmann::json device_json(vrb::DeviceRecord r, const std::string &id)
{
    r.id = id;
    r.backend = id.substr(0, id.find(':'));
    return vrb::to_json(r);
}

// As the CUDA module describes an H200: its 50 MiB L2 shared by all 132 SMs.
vrb::DeviceRecord h200_through_cuda()
{
    vrb::DeviceRecord r = vrb::test::describe(vrb::test::h200());
    r.info.caches[0].shared_by = r.info.compute_units;
    return r;
}

// As the HIP module describes an MI300X: a CU's 32 KiB L1, each XCD's 4 MiB L2 shared by
// its 38 CUs; the device table adds the 256 MiB Infinity Cache.
vrb::DeviceRecord mi300x_through_hip()
{
    vrb::test::Description d = vrb::test::mi300x();
    d.llc_bytes = 4ull << 20;
    d.llc_level = 2;
    vrb::DeviceRecord r = vrb::test::describe(d);
    r.info.caches[0].shared_by = 38;
    r.info.caches[r.info.cache_count++] = vrb_cache_info{1, 1, 32 << 10, "data"};
    return r;
}

const nlohmann::json &plan_of(const nlohmann::json &plans, const std::string &probe)
{
    for (const auto &p : plans["probes"])
        if (p["probe"] == probe) return p;
    throw std::runtime_error("no plan for " + probe);
}

} // namespace

TEST(DescribedPlan, PlansAnH200AndAnMi300xFromTheirDescriptionsWithTheirPlateausTimesAndBudget)
{
    const auto file = write_device(
        "pair",
        {{"devices", {device_json(h200_through_cuda(), "cuda:0"), device_json(mi300x_through_hip(), "hip:0")}}});
    const auto r = vrambench({"run", "--plan", "--describe", file.string(), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 2u) << r.out;
    for (const auto &[index, most, names] :
         {std::tuple{0, 60.0, std::vector<std::string>{"L1", "L2", "memory"}},
          std::tuple{1, 90.0, std::vector<std::string>{"L1", "L2", "L3", "memory"}}}) {
        const auto &plan = doc["devices"][index];
        EXPECT_LE(plan["estimate_seconds"].template get<double>(), most) << plan.dump();
        EXPECT_EQ(plan["time_budget"]["economy"], 0);
        std::vector<std::string> seen;
        for (const auto &p : plan_of(plan, "bandwidth.sweep")["sizes"]["plateaus"]) {
            seen.push_back(p["name"]);
            EXPECT_GE(p["points"].template get<int>(), 3) << p.dump();
        }
        EXPECT_EQ(seen, names) << plan.dump();
    }
    // The table names the described cards and says the budget.
    const auto text = vrambench({"run", "--plan", "--describe", file.string(), "--backend", "cuda"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("cuda:0: "), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("hip:0"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("time budget 90 s"), std::string::npos) << text.out;
}

TEST(DescribedPlan, TakesOneDeviceAsInfoPrintsItAndRefusesAFileThatDescribesNone)
{
    const auto one = write_device("one", device_json(h200_through_cuda(), "cuda:0"));
    EXPECT_EQ(vrambench({"run", "--plan", "--describe", one.string()}).exit_code, 0);
    const auto none = write_device("none", {{"name", "no id"}});
    const auto refused = vrambench({"run", "--plan", "--describe", none.string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("neither a result set nor a device"), std::string::npos) << refused.err;
    const auto cut = std::filesystem::temp_directory_path() / "vrb-described-cut.json";
    std::ofstream(cut) << "{\"devices\": [";
    const auto broken = vrambench({"run", "--plan", "--describe", cut.string()});
    EXPECT_EQ(broken.exit_code, 2);
    EXPECT_NE(broken.err.find("not valid JSON"), std::string::npos) << broken.err;
    // Without --plan nothing would be measured on the described card: refused.
    const auto measured = vrambench({"run", "--describe", one.string()});
    EXPECT_EQ(measured.exit_code, 2);
    EXPECT_NE(measured.err.find("needs --plan"), std::string::npos) << measured.err;
}

// The published H200 set's card (results/nvidia-h200-cuda: 60 MiB L2, 132 SMs, 140 GiB
// free) planned as a run would plan it: the standard suite within a minute by its
// estimate, and a random gather whose data alone is past 4 x the L2, so its random
// indices miss every cache.
TEST(DescribedPlan, PlansThePublishedH200InAMinuteWithARandomGatherPastFourTimesItsL2)
{
    const std::string set = std::string(VRAMBENCH_SOURCE_DIR) + "/results/nvidia-h200-cuda/standard.json";
    const auto r = vrambench({"run", "--plan", "--describe", set, "--suite", "standard", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 1u) << r.out;
    const auto &plan = doc["devices"][0];
    EXPECT_LE(plan["estimate_seconds"].get<double>(), 60.0) << plan.dump();
    const uint64_t l2 = plan["last_level_cache"]["bytes"].get<uint64_t>();
    EXPECT_EQ(l2, 60ull << 20) << plan["last_level_cache"].dump();
    const auto &gather = plan_of(plan, "pattern.gather");
    EXPECT_GE(gather["sizes"]["array_bytes"].get<uint64_t>(), 4 * l2) << gather.dump();
    EXPECT_EQ(gather["sizes"]["indices"], nlohmann::json({"sequential", "random"})) << gather.dump();
}
