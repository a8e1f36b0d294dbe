#include <vrambench/core/error.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

nlohmann::json minimal_document()
{
    vrb::DeviceRecord d;
    d.id = "host:0";
    d.backend = "host";
    d.info.struct_size = sizeof d.info;
    d.info.type = VRB_DEVICE_CPU;
    std::strcpy(d.info.name, "cpu");
    std::strcpy(d.info.api, "host");
    d.info.known = VRB_KNOWN_TOTAL_MEMORY;
    d.info.total_memory_bytes = 1 << 30;
    vrb::ProbeResult r;
    r.probe = "bandwidth.stream";
    r.backend = "host";
    r.device = "host:0";
    r.seconds = {0.5, 0.25};
    r.samples = {2, 4};
    r.statistics = vrb::summarize(r.samples);
    r.value = 3;
    r.timer = "host-monotonic";
    r.verification = {vrb::Verification::Status::passed, "all lanes match"};
    return {{"schema_version", 1},
            {"tool", {{"name", "vrambench"}, {"version", "0.1.0"}, {"git_commit", "abc"}}},
            {"run",
             {{"id", "0123456789abcdef"},
              {"started", "2026-11-29T18:00:00.000Z"},
              {"finished", "2026-11-29T18:00:01Z"},
              {"command_line", {"vrambench", "run"}},
              {"status", "complete"},
              {"suite", "quick"}}},
            {"host", vrb::host_json()},
            {"backends", nlohmann::json::array()},
            {"devices", {vrb::to_json(d)}},
            {"results", {vrb::to_json(r)}}};
}

std::filesystem::path write_temp(const std::string &name, const std::string &text)
{
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(ResultSchema, AcceptsADocumentBuiltFromTheResultModel)
{
    const auto violation = vrb::validate_result_json(minimal_document());
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
}

TEST(ResultSchema, NamesThePathOfAWrongUnit)
{
    auto doc = minimal_document();
    doc["results"][0]["unit"] = "furlongs";
    const auto violation = vrb::validate_result_json(doc);
    ASSERT_TRUE(violation);
    EXPECT_EQ(violation->path, "$.results[0].unit");
}

TEST(ResultSchema, RefusesANumberWrittenAsAString)
{
    auto doc = minimal_document();
    doc["results"][0]["value"] = "3.0";
    const auto violation = vrb::validate_result_json(doc);
    ASSERT_TRUE(violation);
    EXPECT_EQ(violation->path, "$.results[0].value");
}

TEST(ResultSchema, RefusesAMissingRequiredField)
{
    auto doc = minimal_document();
    doc["devices"][0].erase("uuid");
    const auto violation = vrb::validate_result_json(doc);
    ASSERT_TRUE(violation);
    EXPECT_EQ(violation->path.rfind("$.devices[0]", 0), 0u) << violation->path;
}

TEST(ResultSchema, GivesEveryUnknownDeviceFieldAReason)
{
    const auto doc = minimal_document();
    const auto &device = doc["devices"][0];
    for (const auto &[key, value] : device.items()) {
        if (value.is_null()) {
            EXPECT_TRUE(device["unknown"].contains(key)) << key << " is null without a reason";
        }
    }
}

TEST(ResultFile, RefusesATruncatedFileWithTheLineAndColumn)
{
    const std::string text = minimal_document().dump(2);
    const auto path = write_temp("vrb-truncated.json", text.substr(0, text.size() / 2));
    try {
        vrb::read_result_file(path);
        ADD_FAILURE();
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("line"), std::string::npos) << e.what();
    }
}

TEST(ResultFile, RefusesANumberPastTheRangeOfADouble)
{
    // Found by fuzz_result_reader: the parser throws out_of_range, not parse_error.
    EXPECT_THROW(vrb::parse_result_text("3E333", "t"), vrb::UsageError);
    EXPECT_THROW(vrb::parse_result_text(R"({"schema_version": 1, "x": -1e400})", "t"), vrb::UsageError);
}

TEST(ResultFile, RefusesAnotherSchemaVersionAndAFileTooLarge)
{
    auto doc = minimal_document();
    doc["schema_version"] = 2;
    const auto path = write_temp("vrb-v2.json", doc.dump());
    EXPECT_THROW(vrb::read_result_file(path), vrb::UsageError);
    const auto big = write_temp("vrb-big.json", minimal_document().dump());
    EXPECT_THROW(vrb::read_result_file(big, 100), vrb::UsageError);
}

TEST(ResultFile, WritesAtomicallyAndRefusesAMissingFolder)
{
    const auto path = std::filesystem::temp_directory_path() / "vrb-atomic.json";
    vrb::write_file_atomically(path, "{}\n");
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "{}\n");
    EXPECT_THROW(vrb::write_file_atomically("/nonexistent-folder/x.json", "{}"), vrb::UsageError);
}

TEST(ResultFile, AValueNoReaderCouldTakeIsReportedWithTheCommandAndItsFilesNotAsABareLibraryException)
{
    std::string what;
    try {
        (void)nlohmann::json(nullptr).get<double>();
    } catch (const nlohmann::json::exception &e) {
        what = e.what();
    }
    ASSERT_FALSE(what.empty());
    const std::string said = vrb::unreadable_value_message("report", {"a.json", "b.json"}, what);
    EXPECT_EQ(said.rfind("report: could not read a value of a.json, b.json: " + what, 0), 0u) << said;
    EXPECT_NE(said.find("the reader, not the file, is at fault"), std::string::npos) << said;
    EXPECT_EQ(said.find("internal error"), std::string::npos) << said;
    // Without a file to name, the command still says it is its own fault.
    EXPECT_EQ(vrb::unreadable_value_message("run", {}, what).rfind("internal error: run met a JSON value", 0), 0u);
}
