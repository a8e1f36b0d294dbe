// The report's grid of which models fit, on the published H200: the offloaded columns
// answer over the link with the ratio to all in VRAM, and no cell counts "0 cards".
#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using nlohmann::json;

json grid_h200_set()
{
    return vrb::read_result_file(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "nvidia-h200-cuda" / "standard.json");
}

// The grid's table of the first card.
json grid(const json &set)
{
    const json data = vrb::report_data({{"h200.json", set}});
    for (const auto &card : data["cards"])
        for (const auto &section : card["sections"])
            if (section["title"] == "Which models fit, as measured" && !section["tables"].empty())
                return section["tables"][0];
    ADD_FAILURE() << "no model fit grid";
    return json::object();
}

std::vector<std::string> row_of(const json &table, const std::string &model)
{
    for (const auto &row : table["rows"])
        if (row[1] == model) return row.get<std::vector<std::string>>();
    ADD_FAILURE() << "no row for " << model;
    return std::vector<std::string>(8);
}

} // namespace

TEST(ReportFitGrid, TheOffloadedColumnsGiveTheLinkRouteAndItsRatio)
{
    const json table = grid(grid_h200_set());
    ASSERT_EQ(table["columns"].size(), 8u);
    EXPECT_EQ(table["columns"][6], "fp16 offloaded, over the link");
    EXPECT_EQ(table["columns"][7], "fp16 offloaded, on the host");
    const auto big = row_of(table, "llama-3.1-405b");
    EXPECT_NE(big[6].find("x slower"), std::string::npos) << big[6];
    EXPECT_EQ(big[7], "no figure") << "the H200 set has no host:0 and the report measures nothing";
    EXPECT_EQ(row_of(table, "llama-7b")[6], "all in VRAM");
}

// When the runtime's share alone fills a card no count of them holds the model: the grid
// says so instead of "0 cards".
TEST(ReportFitGrid, NoCellCountsZeroCards)
{
    json set = grid_h200_set();
    for (json &r : set["results"])
        if (r["probe"] == "capacity.total") r["value"] = 1000; // a kilobyte a process: past 2^20 cards
    const json table = grid(set);
    for (const auto &row : table["rows"])
        for (std::size_t i = 3; i < 6; ++i) {
            const std::string cell = row[i];
            EXPECT_EQ(cell.find(" 0 cards"), std::string::npos) << cell;
        }
    EXPECT_NE(row_of(table, "llama-7b")[3].find("no number of cards holds it"), std::string::npos)
        << row_of(table, "llama-7b")[3];
}
