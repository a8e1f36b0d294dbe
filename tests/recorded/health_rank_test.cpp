// Where a card stands among every set of its model: the hand-made published H200 sets
// (4150 GB/s triad x 0.98, 1.0, 1.01, 1.03) with the sets given beside them.
#include <vrambench/core/health/rank.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace vrb::health;

fs::path rank_data(const std::string &name)
{
    return fs::path(VRAMBENCH_TEST_DATA) / "health" / name;
}

const RankedFigure &ranked(const std::vector<RankedFigure> &ranks, const std::string &figure)
{
    const auto at = std::find_if(ranks.begin(), ranks.end(),
                                 [&](const RankedFigure &f) { return figure_text(f.figure) == figure; });
    if (at == ranks.end()) throw std::runtime_error("not ranked: " + figure);
    return *at;
}

} // namespace

TEST(HealthRank, ASlowCardRanksLastAmongFourPublishedSetsOfItsModel)
{
    const auto published = read_result_folder(rank_data("published"));
    const auto slow = read_valid_result_set(rank_data("slow.json"));
    const auto ranks = rank_figures({{"slow.json", &slow.set}}, published);
    const RankedFigure &triad = ranked(ranks, "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.model, "10de:2335, 140.4 GiB");
    EXPECT_EQ(triad.population, 5u);
    EXPECT_NEAR(triad.median, 4150 * 1.0, 1e-6);
    EXPECT_NEAR(triad.min, 4150 * 0.5, 1e-6);
    EXPECT_NEAR(triad.max, 4150 * 1.03, 1e-6);
    EXPECT_NEAR(triad.mad, 4150 * 0.02, 1e-6);
    ASSERT_EQ(triad.entries.size(), 1u);
    EXPECT_EQ(triad.entries[0].percentile, 0);
    EXPECT_TRUE(triad.not_ranked.empty());
    const std::string text = rank_text(ranks);
    EXPECT_NE(text.find("rank among the sets of NVIDIA H200 (10de:2335, 140.4 GiB)"), std::string::npos) << text;
    EXPECT_NE(text.find("slow.json cuda:0: 2075 GB/s, percentile 0 (higher than 0% of the others)"), std::string::npos)
        << text;
}

TEST(HealthRank, TheFastestCardIsTheHundredthPercentileAndTheMiddleOneTheFiftieth)
{
    const auto published = read_result_folder(rank_data("published"));
    // h200-d (x 1.03) given: better than the other three published sets.
    const auto &fastest = published[3];
    const auto ranks = rank_figures({{"d", &fastest.set}}, published);
    const RankedFigure &triad = ranked(ranks, "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.population, 4u) << "a given set that is also published counts once";
    EXPECT_EQ(triad.entries[0].percentile, 100);
    // A card equal to h200-b (x 1.0) among a, b, c, d: better than a, tied with b.
    const auto healthy = read_valid_result_set(rank_data("healthy.json"));
    const auto middle = rank_figures({{"healthy.json", &healthy.set}}, published);
    EXPECT_NEAR(ranked(middle, "bandwidth.stream triad (16 B)").entries[0].percentile, 100 * 1.5 / 4, 1e-9);
}

TEST(HealthRank, FewerThanThreeSetsOfAModelAreNotRanked)
{
    const auto published = read_result_folder(rank_data("published"));
    const auto slow = read_valid_result_set(rank_data("slow.json"));
    const auto ranks = rank_figures({{"slow.json", &slow.set}}, {published[0]});
    const RankedFigure &triad = ranked(ranks, "bandwidth.stream triad (16 B)");
    EXPECT_EQ(triad.population, 2u);
    EXPECT_NE(triad.not_ranked.find("at least 3 are needed"), std::string::npos);
    EXPECT_TRUE(rank_text(ranks).empty());
    EXPECT_TRUE(rank_json(ranks)[0]["cards"][0]["percentile"].is_null());
}

TEST(HealthRank, ADeviceWithoutPciIdsIsNotRanked)
{
    const auto set = read_valid_result_set(fs::path(VRAMBENCH_RESULTS_DIR) / "ci-vm-epyc-zen5-2vcpu" / "standard.json");
    EXPECT_TRUE(rank_figures({{"zen5", &set.set}}, read_result_folder(VRAMBENCH_RESULTS_DIR)).empty());
}
