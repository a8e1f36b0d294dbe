// A curve result's headline is chosen from its points by one rule, in the probe and in
// analyze: the last point with a figure, pattern.alignment's slowest offset; analyze
// re-derives one recorded wrong, and never touches a value that is the measurement.
#include <vrambench/core/analysis/headline.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using nlohmann::json;
using vrb::analysis::HeadlineRule;

json headline_test_h200()
{
    return vrb::read_result_file(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "nvidia-h200-cuda" / "standard.json");
}

json *headline_test_result(json &set, const std::string &probe, const std::string &what)
{
    for (json &r : set["results"])
        if (r["probe"] == probe &&
            (r["parameters"].value("operation", "") == what || r["parameters"].value("direction", "") == what))
            return &r;
    return nullptr;
}

} // namespace

TEST(AnalysisHeadline, TheLastPointWithAFigureHeadlinesACurveAndTheFirstSlowestAnAlignment)
{
    const std::vector<std::optional<double>> figures{5.0, 2.0, std::nullopt, 2.0, 7.0, 0.0};
    EXPECT_EQ(vrb::analysis::headline_point(figures, HeadlineRule::last), 4u);
    EXPECT_EQ(vrb::analysis::headline_point(figures, HeadlineRule::slowest), 1u);
    EXPECT_FALSE(
        vrb::analysis::headline_point(std::vector<std::optional<double>>{std::nullopt, 0.0}, HeadlineRule::last));
    EXPECT_EQ(vrb::analysis::headline_rule("pattern.alignment"), HeadlineRule::slowest);
    EXPECT_EQ(vrb::analysis::headline_rule("bandwidth.sweep"), HeadlineRule::last);
}

TEST(AnalysisHeadline, AHeadlineRecordedWrongIsRederivedFromItsPointsAndSaysWhatItWas)
{
    json set = headline_test_h200();
    json *sweep = headline_test_result(set, "bandwidth.sweep", "read");
    ASSERT_TRUE(sweep);
    const json recorded = *sweep;
    (*sweep)["value"] = 1.5;
    (*sweep)["samples"] = json::array({1.5});
    const auto changes = vrb::analysis::rederive_headlines(set);
    ASSERT_FALSE(changes.empty());
    EXPECT_EQ((*sweep)["value"], recorded["value"]);
    EXPECT_EQ((*sweep)["samples"], recorded["samples"]);
    EXPECT_EQ((*sweep)["value"], (*sweep)["extra"]["curve"]["points"].back()["value"]);
    EXPECT_EQ(changes.front().where, "cuda:0 bandwidth.sweep read headline");
    EXPECT_EQ(changes.front().before, "1.5 GB/s");
    EXPECT_NE(changes.front().after.find("at working_set_bytes 503316480"), std::string::npos) << changes.front().after;
    EXPECT_FALSE(vrb::validate_result_json(set));
}

TEST(AnalysisHeadline, AnAlignmentRecordedAtItsLastOffsetIsHeadlinedByItsSlowestWithTheAlignedFigureBesideIt)
{
    json set = headline_test_h200();
    json *copy = headline_test_result(set, "pattern.alignment", "copy");
    ASSERT_TRUE(copy);
    const json &points = (*copy)["extra"]["curve"]["points"];
    const json *slowest = &points.front();
    for (const json &p : points)
        if (p["value"].get<double>() < (*slowest)["value"].get<double>()) slowest = &p;
    ASSERT_NE(slowest, &points.back()); // the slowest offset is not the last
    ASSERT_EQ(points.front()["offset_bytes"], 0.0);
    // As a set recorded before the headline was the slowest offset holds it.
    (*copy)["value"] = points.back()["value"];
    for (const char *key : {"headline", "headline_offset_bytes", "aligned_gb_per_s", "slowest_to_aligned"})
        (*copy)["extra"].erase(key);
    const auto changes = vrb::analysis::rederive_headlines(set);
    EXPECT_EQ((*copy)["value"], (*slowest)["value"]);
    EXPECT_EQ((*copy)["samples"], (*slowest)["samples"]);
    EXPECT_EQ((*copy)["extra"]["headline"], "the slowest offset");
    EXPECT_EQ((*copy)["extra"]["headline_offset_bytes"], (*slowest)["offset_bytes"]);
    EXPECT_EQ((*copy)["extra"]["aligned_gb_per_s"], points.front()["value"]);
    EXPECT_DOUBLE_EQ((*copy)["extra"]["slowest_to_aligned"].get<double>(),
                     (*slowest)["value"].get<double>() / points.front()["value"].get<double>());
    bool named = false;
    for (const auto &c : changes)
        if (c.where == "cuda:0 pattern.alignment copy headline") {
            named = true;
            EXPECT_NE(c.after.find("of aligned"), std::string::npos) << c.after;
        }
    EXPECT_TRUE(named);
}

TEST(AnalysisHeadline, ACopyWithinTheDeviceGainsItsTrafficBesideItsHeadlineAndAHostCopyDoesNot)
{
    json set = headline_test_h200();
    json *d2d = headline_test_result(set, "bandwidth.transfer", "device-to-device");
    json *pinned = headline_test_result(set, "bandwidth.transfer", "host-to-device pinned");
    ASSERT_TRUE(d2d && pinned);
    (*d2d)["extra"].erase("traffic_gb_per_s"); // as a set recorded before the traffic was holds it
    (*d2d)["extra"].erase("traffic_counted");
    vrb::analysis::rederive_headlines(set);
    EXPECT_DOUBLE_EQ((*d2d)["extra"]["traffic_gb_per_s"].get<double>(), 2 * (*d2d)["value"].get<double>());
    EXPECT_FALSE((*pinned)["extra"].contains("traffic_gb_per_s"));
}

TEST(AnalysisHeadline, AValueThatIsTheMeasurementAndEveryPointAreNeverTouched)
{
    json set = headline_test_h200();
    json *read = headline_test_result(set, "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    (*read)["value"] = 1.5; // no curve: whatever it holds is what was measured
    std::string points;
    for (const json &r : set["results"])
        if (r.contains("extra") && r["extra"].is_object() && r["extra"].contains("curve"))
            points += r["extra"]["curve"]["points"].dump();
    vrb::analysis::rederive_headlines(set);
    EXPECT_EQ((*read)["value"], 1.5);
    std::string after;
    for (const json &r : set["results"])
        if (r.contains("extra") && r["extra"].is_object() && r["extra"].contains("curve"))
            after += r["extra"]["curve"]["points"].dump();
    EXPECT_EQ(after, points);
}
