// The card's figures read from a published result set (host and lavapipe), and a set
// without them refused with the probes to run.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/card.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

namespace {

using namespace vrb::fit;
using nlohmann::json;

const json &published_set()
{
    static const json set =
        vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/../../results/ci-vm-epyc-zen5-2vcpu/standard.json");
    return set;
}

std::string refusal(const json &set, const std::string &device)
{
    try {
        card_from_result_set(set, "set.json", device);
    } catch (const vrb::UsageError &e) {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(FitCard, ReadsLavapipesCapacityAndBandwidthWithTheirResultIds)
{
    const Card c = card_from_result_set(published_set(), "standard.json", "");
    EXPECT_EQ(c.device, "vulkan:0") << "the set's one card, not host:0";
    EXPECT_EQ(c.card_bytes, 2147483648.0);
    EXPECT_EQ(c.available_bytes, 2147483648.0);
    EXPECT_EQ(c.available_rule, "capacity.total: what one process held at once");
    ASSERT_TRUE(c.max_alloc_bytes);
    EXPECT_EQ(*c.max_alloc_bytes, 2113929216.0); // what lavapipe granted in one block, its limit the device
    EXPECT_EQ(c.fragmentation_lost_share, 0.0);
    EXPECT_NEAR(c.read_gb_per_s, 34.09, 0.01);
    ASSERT_TRUE(c.host_read_gb_per_s);
    EXPECT_GT(*c.host_read_gb_per_s, 0);
    const std::string run = published_set()["run"]["id"];
    for (const Figure &f : c.figures) {
        ASSERT_EQ(f.result_id.rfind(run + "#", 0), 0u) << f.name << " " << f.result_id;
        const json &r = published_set()["results"][std::stoul(f.result_id.substr(run.size() + 1))];
        EXPECT_EQ(r["value"].get<double>(), f.value) << f.name;
        EXPECT_EQ(r["device"], f.device) << f.name;
    }
}

// The run's budget stopped host:0's capacity.total at 4 GiB: what the API reports free
// is what a process may hold, and the rest of RAM is the system's.
TEST(FitCard, ACapacityTotalCutByTheBudgetGivesWayToReportedFree)
{
    const Card c = card_from_result_set(published_set(), "standard.json", "host:0");
    EXPECT_EQ(c.card_bytes, 25275953152.0);
    EXPECT_EQ(c.available_bytes, 15675281408.0);
    EXPECT_NE(c.available_rule.find("stopped at the run's budget"), std::string::npos);
    EXPECT_FALSE(c.max_alloc_bytes) << "a max-alloc cut by the budget judges nothing";
    EXPECT_EQ(*c.host_read_gb_per_s, c.read_gb_per_s);
}

// The H200's first run: --memory-limit 100% made the budget all the free memory, so
// the chunks that stopped at it had filled the card; its capacity.report free figure
// was taken while the run's pool still held 16 GB, and is not what a process can hold.
TEST(FitCard, ACapacityTotalStoppedByABudgetOfAllFreeMemoryIsWhatTheCardHolds)
{
    const json set =
        vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/../../results/nvidia-h200-cuda/standard.json");
    const Card c = card_from_result_set(set, "standard.json", "cuda:0");
    EXPECT_EQ(c.available_bytes, 149518548992.0);
    EXPECT_EQ(c.available_rule, "capacity.total: what one process held at once");
    EXPECT_EQ(c.card_bytes, 150109880320.0);
    EXPECT_NEAR(c.read_gb_per_s, 4530.3, 0.1);
    // The same set with a budget a gigabyte under the free memory was cut short.
    json cut = set;
    for (json &r : cut["results"])
        if (r["probe"] == "capacity.total") r["parameters"]["budget_bytes"] = 148478361600.0;
    const Card short_of = card_from_result_set(cut, "standard.json", "cuda:0");
    EXPECT_NE(short_of.available_rule.find("stopped at the run's budget"), std::string::npos);
}

TEST(FitCard, ASetWithoutCapacityFiguresSaysWhichProbesToRun)
{
    json set = published_set();
    json kept = json::array();
    for (const json &r : set["results"])
        if (r["probe"].get<std::string>().rfind("capacity.", 0) != 0) kept.push_back(r);
    set["results"] = kept;
    const std::string why = refusal(set, "vulkan:0");
    EXPECT_NE(why.find("vulkan:0 has no capacity figures"), std::string::npos) << why;
    EXPECT_NE(why.find("--probe capacity.total"), std::string::npos) << why;
    json no_stream = published_set();
    kept = json::array();
    for (const json &r : no_stream["results"])
        if (r["probe"] != "bandwidth.stream") kept.push_back(r);
    no_stream["results"] = kept;
    EXPECT_NE(refusal(no_stream, "vulkan:0").find("no bandwidth.stream read figure"), std::string::npos);
    EXPECT_NE(refusal(published_set(), "cuda:0").find("no device cuda:0 in the result set (it has host:0, vulkan:0)"),
              std::string::npos);
}

TEST(FitCard, FragmentationLostIsTheShareTheLargestBlockMissed)
{
    json set = published_set();
    for (json &r : set["results"])
        if (r["probe"] == "capacity.fragmentation" && r["device"] == "vulkan:0")
            r["extra"]["largest_share_of_freed"] = 0.75;
    EXPECT_DOUBLE_EQ(card_from_result_set(set, "set.json", "vulkan:0").fragmentation_lost_share, 0.25);
}

TEST(FitCard, BandwidthReadsInItsUnits)
{
    EXPECT_EQ(parse_bandwidth("2039GB/s"), 2039);
    EXPECT_EQ(parse_bandwidth("3.35TB/s"), 3350);
    EXPECT_EQ(parse_bandwidth("2039"), 2039);
    EXPECT_NEAR(parse_bandwidth("1 GiB/s"), 1.073741824, 1e-12);
    for (const char *bad : {"", "fast", "-5GB/s", "0GB/s", "5 furlongs/s", "1e9TB/s"})
        EXPECT_THROW(parse_bandwidth(bad), vrb::UsageError) << bad;
}

// fit's --memory reads GB as 1e9 bytes and GiB as 2^30, as --bandwidth reads its rates;
// a bare G, or no unit, is refused rather than guessed.
TEST(FitCard, MemoryReadsDecimalAndBinaryUnitsAsWritten)
{
    EXPECT_EQ(parse_fit_bytes("80GB", "--memory"), 80e9);
    EXPECT_EQ(parse_fit_bytes("80GiB", "--memory"), 80.0 * (1ull << 30));
    EXPECT_EQ(parse_fit_bytes("1.5TB", "--memory"), 1.5e12);
    EXPECT_EQ(parse_fit_bytes("1TiB", "--memory"), double(1ull << 40));
    EXPECT_EQ(parse_fit_bytes("141 gb", "--memory"), 141e9);
    for (const char *bad : {"", "80", "80G", "80T", "0GB", "-1GB", "80 furlongs", "1PB", "nanGB"})
        EXPECT_THROW(parse_fit_bytes(bad, "--memory"), vrb::UsageError) << bad;
    try {
        parse_fit_bytes("80G", "--memory");
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("--memory '80G': give the unit whole"), std::string::npos) << e.what();
    }
    // The table names the bytes as parsed.
    EXPECT_NE(card_by_hand(80e9, 2039).name.find("80000000000 B (74.51 GiB, 80.00 GB)"), std::string::npos)
        << card_by_hand(80e9, 2039).name;
}

// A stream read marked suspect (a cache effect above the card's peak) never drives the
// ceiling: a trusted read beside it does, and alone it gives none, with a note.
TEST(FitCard, AReadMarkedSuspectNeverDrivesTheCeiling)
{
    json set = published_set();
    json extra = json::array();
    for (const json &r : set["results"])
        if (r["probe"] == "bandwidth.stream" && r["device"] == "vulkan:0" && r["parameters"]["operation"] == "read") {
            json lie = r;
            lie["status"] = "suspect";
            lie["value"] = 1e5;
            lie["parameters"]["element_bytes"] = 64;
            extra.push_back(lie);
        }
    ASSERT_FALSE(extra.empty());
    for (json &r : extra)
        set["results"].push_back(r);
    const Card beside = card_from_result_set(set, "set.json", "vulkan:0");
    EXPECT_NEAR(beside.read_gb_per_s, 34.09, 0.01) << "the trusted read, though narrower";
    json alone = set;
    json kept = json::array();
    for (const json &r : alone["results"])
        if (r["probe"] != "bandwidth.stream" || r["status"] == "suspect" || r["device"] != "vulkan:0")
            kept.push_back(r);
    alone["results"] = kept;
    const Card c = card_from_result_set(alone, "set.json", "vulkan:0");
    EXPECT_EQ(c.read_gb_per_s, 0);
    Workload w;
    w.context = 16;
    const Answer a = fit_model(find_catalogued("llama-7b")->model, w, c);
    EXPECT_FALSE(a.decode_ceiling);
    bool noted = false;
    for (const std::string &n : a.notes)
        noted = noted || n.find("is marked suspect: no decode ceiling is drawn from it") != std::string::npos;
    EXPECT_TRUE(noted);
}

// Against lavapipe's 2 GiB a 7B model in fp16 does not fit; host RAM reads faster here
// than lavapipe does, so "served from host RAM" is a ratio below 1, measured, not assumed.
TEST(FitCard, ALlama7bAgainstLavapipeUsesTheMeasuredFigures)
{
    const Card c = card_from_result_set(published_set(), "standard.json", "");
    Workload w;
    w.context = 2048;
    const Answer a = fit_model(find_catalogued("llama-7b")->model, w, c);
    EXPECT_FALSE(a.fits);
    EXPECT_EQ(*a.cards_needed, 7); // 13.5 GB of weights, 1 GiB of KV cache: 13.6 GiB over 2 GiB cards
    ASSERT_TRUE(a.host_decode_ceiling);
    EXPECT_NEAR(*a.decode_ceiling / *a.host_decode_ceiling, c.read_gb_per_s / *c.host_read_gb_per_s, 1e-12);
    const json j = fit_json(a);
    EXPECT_EQ(j["fits"], false);
    EXPECT_EQ(j["parameters"], 6738415616);
    for (const char *field : {"parts", "total_bytes", "available_bytes", "max_context_tokens", "max_batch",
                              "cards_needed", "decode_tokens_per_second_ceiling", "measured"})
        EXPECT_TRUE(j.contains(field)) << field;
    EXPECT_EQ(j["parts"]["weights"]["bytes"], 2 * 6738415616);
    EXPECT_FALSE(j["parts"]["kv_cache"]["formula"].get<std::string>().empty());
}
