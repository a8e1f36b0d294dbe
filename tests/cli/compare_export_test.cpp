// `compare`, `export`, `list --format json` and `--version` end to end: exit codes, a
// corrupt file named, and CSV that reads back as the JSON it came from.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

std::string data(const std::string &name)
{
    return std::string(VRAMBENCH_TEST_DATA) + "/compare/" + name;
}

std::filesystem::path compare_temp_dir()
{
    auto dir = std::filesystem::temp_directory_path() / ("vrb-compare-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

// RFC 4180: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string &text)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else {
            field += c;
        }
    }
    EXPECT_FALSE(quoted) << "an unterminated quote";
    EXPECT_TRUE(field.empty() && row.empty()) << "a last line without its line break";
    return rows;
}

// An empty field for null; a number as printed, which must read back as the same double.
void expect_field(const std::string &field, const nlohmann::json &value, const std::string &what)
{
    if (value.is_null()) {
        EXPECT_EQ(field, "") << what;
    } else if (value.is_number()) {
        ASSERT_FALSE(field.empty()) << what;
        EXPECT_EQ(std::strtod(field.c_str(), nullptr), value.get<double>()) << what << ": " << field;
    } else if (value.is_string()) {
        EXPECT_EQ(field, value.get<std::string>()) << what;
    } else {
        EXPECT_EQ(nlohmann::json::parse(field), value) << what;
    }
}

nlohmann::json at(const nlohmann::json &object, const char *key)
{
    return object.is_object() && object.contains(key) ? object[key] : nlohmann::json();
}

} // namespace

TEST(CompareCli, ExitsFiveWhenAFigureFallsBelowTheGateAndZeroAboveIt)
{
    const auto below = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--fail-below", "0.95"});
    EXPECT_EQ(below.exit_code, 5) << below.err;
    EXPECT_NE(below.err.find("below 0.95: bandwidth.stream operation=read"), std::string::npos) << below.err;
    EXPECT_NE(below.out.find("Mann-Whitney U"), std::string::npos) << below.out;
    const auto above = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--fail-below", "0.5"});
    EXPECT_EQ(above.exit_code, 0) << above.err;
    EXPECT_TRUE(above.err.empty()) << above.err;
}

TEST(CompareCli, LinesUpOneCardThroughTwoApisWhenMatchingByCard)
{
    const auto r =
        vrambench({"compare", data("node-a.json"), data("node-a-vulkan.json"), "--match", "card", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto &c = j["comparisons"][0];
    ASSERT_EQ(c["devices"].size(), 1u);
    EXPECT_EQ(c["devices"][0]["base"], "cuda:0");
    EXPECT_EQ(c["devices"][0]["other"], "vulkan:0");
    EXPECT_EQ(c["match"], "card");
}

TEST(CompareCli, ComparesEveryFurtherFileWithTheBase)
{
    const auto r =
        vrambench({"compare", data("node-a.json"), data("node-b.json"), data("node-a-vulkan.json"), "--format", "csv"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("node-b.json"), std::string::npos);
    EXPECT_NE(r.out.find("node-a-vulkan.json"), std::string::npos);
    const auto markdown = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--format", "markdown"});
    EXPECT_EQ(markdown.exit_code, 0) << markdown.err;
    EXPECT_NE(markdown.out.find("Only in the base"), std::string::npos) << markdown.out;
}

TEST(CompareCli, RefusesACorruptOrSchemaInvalidFileNamingIt)
{
    const auto dir = compare_temp_dir();
    const auto truncated = (dir / "truncated.json").string();
    std::ofstream(truncated) << "{\"schema_version\": 1, \"tool\": ";
    auto r = vrambench({"compare", data("node-a.json"), truncated});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(truncated + ": not valid JSON"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;

    auto document = vrb::read_result_file(data("node-b.json"));
    document["results"][0]["unit"] = "furlongs";
    const auto invalid = (dir / "invalid.json").string();
    std::ofstream(invalid) << document.dump();
    r = vrambench({"compare", invalid, data("node-a.json")});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(invalid + ": does not match schema v1: at $.results[0].unit"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;

    r = vrambench({"compare", data("node-a.json")});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    r = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--fail-below", "-1"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    std::filesystem::remove_all(dir);
}

TEST(CompareCli, ExitsTwoNamingPairAndReportWhenNoDeviceMatches)
{
    const auto r = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--match", "card"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("nothing was compared"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("--pair cuda:0=cuda:0"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("vrambench report"), std::string::npos) << r.err;
}

TEST(CompareCli, PairLinesUpTheChosenDevicesOfTwoFiles)
{
    const auto r = vrambench(
        {"compare", data("node-a.json"), data("node-a-vulkan.json"), "--pair", "cuda:1=vulkan:0", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto c = nlohmann::json::parse(r.out)["comparisons"][0];
    ASSERT_EQ(c["devices"].size(), 1u);
    EXPECT_EQ(c["devices"][0]["base"], "cuda:1");
    EXPECT_EQ(c["devices"][0]["other"], "vulkan:0");
    EXPECT_EQ(c["match"], "pair");
    EXPECT_FALSE(c["figures"].empty());

    const auto missing = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--pair", "cuda:0=acme:0"});
    EXPECT_EQ(missing.exit_code, 2) << missing.err;
    EXPECT_NE(missing.err.find("--pair names device 'acme:0'"), std::string::npos) << missing.err;
    const auto malformed = vrambench({"compare", data("node-a.json"), data("node-b.json"), "--pair", "cuda:0"});
    EXPECT_EQ(malformed.exit_code, 2) << malformed.err;
    EXPECT_NE(malformed.err.find("expected BASE_DEVICE=OTHER_DEVICE"), std::string::npos) << malformed.err;
    const auto three = vrambench(
        {"compare", data("node-a.json"), data("node-b.json"), data("node-a-vulkan.json"), "--pair", "cuda:0=cuda:0"});
    EXPECT_EQ(three.exit_code, 2) << three.err;
}

TEST(ExportCli, CsvOfARealRunReadsBackAsItsJsonValueForValue)
{
    const auto dir = compare_temp_dir();
    const auto file = (dir / "x.json").string();
    const auto run = vrambench({"run", "--backend", "host", "--suite", "quick", "-p", "bandwidth.*", "-o", file});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto exported = vrambench({"export", file, "--format", "csv"});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    const auto rows = parse_csv(exported.out);
    const auto document = vrb::read_result_file(file);
    ASSERT_FALSE(rows.empty());
    const auto &header = rows[0];
    auto column = [&](const std::string &name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return static_cast<std::size_t>(it - header.begin());
    };
    EXPECT_EQ(header[column("value (unit)")], "value (unit)");
    std::size_t row = 1, points = 0;
    for (const auto &r : document["results"]) {
        ASSERT_LT(row, rows.size());
        const auto &cells = rows[row++];
        ASSERT_EQ(cells.size(), header.size());
        const std::string what = r["probe"].get<std::string>() + " " + r["parameters"].dump();
        EXPECT_EQ(cells[column("row")], "result");
        for (const char *key : {"probe", "backend", "device", "unit", "estimator", "status", "error", "efficiency"})
            expect_field(cells[column(key == std::string("efficiency") ? "efficiency (of peak)" : key)], at(r, key),
                         what + " " + key);
        expect_field(cells[column("value (unit)")], r["value"], what);
        expect_field(cells[column("parameters (JSON)")], r["parameters"], what);
        expect_field(cells[column("operation")], at(r["parameters"], "operation"), what);
        expect_field(cells[column("element (bytes)")], at(r["parameters"], "element_bytes"), what);
        expect_field(cells[column("array (bytes)")], at(r["parameters"], "array_bytes"), what);
        expect_field(cells[column("verification")], r["verification"]["status"], what);
        expect_field(cells[column("samples")], r["samples"].size(), what);
        for (const char *key : {"min", "median", "max"})
            expect_field(cells[column(std::string(key) + " (unit)")], at(r["statistics"], key), what + " " + key);
        expect_field(cells[column("cv (stddev/mean)")], at(r["statistics"], "cv"), what);
        const auto curve = at(at(r, "extra"), "curve");
        if (curve.is_null()) continue;
        const std::string x = curve["x"];
        for (const auto &p : curve["points"]) {
            ASSERT_LT(row, rows.size());
            const auto &point = rows[row++];
            ++points;
            EXPECT_EQ(point[column("row")], "point");
            EXPECT_EQ(point[column("probe")], r["probe"]);
            EXPECT_EQ(point[column("x")], x);
            expect_field(point[column("x value")], p[x], what + " x");
            expect_field(point[column("x unit")], curve["x_unit"], what);
            expect_field(point[column("value (unit)")], p["value"], what + " point");
            expect_field(point[column("unit")], r["unit"], what);
            expect_field(point[column("median (unit)")], at(p["statistics"], "median"), what + " point median");
            expect_field(point[column("samples")], p["samples"].size(), what);
            expect_field(point[column("status")], p["status"], what);
        }
    }
    EXPECT_EQ(row, rows.size()) << "rows past the results";
    EXPECT_GT(points, 0u) << "bandwidth.sweep has a curve";
    std::filesystem::remove_all(dir);
}

TEST(ExportCli, JsonIsTheFileIndentedAndACorruptFileExitsTwo)
{
    const auto r = vrambench({"export", data("node-a.json"), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out), vrb::read_result_file(data("node-a.json")));
    EXPECT_NE(r.out.find("\n  \"devices\""), std::string::npos);
    const auto dir = compare_temp_dir();
    const auto bad = (dir / "bad.json").string();
    std::ofstream(bad) << "not json";
    const auto refused = vrambench({"export", bad});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find(bad), std::string::npos) << refused.err;
    std::filesystem::remove_all(dir);
}

TEST(ListCli, JsonFormatGivesTheBackendsAsData)
{
    const auto r = vrambench({"list", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto backends = nlohmann::json::parse(r.out);
    ASSERT_TRUE(backends.is_array());
    bool host = false;
    for (const auto &b : backends)
        host = host || b["name"] == "host";
    EXPECT_TRUE(host) << r.out;
}

TEST(VersionCli, PrintsTheVersionAndCommitAResultSetRecords)
{
    const auto version = vrambench({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    const auto dir = compare_temp_dir();
    const auto file = (dir / "v.json").string();
    const auto run = vrambench(
        {"run", "--backend", "host", "--suite", "quick", "--size", "4M", "-p", "bandwidth.stream", "-o", file});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto tool = vrb::read_result_file(file)["tool"];
    EXPECT_NE(version.out.find("vrambench " + tool["version"].get<std::string>() + " (commit " +
                               tool["git_commit"].get<std::string>()),
              std::string::npos)
        << version.out;
    EXPECT_EQ(version.out.find("0.0.0"), std::string::npos) << version.out;
    std::filesystem::remove_all(dir);
}

TEST(HelpCli, NamesExitCodeFiveForTheCompareGate)
{
    const auto r = vrambench({"--help"});
    EXPECT_NE(r.out.find("5 a compared figure fell below --fail-below"), std::string::npos) << r.out;
}
