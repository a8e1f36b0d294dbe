// The sanitizer build's leak check is only worth its cost if it is deterministic: it
// must name a leak in a module of ours, and must not report what a driver's library
// still held when that library was unloaded (a frame LeakSanitizer cannot name and no
// suppression can match). Each case runs a module in a child process and reads the
// report LeakSanitizer prints at the child's exit.
#include "../cli/run_process.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

ProcessResult open_module(const std::string &module, std::vector<std::string> env = {})
{
    env.push_back("ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_segv=0");
    env.push_back("LSAN_OPTIONS=suppressions=" VRAMBENCH_SOURCE_DIR "/tests/sanitizers/lsan.supp:print_suppressions=0");
    return run_process({OPEN_MODULE_EXE, module}, env);
}

#if defined(VRAMBENCH_SANITIZED)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
constexpr const char *not_sanitized = "only the AddressSanitizer build checks for leaks (scripts/test's second stage)";

} // namespace

TEST(LeakCheck, ReportsALeakPlantedInAModuleWithTheModulesFrameNamed)
{
    if (!sanitized) GTEST_SKIP() << not_sanitized;
    const ProcessResult r = open_module(MOCK_LEAKS_PATH);
    EXPECT_NE(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("LeakSanitizer: detected memory leaks"), std::string::npos) << r.err;
    // The allocating frame resolves to the module's source only while the module is
    // still mapped at exit; unloaded, it would read "<unknown module>".
    EXPECT_NE(r.err.find("mock_plugin.cpp"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("<unknown module>"), std::string::npos) << r.err;
}

TEST(LeakCheck, PassesAModuleThatFreesWhatItAllocates)
{
    if (!sanitized) GTEST_SKIP() << not_sanitized;
    const ProcessResult r = open_module(MOCK_OK_PATH);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("LeakSanitizer"), std::string::npos) << r.err;
}

#if defined(VRAMBENCH_VULKAN_MODULE)
TEST(LeakCheck, FindsNothingUnnamedInTheVulkanModuleItsDriverAndTheValidationLayer)
{
    if (!sanitized) GTEST_SKIP() << not_sanitized;
    const ProcessResult r = open_module(VRAMBENCH_VULKAN_MODULE, {"VRAMBENCH_VULKAN_VALIDATION=1"});
    if (r.exit_code == 3 && r.err.find("unavailable") != std::string::npos) GTEST_SKIP() << r.err;
    EXPECT_EQ(r.err.find("<unknown module>"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("LeakSanitizer"), std::string::npos) << r.err;
    EXPECT_EQ(r.exit_code, 0) << r.err;
}
#endif
