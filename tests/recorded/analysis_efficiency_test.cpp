// analyze re-derives efficiencies from a set's measured values: over the device's peak, and
// for a host-device transfer over the link it was measured on, with this version's rule.
#include <vrambench/core/analysis/efficiency.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using nlohmann::json;

json published_h200()
{
    return vrb::read_result_file(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "nvidia-h200-cuda" / "standard.json");
}

json *transfer(json &set, const std::string &direction)
{
    for (json &r : set["results"])
        if (r["probe"] == "bandwidth.transfer" && r["parameters"].value("direction", "") == direction &&
            r["parameters"].value("engine", "ce") == "ce")
            return &r;
    return nullptr;
}

} // namespace

TEST(AnalysisEfficiency, PageableCopiesOneAfterTheOtherAreSetAgainstOneLinkNotTwo)
{
    json set = published_h200();
    json *both = transfer(set, "both-directions pageable");
    ASSERT_TRUE(both);
    (*both)["link_efficiency"] = 0.0719; // as recorded before: against both directions' rate
    const double value = (*both)["value"].get<double>();
    const auto changes = vrb::analysis::rederive_efficiencies(set);
    // PCIe Gen5 x16 as the set recorded it under load: one direction's rate.
    EXPECT_NEAR((*both)["link_efficiency"].get<double>(), 2 * 0.0719, 0.002);
    EXPECT_NEAR((*both)["value"].get<double>(), value, 0); // the measured value is never touched
    ASSERT_FALSE(changes.empty());
    EXPECT_NE(changes.front().where.find("both-directions pageable link efficiency"), std::string::npos);
    EXPECT_EQ(changes.front().before, "0.072");
}

TEST(AnalysisEfficiency, AFigureIsSetAgainstThePeakThisVersionChoosesAndOnlyAChangeIsNamed)
{
    json set = published_h200();
    const auto unchanged = vrb::analysis::rederive_efficiencies(set);
    json *d2d = transfer(set, "device-to-device");
    ASSERT_TRUE(d2d);
    const double efficiency = (*d2d)["efficiency"].get<double>();
    (*d2d)["efficiency"] = 0.5;
    const auto changes = vrb::analysis::rederive_efficiencies(set);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_NEAR((*d2d)["efficiency"].get<double>(), efficiency, 1e-12);
    EXPECT_EQ(changes.front().before, "0.500");
    // A figure the run left without an efficiency keeps none.
    for (const json &r : set["results"])
        if (r["probe"] == "latency.chase") EXPECT_TRUE(!r.contains("efficiency") || r["efficiency"].is_null());
    (void)unchanged;
}

TEST(AnalysisEfficiency, ADeviceWithNoPeakKeepsWhatItHad)
{
    json set = published_h200();
    for (json &d : set["devices"]) {
        d["pci"]["device_id"] = 1; // no datasheet entry
        d["memory_clock_khz"] = nullptr;
        d["memory_bus_width_bits"] = nullptr;
    }
    json *d2d = transfer(set, "device-to-device");
    ASSERT_TRUE(d2d);
    (*d2d)["efficiency"] = 0.5;
    vrb::analysis::rederive_efficiencies(set);
    EXPECT_EQ((*d2d)["efficiency"], 0.5);
}
