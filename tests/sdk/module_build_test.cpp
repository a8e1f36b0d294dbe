// How a module was compiled, read from the note the SDK's entry macro adds: a module
// built at -O0 is named as such by plugin-check, list and the result set; an optimised
// one is recorded as optimized and draws no warning.
#include "run_process.hpp"

#include <vrambench/core/modules/build_note.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

TEST(ModuleBuild, TheNoteTellsAnUnoptimisedModuleFromAnOptimisedOne)
{
    EXPECT_EQ(vrb::module_build(TEMPLATE_O0_MODULE), vrb::ModuleBuild::unoptimized);
    EXPECT_EQ(vrb::module_build(VRAMBENCH_TEMPLATE_MODULE), vrb::ModuleBuild::optimized);
    EXPECT_EQ(vrb::module_build(std::string(MOCK_DIR) + "/not-a-library.so"), vrb::ModuleBuild::unknown);
    EXPECT_EQ(vrb::module_build("/nonexistent/vrambench-acme.so"), vrb::ModuleBuild::unknown);
}

TEST(ModuleBuild, PluginCheckNamesAModuleBuiltWithoutOptimisation)
{
    const auto r = plugin_check(TEMPLATE_O0_MODULE);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "build   built without optimisation (-O0)")) << r.out;
    EXPECT_TRUE(contains(r.out, "-DCMAKE_BUILD_TYPE=Release")) << r.out;
    EXPECT_TRUE(contains(r.out, "(backend template) on 1 device: template:0, built without optimisation (-O0)"))
        << r.out;
    EXPECT_TRUE(contains(r.err, "but it was built without optimisation")) << r.err;
    const auto optimised = plugin_check(VRAMBENCH_TEMPLATE_MODULE);
    EXPECT_FALSE(contains(optimised.out + optimised.err, "without optimisation")) << optimised.out;
}

TEST(ModuleBuild, ListAndTheResultSetNameAModuleBuiltWithoutOptimisation)
{
    const auto list = vrambench({"list", "--plugin", TEMPLATE_O0_MODULE});
    EXPECT_EQ(list.exit_code, 0) << list.err;
    EXPECT_TRUE(contains(list.out, "built without optimisation (-O0)")) << list.out;

    const auto run = vrambench({"run", "--plugin", TEMPLATE_O0_MODULE, "--backend", "template", "--suite", "quick",
                                "--size", "1M", "--probe", "bandwidth.stream", "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    int seen = 0;
    for (const auto &b : doc.at("backends")) {
        if (b.at("name") == "template") {
            ++seen;
            EXPECT_EQ(b.value("build", ""), "unoptimized") << b.dump();
        }
        if (b.at("name") == "host") {
            EXPECT_EQ(b.value("build", ""), "optimized") << b.dump();
        }
    }
    EXPECT_EQ(seen, 1) << doc.at("backends").dump();
}

TEST(ModuleListing, TheSameModuleFromPluginAndAFolderIsAQuietNoteThatTheFirstWins)
{
    const std::string folder = std::filesystem::path(VRAMBENCH_TEMPLATE_MODULE).parent_path().string();
    const auto r = vrambench({"list", "--plugin", TEMPLATE_O0_MODULE}, {"VRAMBENCH_PLUGIN_PATH=" + folder});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, std::string("template skipped: another module named 'template' was loaded first, "
                                            "from ") +
                                    TEMPLATE_O0_MODULE + ", and is the one used; " + VRAMBENCH_TEMPLATE_MODULE +
                                    " is skipped (the first module of a name wins; nothing is wrong)"))
        << r.out;
    EXPECT_FALSE(contains(r.out, "refused")) << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
}
