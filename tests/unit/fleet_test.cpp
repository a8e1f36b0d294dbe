#include "../scratch_folder.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/fleet.hpp>
#include <vrambench/core/results/card_split.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// Hand-made fleets: four hosts with two H200s each, one result set per card as
// `vrambench fleet` writes them. In planted/, gpu-a03's second card is 17% slower at
// copy, 16% at triad and 12% slower to load; in even/ every card is within 1%.
fs::path fleet_folder(const std::string &name)
{
    return fs::path(VRAMBENCH_TEST_DATA) / "fleet" / name;
}

std::set<std::string> named(const vrb::FleetComparison &fleet)
{
    std::set<std::string> out;
    for (const auto &[group, card] : vrb::fleet_outliers(fleet))
        out.insert(card->host + " " + card->key + " " + group->figure);
    return out;
}

using vrb::test::ScratchFolder;

} // namespace

TEST(Fleet, EveryHandMadeFleetFileIsAValidResultSet)
{
    for (const char *folder : {"planted", "even"})
        for (const auto &entry : fs::directory_iterator(fleet_folder(folder))) {
            const auto violation = vrb::validate_result_json(vrb::read_result_file(entry.path()));
            EXPECT_FALSE(violation) << entry.path() << ": " << violation->path << ": " << violation->message;
        }
}

TEST(Fleet, ThePlantedSlowCardIsNamedOnCopyTriadAndLatencyAndNoOtherCardIs)
{
    const vrb::FleetComparison fleet = vrb::compare_fleet(fleet_folder("planted"));
    EXPECT_EQ(fleet.result_sets, 8u);
    EXPECT_EQ(fleet.cards, 8u);
    ASSERT_EQ(fleet.groups.size(), 3u); // copy, triad, latency of one model through one backend
    for (const auto &g : fleet.groups) {
        EXPECT_EQ(g.cards.size(), 8u);
        EXPECT_FALSE(g.not_judged);
    }
    EXPECT_EQ(named(fleet), (std::set<std::string>{"gpu-a03 pci:0000:3b:00.0 copy", "gpu-a03 pci:0000:3b:00.0 triad",
                                                   "gpu-a03 pci:0000:3b:00.0 latency"}));
    const std::string text = vrb::fleet_text(fleet);
    EXPECT_NE(text.find("OUTLIER gpu-a03 pci:0000:3b:00.0"), std::string::npos) << text;
    EXPECT_NE(text.find("3 figures named"), std::string::npos) << text;
    EXPECT_EQ(vrb::fleet_json(fleet)["outliers"], 3);
}

TEST(Fleet, AFleetWithoutASlowCardNamesNone)
{
    const vrb::FleetComparison fleet = vrb::compare_fleet(fleet_folder("even"));
    EXPECT_EQ(fleet.cards, 8u);
    EXPECT_TRUE(named(fleet).empty());
    EXPECT_NE(vrb::fleet_text(fleet).find("no card named"), std::string::npos);
}

TEST(Fleet, TheLatencyGroupKnowsLowerIsBetterAndTheSlowCardLiesAboveTheMedian)
{
    const vrb::FleetComparison fleet = vrb::compare_fleet(fleet_folder("planted"));
    for (const auto &g : fleet.groups) {
        if (g.figure != "latency") continue;
        EXPECT_TRUE(g.lower_is_better);
        for (const auto &c : g.cards)
            if (c.outlier) {
                EXPECT_GT(c.deviation, 0.1);
            }
    }
}

TEST(Fleet, TheAllowedDistanceIsTheLargerOfThreeMadsAndFivePercent)
{
    // Median 101, MAD 2: 3 MADs (6) beat 5% of the median (5.05).
    std::vector<std::pair<std::string, nlohmann::json>> docs;
    const nlohmann::json base = vrb::read_result_file(fleet_folder("even") / "gpu-a01_pci-0000-19-00.0.json");
    const double values[] = {100, 101, 99, 120, 104};
    for (int i = 0; i < 5; ++i) {
        nlohmann::json d = base;
        d["host"]["hostname"] = "n" + std::to_string(i);
        for (auto &r : d["results"]) {
            r["value"] = values[i];
            // A chase's figure is its memory plateau's.
            if (r["probe"] == "latency.chase")
                for (auto &p : r["extra"]["curve"]["plateaus"])
                    if (p["name"] == "memory") p["value"] = values[i];
        }
        docs.emplace_back("n" + std::to_string(i) + ".json", d);
    }
    const vrb::FleetComparison fleet = vrb::compare_fleet_documents(docs);
    for (const auto &g : fleet.groups) {
        EXPECT_DOUBLE_EQ(g.median, 101);
        EXPECT_DOUBLE_EQ(g.mad, 2); // |100-101|, 0, |99-101|, 19, 3 -> 2
        EXPECT_DOUBLE_EQ(g.allowed, 6);
        for (const auto &c : g.cards)
            EXPECT_EQ(c.outlier, c.host == "n3") << c.host; // 120 is 19 away; 104 is 3
    }
    // A wider rule lets the 120 pass: 10 MADs = 20.
    const vrb::FleetComparison loose = vrb::compare_fleet_documents(docs, {10, 0.05});
    EXPECT_TRUE(vrb::fleet_outliers(loose).empty());
}

TEST(Fleet, TwoCardsOfAModelAreListedAsNotJudgedAndNeitherIsNamed)
{
    std::vector<std::pair<std::string, nlohmann::json>> docs;
    for (const char *name : {"gpu-a03_pci-0000-19-00.0.json", "gpu-a03_pci-0000-3b-00.0.json"})
        docs.emplace_back(name, vrb::read_result_file(fleet_folder("planted") / name));
    const vrb::FleetComparison fleet = vrb::compare_fleet_documents(docs);
    ASSERT_FALSE(fleet.groups.empty());
    for (const auto &g : fleet.groups)
        EXPECT_TRUE(g.not_judged);
    EXPECT_TRUE(vrb::fleet_outliers(fleet).empty());
}

TEST(Fleet, AFailedFigureIsLeftOutWithItsStatus)
{
    std::vector<std::pair<std::string, nlohmann::json>> docs;
    for (const auto &entry : fs::directory_iterator(fleet_folder("even")))
        docs.emplace_back(entry.path().filename().string(), vrb::read_result_file(entry.path()));
    docs[0].second["results"][0]["status"] = "failed";
    docs[0].second["results"][0]["value"] = nullptr;
    const vrb::FleetComparison fleet = vrb::compare_fleet_documents(docs);
    ASSERT_EQ(fleet.left_out.size(), 1u);
    EXPECT_NE(fleet.left_out[0].find("status failed"), std::string::npos) << fleet.left_out[0];
}

TEST(Fleet, AMissingFolderAnEmptyOneAndABadFileAreRefusedByName)
{
    EXPECT_THROW(vrb::compare_fleet("/nonexistent/fleet"), vrb::UsageError);
    ScratchFolder empty("vrambench-fleet");
    // A journal and a hidden partial file are not result sets.
    std::ofstream(empty.path() / "gpu-a01.json.journal") << "{}";
    std::ofstream(empty.path() / ".partial-gpu-a01-0.json") << "{}";
    try {
        vrb::compare_fleet(empty.path());
        FAIL() << "an empty fleet folder was accepted";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("holds no result set"), std::string::npos) << e.what();
    }
    std::ofstream(empty.path() / "broken.json") << "{\"not\": \"a result set\"}";
    try {
        vrb::compare_fleet(empty.path());
        FAIL() << "a file that is not a result set was accepted";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("broken.json"), std::string::npos) << e.what();
    }
}

TEST(Fleet, ANegativeRuleIsRefused)
{
    EXPECT_THROW(vrb::compare_fleet_documents({}, {-1, 0.05}), vrb::UsageError);
}

TEST(CardSplit, AResultSetOfTwoCardsSplitsIntoTwoValidSetsByKey)
{
    const nlohmann::json doc = vrb::read_result_file(fs::path(VRAMBENCH_TEST_DATA) / "compare" / "node-a.json");
    const auto parts = vrb::split_by_card(doc);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].key, "pci:0000:19:00.0");
    EXPECT_EQ(parts[1].key, "pci:0000:3b:00.0");
    std::size_t results = 0;
    for (const auto &p : parts) {
        const auto violation = vrb::validate_result_json(p.document);
        EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
        ASSERT_EQ(p.document["devices"].size(), 1u);
        for (const auto &r : p.document["results"])
            EXPECT_EQ(r["device"], p.document["devices"][0]["id"]);
        results += p.document["results"].size();
    }
    EXPECT_EQ(results, doc["results"].size());
}

TEST(CardSplit, FileNamesCarryHostAndKeyWithUnsafeCharactersReplaced)
{
    EXPECT_EQ(vrb::fleet_file_name("gpu-a01", "pci:0000:19:00.0"), "gpu-a01_pci-0000-19-00.0.json");
    EXPECT_EQ(vrb::fleet_file_name("node 7", "uuid:a/b"), "node-7_uuid-a-b.json");
    EXPECT_EQ(vrb::fleet_file_name(".hidden", "host:0"), "-hidden_host-0.json");
    EXPECT_THROW(vrb::fleet_file_name("", "host:0"), vrb::UsageError);
    EXPECT_THROW(vrb::fleet_file_name("n1", ""), vrb::UsageError);
}
