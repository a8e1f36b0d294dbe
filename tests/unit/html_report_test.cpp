// The report's data (what each chart and table holds) and its page (what is inlined and
// how the data is kept from closing its script element).
#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/result_index.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using nlohmann::json;

namespace {

json device(const std::string &id, const std::string &backend, const std::string &name)
{
    return {{"id", id},
            {"backend", backend},
            {"index", 0},
            {"name", name},
            {"api", backend == "cuda" ? "CUDA" : "host"},
            {"key", id},
            {"type", backend == "host" ? "cpu" : "discrete-gpu"},
            {"total_memory_bytes", 24ull << 30},
            {"memory_bus_width_bits", nullptr},
            {"memory_clock_khz", nullptr},
            {"unknown", {{"memory_bus_width_bits", "not reported by the host backend"}}},
            {"peak", {{"gb_per_s", nullptr}, {"source", "none"}, {"note", "no datasheet entry"}}}};
}

json gpu()
{
    json d = device("cuda:0", "cuda", "Test GPU");
    d["memory_bus_width_bits"] = 384;
    d["memory_clock_khz"] = 10501000;
    d["unknown"] = json::object();
    d["peak"] = {{"gb_per_s", 1008.096}, {"source", "runtime-clock"}, {"convention", "half the per-pin data rate"}};
    return d;
}

json stream(const std::string &device, const std::string &op, int width, double value)
{
    return {{"probe", "bandwidth.stream"},
            {"device", device},
            {"status", "ok"},
            {"value", value},
            {"efficiency", value / 1008.096},
            {"parameters", {{"operation", op}, {"element_bytes", width}}},
            {"verification", {{"status", "passed"}, {"detail", "checksum matches"}}}};
}

json curve(const std::string &probe, const std::string &device, const std::string &op, std::vector<double> values,
           json plateaus)
{
    json points = json::array();
    double bytes = 4096;
    for (double v : values) {
        points.push_back({{"working_set_bytes", bytes}, {"value", v}, {"status", "ok"}});
        bytes *= 4;
    }
    return {{"probe", probe},
            {"device", device},
            {"status", "ok"},
            {"value", values.back()},
            {"parameters", {{"operation", op}}},
            {"extra", {{"curve", {{"points", points}, {"plateaus", plateaus}}}}}};
}

json set_of(std::vector<json> devices, std::vector<json> results)
{
    return {{"tool", {{"name", "vrambench"}, {"version", "0.1.0"}, {"git_commit", "abc"}}},
            {"run",
             {{"id", "1"},
              {"started", "2026-01-01T00:00:00Z"},
              {"finished", "2026-01-01T00:01:00Z"},
              {"status", "complete"},
              {"suite", "quick"},
              {"command_line", {"vrambench", "run"}}}},
            {"host", {{"hostname", "box"}, {"cpu", "cpu"}, {"os", "Linux"}, {"logical_cpus", 2}}},
            {"devices", devices},
            {"results", results}};
}

std::vector<const json *> charts_titled(const json &sections, const std::string &title)
{
    std::vector<const json *> found;
    for (const json &section : sections)
        for (const json &chart : section["charts"])
            if (chart["title"].get<std::string>().find(title) != std::string::npos) found.push_back(&chart);
    return found;
}

const json *series_labelled(const json &chart, const std::string &prefix)
{
    for (const json &s : chart["series"])
        if (s["label"].get<std::string>().starts_with(prefix)) return &s;
    return nullptr;
}

} // namespace

TEST(HtmlReport, StreamChartHasOneSeriesPerElementWidthAndThePeakAsADashedLine)
{
    const json set = set_of({gpu()}, {stream("cuda:0", "read", 4, 800), stream("cuda:0", "copy", 4, 700),
                                      stream("cuda:0", "read", 16, 900), stream("cuda:0", "copy", 16, 850)});
    const json data = vrb::report_data({{"gpu.json", set}});
    const auto charts = charts_titled(data["cards"][0]["sections"], "Stream bandwidth");
    ASSERT_EQ(charts.size(), 1u);
    const json &chart = *charts[0];
    EXPECT_EQ(chart["x"]["labels"], json({"read", "copy"}));
    ASSERT_NE(series_labelled(chart, "4 B"), nullptr);
    ASSERT_NE(series_labelled(chart, "16 B"), nullptr);
    EXPECT_EQ((*series_labelled(chart, "16 B"))["points"][0]["y"], 900);
    const json *peak = series_labelled(chart, "theoretical peak 1008.1 GB/s");
    ASSERT_NE(peak, nullptr);
    EXPECT_EQ((*peak)["style"], "peak");
    EXPECT_EQ((*peak)["points"].size(), 2u);
    EXPECT_EQ(vrb::report_chart_points(chart), 6u);
    // Efficiency is printed in the table: 900 / 1008.1.
    EXPECT_NE(data.dump().find("89.3 %"), std::string::npos);
}

TEST(HtmlReport, ProvenanceNamesTheModuleAndWarnsWhenItWasBuiltWithoutOptimisation)
{
    json set = set_of({gpu()}, {stream("cuda:0", "read", 4, 800)});
    set["backends"] = {
        {{"name", "host"}, {"file", "/lib/vrambench-host.so"}, {"state", "available"}},
        {{"name", "cuda"}, {"file", "/opt/acme/vrambench-cuda.so"}, {"state", "available"}, {"build", "unoptimized"}}};
    const std::string page = vrb::report_data({{"gpu.json", set}}).dump();
    EXPECT_NE(page.find("cuda (/opt/acme/vrambench-cuda.so), unoptimized"), std::string::npos) << page;
    EXPECT_NE(page.find("The cuda module was built without optimisation (-O0)"), std::string::npos) << page;

    set["backends"][1]["build"] = "optimized";
    const std::string optimised = vrb::report_data({{"gpu.json", set}}).dump();
    EXPECT_NE(optimised.find("cuda (/opt/acme/vrambench-cuda.so), optimized"), std::string::npos);
    EXPECT_EQ(optimised.find("without optimisation"), std::string::npos);
}

TEST(HtmlReport, CurvesShadeAndNameTheirPlateausOnALogSizeAxis)
{
    const json plateaus = {{{"name", "L2"}, {"from", 4096}, {"to", 65536}, {"value", 30.0}},
                           {{"name", "memory"}, {"from", 1048576}, {"to", 16777216}, {"value", 600.0}}};
    const json set = set_of({gpu()}, {curve("latency.chase", "cuda:0", "chase", {30, 31, 600, 610, 605}, plateaus)});
    const json data = vrb::report_data({{"gpu.json", set}});
    const auto charts = charts_titled(data["cards"][0]["sections"], "Latency");
    ASSERT_EQ(charts.size(), 1u);
    EXPECT_EQ((*charts[0])["x"]["scale"], "log-bytes");
    ASSERT_EQ((*charts[0])["bands"].size(), 2u);
    EXPECT_EQ((*charts[0])["bands"][1]["label"], "memory: 600 ns");
    EXPECT_EQ((*charts[0])["bands"][1]["from"], 1048576);
    EXPECT_EQ(vrb::report_chart_points(*charts[0]), 5u);
}

TEST(HtmlReport, FailedPointsAndResultsAreLeftOutOfChartsAndListedAsNotMeasured)
{
    json sweep = curve("bandwidth.sweep", "cuda:0", "read", {100, 200, 300}, json::array());
    sweep["extra"]["curve"]["points"][1]["status"] = "failed";
    json broken = stream("cuda:0", "copy", 4, 0);
    broken["status"] = "failed";
    broken.erase("value");
    broken["error"] = "the driver said no";
    const json data = vrb::report_data({{"gpu.json", set_of({gpu()}, {sweep, broken})}});
    const auto charts = charts_titled(data["cards"][0]["sections"], "Working-set sweep");
    ASSERT_EQ(charts.size(), 1u);
    EXPECT_EQ((*series_labelled(*charts[0], "read"))["points"].size(), 2u);
    EXPECT_NE(data.dump().find("the driver said no"), std::string::npos);
}

TEST(HtmlReport, VramAgainstRamPutsHostRamFirstAndWorksThePeakFromBusWidthAndClock)
{
    const json host_set = set_of({device("host:0", "host", "Some CPU")}, {stream("host:0", "read", 16, 50)});
    const json gpu_set = set_of({gpu()}, {stream("cuda:0", "read", 16, 900)});
    const json data = vrb::report_data({{"gpu.json", gpu_set}, {"host.json", host_set}});
    const json &rows = data["vram_against_ram"]["tables"][0]["rows"];
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_NE(rows[0][0].get<std::string>().find("host:0"), std::string::npos);
    EXPECT_EQ(rows[1][5], "18.00 x"); // 900 / 50
    const std::string formula = rows[1].back();
    EXPECT_NE(formula.find("2 x 10501 MHz x 384 bits / 8 = 1008.1 GB/s"), std::string::npos) << formula;
    EXPECT_NE(rows[0].back().get<std::string>().find("not reported by the host backend"), std::string::npos);
}

TEST(HtmlReport, OverlaysEveryCardOnlyWhenThereAreSeveral)
{
    const json host_set = set_of({device("host:0", "host", "Some CPU")}, {stream("host:0", "read", 16, 50)});
    const json gpu_set = set_of({gpu()}, {stream("cuda:0", "read", 16, 900)});
    EXPECT_TRUE(vrb::report_data({{"gpu.json", gpu_set}})["overlays"].empty());
    const json data = vrb::report_data({{"gpu.json", gpu_set}, {"host.json", host_set}});
    ASSERT_EQ(data["overlays"].size(), 1u);
    EXPECT_EQ(data["overlays"][0]["charts"][0]["series"].size(), 2u);
}

TEST(HtmlReport, EveryChartHasItsOwnId)
{
    const json set = set_of(
        {gpu()}, {stream("cuda:0", "read", 4, 800), curve("bandwidth.sweep", "cuda:0", "read", {1, 2}, json::array())});
    const json data = vrb::report_data({{"a.json", set}, {"b.json", set}});
    std::set<std::string> ids;
    std::size_t charts = 0;
    auto collect = [&](const json &sections) {
        for (const json &section : sections)
            for (const json &chart : section["charts"]) {
                ids.insert(chart["id"].get<std::string>());
                ++charts;
            }
    };
    for (const json &card : data["cards"])
        collect(card["sections"]);
    collect(data["overlays"]);
    EXPECT_EQ(ids.size(), charts);
    EXPECT_EQ(data["chart_count"], charts);
}

TEST(HtmlReport, RefusesNoSetsAndASetWithoutDevices)
{
    EXPECT_THROW(vrb::report_data({}), vrb::UsageError);
    EXPECT_THROW(vrb::report_data({{"empty.json", set_of({}, {})}}), vrb::UsageError);
    EXPECT_THROW(vrb::read_report_inputs({}), vrb::UsageError);
}

TEST(HtmlReport, ReadingRefusesAMissingFileAndOneThatIsNotAResultSet)
{
    const auto folder = std::filesystem::temp_directory_path() / ("vrb-report-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "not-a-set.json") << R"({"schema_version": 1, "hello": "world"})";
    try {
        vrb::read_report_inputs({folder / "not-a-set.json"});
        ADD_FAILURE() << "a file that is not a result set was read";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("not-a-set.json: does not match schema"), std::string::npos) << e.what();
    }
    EXPECT_THROW(vrb::read_report_inputs({folder / "missing.json"}), vrb::UsageError);
    std::filesystem::remove_all(folder);
}

TEST(HtmlReport, PageInlinesItsScriptsAndKeepsTheDataInsideItsElement)
{
    json set = set_of({gpu()}, {stream("cuda:0", "read", 4, 800)});
    // A command line is the user's text: it must not end the data's script element
    // nor be read as one of the template's slots.
    set["run"]["command_line"] = {"vrambench", "</script><script>alert(1)</script>", "@CHARTJS@", "<!--"};
    const std::string page = vrb::report_page(vrb::report_data({{"gpu.json", set}}));
    EXPECT_EQ(page.find("</script><script>alert(1)"), std::string::npos);
    EXPECT_EQ(page.find("<!--"), std::string::npos);
    EXPECT_NE(page.find("@CHARTJS@"), std::string::npos); // left as the user's text, in the data
    EXPECT_EQ(page.find("@REPORT_SCRIPT@"), std::string::npos);
    EXPECT_EQ(page.find(" src="), std::string::npos); // nothing is fetched
    EXPECT_EQ(page.find("<link"), std::string::npos);
    EXPECT_NE(page.find("Chart.js v"), std::string::npos);
    EXPECT_NE(page.find("id=\"status\""), std::string::npos);
    // The data parses back from the page as it went in.
    const std::string open = "<script type=\"application/json\" id=\"report-data\">";
    const auto begin = page.find(open) + open.size();
    const json back = json::parse(page.substr(begin, page.find("</script>", begin) - begin));
    EXPECT_EQ(back["cards"][0]["sections"].size(),
              vrb::report_data({{"gpu.json", set}})["cards"][0]["sections"].size());
    EXPECT_NE(back.dump().find("</script><script>alert(1)</script>"), std::string::npos);
}

TEST(HtmlReport, IndexPageLinksEachReportRelativeToThePageAndEscapesItsCells)
{
    vrb::ResultIndex index;
    index.rows.push_back(
        {"card/set.json", {"<b>Card</b> & co", "cuda:0", "pci:1", "24 GiB", "1", "2", "3", "-", "-", "2026-01-01"}});
    index.refused.push_back({"bad.json", "not JSON: <oops>"});
    const std::filesystem::path folder = "/published";
    const std::string beside = vrb::result_index_html(index, folder, folder / "index.html");
    EXPECT_NE(beside.find("href=\"card/set.html\""), std::string::npos);
    EXPECT_NE(beside.find("href=\"card/set.json\""), std::string::npos);
    EXPECT_NE(beside.find("&lt;b&gt;Card&lt;/b&gt; &amp; co"), std::string::npos);
    EXPECT_EQ(beside.find("<b>Card"), std::string::npos);
    EXPECT_NE(beside.find("not JSON: &lt;oops&gt;"), std::string::npos);
    const std::string elsewhere = vrb::result_index_html(index, folder, "/site/pages/index.html");
    EXPECT_NE(elsewhere.find("href=\"../../published/card/set.html\""), std::string::npos);
}
