// Every reader of a set takes its memory latency from one function
// (analysis/levels.hpp): the index, the report, health and the fleet print the same
// figure for every published set, the chase's plateau named memory, not its last point.
#include "../../core/src/publishing/report/figures.hpp"

#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/health/figure.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result_index.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

namespace {

using nlohmann::json;

json read_set(const std::filesystem::path &file)
{
    std::ifstream in(file);
    return json::parse(in);
}

std::size_t column(const std::string &name)
{
    const auto &columns = vrb::result_index_columns();
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
}

} // namespace

TEST(MemoryLatencyReaders, TheIndexTheReportAndHealthGiveTheSameMemoryLatencyForEveryPublishedSet)
{
    const std::filesystem::path folder = VRAMBENCH_RESULTS_DIR;
    const vrb::ResultIndex index = vrb::index_result_sets(folder);
    ASSERT_FALSE(index.rows.empty());
    std::size_t reached = 0;
    for (const auto &row : index.rows) {
        const json set = read_set(folder / row.file);
        const std::string device = row.cells.at(column("id"));
        const auto memory = vrb::analysis::memory_latency(set, device);
        const std::string indexed = row.cells.at(column("memory latency"));
        const auto reported = vrb::report::memory_latency_ns(set, device);
        if (!memory) {
            EXPECT_FALSE(reported) << row.file << " " << device;
            continue;
        }
        ++reached;
        EXPECT_TRUE(indexed.starts_with(std::to_string(static_cast<long>(std::lround(memory->ns))) + " ns"))
            << row.file << " " << device << ": " << indexed;
        EXPECT_EQ(reported, memory->ns) << row.file << " " << device;
        for (const json &r : set.at("results")) {
            if (vrb::text_or(r, "probe", "") != "latency.chase" || vrb::text_or(r, "device", "") != device) continue;
            const auto figure = vrb::health::health_figure(r);
            ASSERT_TRUE(figure);
            EXPECT_EQ(figure->value, memory->ns) << row.file << " " << device;
        }
    }
    EXPECT_GT(reached, 0u);
}

TEST(MemoryLatencyReaders, AChaseThatStayedInsideTheCachesHasNoMemoryLatencyForAnyReader)
{
    const json r = {
        {"device", "host:0"},
        {"probe", "latency.chase"},
        {"status", "ok"},
        {"value", 60.0},
        {"extra",
         {{"curve", {{"plateaus", {{{"name", "L1"}, {"value", 1.6}}, {{"name", "past L3"}, {"value", 60.0}}}}}}}}};
    EXPECT_FALSE(vrb::analysis::memory_latency(r));
    // Its last point is no memory latency: health leaves it out, as nothing to judge.
    EXPECT_FALSE(vrb::health::health_figure(r));
    EXPECT_FALSE(vrb::report::memory_latency_ns(json{{"results", {r}}}, "host:0"));
}
