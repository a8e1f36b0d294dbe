// The capability query (op_supported) end to end: the kit holds a module's answers to
// what its run() does, and a run skips what a backend declines, with the reason,
// instead of running it to learn VRB_ERROR_UNSUPPORTED.
#include "run_process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <string>

TEST(Capabilities, TheKitFailsAModuleWhoseQueryClaimsWhatItsRunRefuses)
{
    const auto r = plugin_check(OVERCLAIMS_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  ops.capabilities")) << r.out;
    EXPECT_TRUE(contains(r.out, "gather, 4-byte elements, memory kind \"ram\" (0), count 64: op_supported says "
                                "supported, but run() answers unsupported"))
        << r.out;
}

TEST(Capabilities, TheKitPassesAQueryThatAgreesWithRunAndModulesMadeByTheAdapter)
{
    for (const std::string &module : {std::string(DECLINES_DOT_MODULE), std::string(VRAMBENCH_TEMPLATE_MODULE),
                                      std::string(VRAMBENCH_MODULE_DIR) + "/vrambench-host.so"}) {
        SCOPED_TRACE(module);
        const auto r = plugin_check(module);
        EXPECT_TRUE(contains(r.out, "PASS  ops.capabilities")) << r.out;
    }
}

TEST(Capabilities, TheStreamProbeSkipsAnOperationTheBackendDeclinesAndSaysWhy)
{
    const auto r = run_process({VRAMBENCH_EXE, "run", "--plugin", DECLINES_DOT_MODULE, "--backend", "faulty", "--suite",
                                "quick", "--size", "1M", "--probe", "bandwidth.stream", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    int dots = 0, others = 0;
    for (const auto &result : doc.at("results")) {
        if (result.at("probe") != "bandwidth.stream") continue;
        const std::string op = result.at("parameters").at("operation");
        const std::string width = std::to_string(result.at("parameters").at("element_bytes").get<int>());
        if (op == "dot") {
            ++dots;
            EXPECT_EQ(result.at("status"), "waived") << result.dump();
            EXPECT_EQ(result.at("error"), "the backend does not offer dot at " + width + " bytes on ram")
                << result.dump();
        } else {
            ++others;
            EXPECT_EQ(result.at("status"), "ok") << result.dump();
        }
    }
    EXPECT_GE(dots, 1);
    EXPECT_GE(others, 6);
}

TEST(Capabilities, TheRunTableShowsAFailedVerificationsOperationWidthKindCountLaneAndValues)
{
    const auto r = run_process({VRAMBENCH_EXE, "run", "--plugin", WRONG_LANE_MODULE, "--backend", "faulty", "--suite",
                                "quick", "--size", "1M", "--probe", "bandwidth.stream"});
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    // 1 MiB of 16-byte elements (the quick suite's width); the copy's lane 3 comes back
    // with its lowest bit flipped.
    EXPECT_TRUE(contains(r.out, "    verification failed: copy at 16 bytes on ram, 65536 elements: 1 of 262144 lanes "
                                "wrong; first at byte 0xc: 0x"))
        << r.out;
    EXPECT_FALSE(contains(r.out, "verification failed: read")) << r.out;
}
