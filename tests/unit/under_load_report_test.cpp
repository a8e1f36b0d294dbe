#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

nlohmann::json fixture()
{
    return vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/compare/node-a.json");
}

// node-a measured again with both cards at once: every figure 10% lower, each card
// with the other beside it.
nlohmann::json concurrent_twin()
{
    nlohmann::json set = fixture();
    set["run"]["concurrent_devices"] = {"cuda:0", "cuda:1"};
    for (auto &r : set["results"]) {
        if (r["value"].is_number()) r["value"] = r["value"].get<double>() * 0.9;
        // A chase's figure is its memory plateau's: that is 10% lower too.
        if (r.contains("extra") && r["extra"].contains("curve") && r["extra"]["curve"].contains("plateaus"))
            for (auto &p : r["extra"]["curve"]["plateaus"])
                p["value"] = p["value"].get<double>() * 0.9;
        r["ran_alongside"] = {r["device"] == "cuda:0" ? "cuda:1" : "cuda:0"};
    }
    return set;
}

const nlohmann::json *under_load_section(const nlohmann::json &data)
{
    for (const auto &section : data["overlays"])
        if (section["title"] == "Each card alone and under load") return &section;
    return nullptr;
}

} // namespace

TEST(UnderLoadReport, TheConcurrentTwinIsAValidResultSet)
{
    const auto violation = vrb::validate_result_json(concurrent_twin());
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
}

TEST(UnderLoadReport, EachCardsFiguresAloneStandBesideThemUnderLoad)
{
    const nlohmann::json data = vrb::report_data({{"alone.json", fixture()}, {"together.json", concurrent_twin()}});
    const nlohmann::json *section = under_load_section(data);
    ASSERT_NE(section, nullptr) << data["overlays"].dump();
    const auto &rows = (*section)["tables"][0]["rows"];
    ASSERT_FALSE(rows.empty());
    bool triad_seen = false;
    for (const auto &row : rows) {
        EXPECT_EQ(row[4], "0.900") << row.dump(); // under load / alone
        if (row[0] == "NVIDIA H200 (pci:0000:19:00.0)" && row[1].get<std::string>().starts_with("triad")) {
            triad_seen = true;
            EXPECT_EQ(row[5], "cuda:1");
        }
    }
    EXPECT_TRUE(triad_seen) << rows.dump();
    ASSERT_EQ((*section)["charts"].size(), 1u);
    EXPECT_EQ((*section)["charts"][0]["series"].size(), 2u);
}

TEST(UnderLoadReport, NoSectionWhenNoCardWasMeasuredBothWays)
{
    EXPECT_EQ(under_load_section(vrb::report_data({{"a.json", fixture()}, {"b.json", fixture()}})), nullptr);
    EXPECT_EQ(under_load_section(vrb::report_data({{"together.json", concurrent_twin()}})), nullptr);
}
