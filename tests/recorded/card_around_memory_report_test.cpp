// The report's "card around the memory" section: the link's one-sentence finding, and
// beside each figure the busy % against the share of the peak it moved, under "busy
// time is not bytes"; and every field it reads may be null or absent.
#include "../sanitized_build.hpp"

#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using nlohmann::json;

namespace {

json host_set_without_telemetry()
{
    std::ifstream in(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "ci-vm-epyc-zen5-2vcpu" / "standard.json");
    return json::parse(in);
}

json narrow_link_json(const std::string &taken)
{
    auto speed = [](double gts, int generation, int width, double rate) {
        return json{{"speed_gts", gts}, {"generation", generation}, {"width", width}, {"rate_gb_per_s", rate}};
    };
    return {{"kind", "pcie"},
            {"address", "0000:41:00.0"},
            {"current", speed(16, 4, 8, 15.75)},
            {"max", speed(32, 5, 16, 63.0)},
            {"port", {{"address", "0000:00:01.0"}, {"max", speed(32, 5, 16, 63.0)}}},
            {"supported_rate_gb_per_s", 63.0},
            {"below_max", true},
            {"finding", "this x16 Gen5 card trained at x8 Gen4: the transfers' ceiling is a quarter of what the card "
                        "supports"},
            {"taken", taken},
            {"unknown", json::object()}};
}

// The published host set, its device given a narrow link and every stream, pattern and
// transfer result telemetry (the transfers their link).
json host_set_with_telemetry()
{
    json set = host_set_without_telemetry();
    set["devices"][0]["link"] = narrow_link_json("at description, idle");
    for (auto &r : set["results"]) {
        const std::string probe = r["probe"];
        r["telemetry"] = {{"source", "nvml"},
                          {"samples", 12},
                          {"window", "timed-runs"},
                          {"figures",
                           {{"busy_percent", {{"min", 96.0}, {"median", 98.0}, {"max", 100.0}}},
                            {"power_of_limit", {{"min", 0.5}, {"median", 0.6}, {"max", 0.7}}},
                            {"core_clock_mhz", nullptr}}},
                          {"throttle_reasons", {"power-cap"}},
                          {"unavailable", {{"core_clock_mhz", "nvml: Not Supported (3)"}}}};
        r["throttled"] = {{"reasons", {"power-cap"}}, {"samples", 3}, {"detail", "3 of 12 samples"}};
        if (probe == "bandwidth.transfer") {
            r["link"] = narrow_link_json("during the timed runs (12 readings)");
            r["link_efficiency"] = 0.8;
        }
    }
    return set;
}

const json *card_memory_section(const json &data, const std::string &title)
{
    for (const auto &card : data["cards"])
        for (const auto &section : card["sections"])
            if (section["title"] == title) return &section;
    return nullptr;
}

constexpr const char *kCardAroundMemoryTitle = "The card around the memory: link and telemetry";

} // namespace

TEST(CardAroundMemoryReport, SaysTheLinkFindingAndThatBusyTimeIsNotBytes)
{
    const json set = host_set_with_telemetry();
    ASSERT_FALSE(vrb::validate_result_json(set)) << vrb::validate_result_json(set)->message;
    const json data = vrb::report_data({{"watched.json", set}});
    const json *section = card_memory_section(data, kCardAroundMemoryTitle);
    ASSERT_TRUE(section);
    const std::string notes = section->at("notes").dump();
    EXPECT_NE(notes.find("This x16 Gen5 card trained at x8 Gen4: the transfers' ceiling is a quarter of what the "
                         "card supports."),
              std::string::npos)
        << notes;
    EXPECT_NE(notes.find("read during the timed runs (12 readings)"), std::string::npos) << notes; // under load
    EXPECT_NE(notes.find("Busy time is not bytes"), std::string::npos) << notes;
    const std::string tables = section->at("tables").dump();
    EXPECT_NE(tables.find("\"98%\""), std::string::npos);       // busy
    EXPECT_NE(tables.find("\"60%\""), std::string::npos);       // power of its limit
    EXPECT_NE(tables.find("\"80.0 %\""), std::string::npos);    // a transfer against its link
    EXPECT_NE(tables.find("\"power-cap\""), std::string::npos); // throttled
    EXPECT_NE(tables.find("pattern.gather"), std::string::npos);
}

TEST(CardAroundMemoryReport, ASetWithoutTelemetryHasNoSuchSection)
{
    const json data = vrb::report_data({{"plain.json", host_set_without_telemetry()}});
    EXPECT_FALSE(card_memory_section(data, kCardAroundMemoryTitle));
}

TEST(CardAroundMemoryReport, EveryFieldItReadsMayBeNullOrAbsent)
{
    // Each field the section reads, null and then absent, in the device and a transfer result.
    const std::vector<std::string> pointers = {"/devices/0/link",
                                               "/devices/0/link/current",
                                               "/devices/0/link/max",
                                               "/devices/0/link/port",
                                               "/devices/0/link/finding",
                                               "/devices/0/link/below_max",
                                               "/devices/0/link/current/width",
                                               "/devices/0/link/current/speed_gts"};
    json base = host_set_with_telemetry();
    std::size_t transfer = 0;
    while (base["results"][transfer]["probe"] != "bandwidth.transfer")
        ++transfer;
    const std::string t = "/results/" + std::to_string(transfer);
    std::vector<std::string> all = pointers;
    for (const char *field :
         {"/telemetry", "/telemetry/figures", "/telemetry/figures/busy_percent", "/telemetry/throttle_reasons",
          "/throttled", "/link", "/link/current", "/link/port", "/link_efficiency"})
        all.push_back(t + field);
    // The sanitized build reads every fourth variant, the release build every one.
    std::size_t variant = 0;
    for (const auto &pointer : all)
        for (const bool remove : {false, true}) {
            if (variant++ % vrb::test::variant_step(4) != 0) continue;
            json set = base;
            const json::json_pointer at(pointer);
            if (remove)
                set[at.parent_pointer()].erase(at.back());
            else
                set[at] = nullptr;
            if (vrb::validate_result_json(set)) continue; // a variant the schema does not allow
            EXPECT_NO_THROW(vrb::report_data({{"variant.json", set}})) << pointer << (remove ? " absent" : " null");
        }
}
