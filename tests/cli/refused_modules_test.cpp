// Modules refused through the workers, end to end: what `list` shows and what a run
// records for a module that is broken or named like one found before it.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <string>

TEST(CliModules, ListsImplausibleCountsAndBadNamesAsFailedNotAsCrashes)
{
    const ProcessResult r = run_process({VRAMBENCH_EXE, "list", "--plugin", MOCK_MANY_DEVICES_PATH, "--plugin",
                                         MOCK_BAD_NAME_PATH, "--plugin", MOCK_NULL_INIT_PATH});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("mock device_count answered 4294967295 devices, more than the 1024 vrambench accepts"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("backend name '../../evil name' refused"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("init answered ok but handed back no context"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("crashed"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("evil name:"), std::string::npos) << "no device may carry the refused name";
}

TEST(CliModules, RecordsASecondModuleOfOneNameAsRefusedNamingBothFilesWithoutFailingTheRun)
{
    const ProcessResult r =
        run_process({VRAMBENCH_EXE, "run", "--plugin", MOCK_UNAVAILABLE_PATH, "--plugin", MOCK_OK_PATH, "--backend",
                     "host", "--suite", "quick", "--size", "1M", "--probe", "bandwidth.stream", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    std::size_t refused = 0;
    for (const auto &b : doc["backends"]) {
        if (b["state"] != "refused") continue;
        ++refused;
        EXPECT_EQ(b["name"], "mock");
        EXPECT_EQ(b["file"], MOCK_OK_PATH);
        const std::string reason = b["reason"];
        EXPECT_NE(reason.find("another module named 'mock' was loaded first, from " MOCK_UNAVAILABLE_PATH),
                  std::string::npos)
            << reason;
        EXPECT_NE(reason.find(MOCK_OK_PATH), std::string::npos) << reason;
    }
    EXPECT_EQ(refused, 1u) << doc["backends"].dump();
    // Said as a note: the edit-build-run loop loads a module from --plugin and from its
    // installed folder, and nothing in that is an error.
    EXPECT_NE(r.err.find("vrambench: note: another module named 'mock' was loaded first"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("refused"), std::string::npos) << r.err;
}

TEST(CliModules, AnOpSupportedAnswerThatIsNeitherYesNorNoFailsTheProbeNamingTheModuleAsBroken)
{
    const ProcessResult r =
        run_process({VRAMBENCH_EXE, "run", "--plugin", MOCK_BAD_ANSWER_PATH, "--backend", "mock", "--suite", "quick",
                     "--size", "1M", "--probe", "latency.chase", "--format", "json"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    ASSERT_FALSE(doc["results"].empty()) << r.out;
    for (const auto &result : doc["results"]) {
        EXPECT_EQ(result["status"], "failed") << result.dump();
        const std::string error = result["error"].is_string() ? result["error"].get<std::string>() : "";
        EXPECT_NE(error.find("mock op_supported answered 3735928559, neither 1 (supported) nor 0: refused as a "
                             "broken module"),
                  std::string::npos)
            << result.dump();
    }
}
