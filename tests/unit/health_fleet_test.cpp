// The fleet runs every card through health's checks: the slow card of the hand-made
// fleet (tests/data/health/fleet: node-3 at 0.55 x, its link at half speed) is named
// with its reasons, not only as an outlier.
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/publishing/fleet.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

fs::path fleet_health_data(const std::string &name)
{
    return fs::path(VRAMBENCH_TEST_DATA) / "health" / name;
}

vrb::FleetChecks against_published()
{
    vrb::FleetChecks checks;
    checks.references = vrb::health::read_references(fleet_health_data("published"));
    return checks;
}

} // namespace

TEST(HealthFleet, TheSlowCardIsNamedWithItsReasons)
{
    const auto fleet = vrb::compare_fleet(fleet_health_data("fleet"), {}, against_published());
    const auto unhealthy = vrb::fleet_unhealthy(fleet);
    ASSERT_EQ(unhealthy.size(), 1u);
    EXPECT_EQ(unhealthy[0]->host, "node-3");
    EXPECT_EQ(unhealthy[0]->verdict.reasons(), (std::vector<std::string>{"below reference", "link"}));
    EXPECT_EQ(vrb::fleet_exit_code(fleet), 5);
    const std::string text = vrb::fleet_text(fleet);
    const auto named_line = text.find("  node-3 pci:0000:19:00.0 (node-3-pci-0000-19-00-0.json): copy (");
    ASSERT_NE(named_line, std::string::npos) << text;
    const std::string line = text.substr(named_line, text.find('\n', named_line) - named_line);
    EXPECT_NE(line.find("2255 GB/s against a median of 4080 GB/s; reasons: below reference, link"), std::string::npos)
        << line;
    EXPECT_NE(text.find("    link: x16 Gen4 under load"), std::string::npos) << text;
    const auto j = vrb::fleet_json(fleet);
    EXPECT_EQ(j["exit_code"], 5);
    bool named = false;
    for (const auto &h : j["health"])
        if (h["host"] == "node-3") {
            named = true;
            EXPECT_EQ(h["reasons"], nlohmann::json::array({"below reference", "link"}));
        }
    EXPECT_TRUE(named);
}

TEST(HealthFleet, WithoutAMeasuredReferenceTheSlowCardIsNamedForTheDatasheetFloorAndItsLink)
{
    vrb::FleetChecks none;
    none.references.emplace();
    const auto fleet = vrb::compare_fleet(fleet_health_data("fleet"), {}, none);
    const auto unhealthy = vrb::fleet_unhealthy(fleet);
    ASSERT_EQ(unhealthy.size(), 1u);
    EXPECT_EQ(unhealthy[0]->verdict.reasons(), (std::vector<std::string>{"below datasheet floor", "link"}));
    EXPECT_TRUE(vrb::fleet_not_judged(fleet).empty());
}

TEST(HealthFleet, AnOutlierNoCheckExplainsIsSaidToBeNamedByItsPeersOnly)
{
    std::vector<std::pair<std::string, nlohmann::json>> documents;
    for (const auto &set : vrb::health::read_result_folder(fleet_health_data("fleet"))) {
        documents.emplace_back(fs::path(set.name).filename().string(), set.set);
        auto &doc = documents.back().second;
        doc["devices"][0].erase("link"); // no link recorded
        for (auto &r : doc["results"]) {
            r.erase("link");
            // The slow card at 0.77 of its peers: above the datasheet floor, still their outlier.
            if (doc["host"]["hostname"] == "node-3" && r["probe"] == "bandwidth.stream")
                r["value"] = r["value"].get<double>() * 1.4;
        }
    }
    vrb::FleetChecks none;
    none.references.emplace(); // and no reference
    const auto fleet = vrb::compare_fleet_documents(documents, {}, none);
    EXPECT_FALSE(vrb::fleet_outliers(fleet).empty());
    EXPECT_TRUE(vrb::fleet_unhealthy(fleet).empty());
    EXPECT_NE(vrb::fleet_text(fleet).find("against a median of 4080 GB/s; no check failed: named by its peers only"),
              std::string::npos)
        << vrb::fleet_text(fleet);
    EXPECT_EQ(vrb::fleet_exit_code(fleet), 5);
}
