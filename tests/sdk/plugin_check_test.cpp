// `vrambench plugin-check MODULE.so` end to end: every built module passes (or, without
// its driver or device, says so and exits 3 unless --allow-unavailable), and every mock
// fault fails with a reason a plugin author can act on.
#include "run_process.hpp"

#include <vrambench/core/modules/registry.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

std::string mock(const std::string &variant)
{
    return std::string(MOCK_DIR) + "/vrambench-mock-" + variant + ".so";
}

} // namespace

TEST(PluginCheck, PassesTheHostModuleAndNamesTheModuleItsDeviceAndEveryCheck)
{
    const std::string module = std::string(VRAMBENCH_MODULE_DIR) + "/vrambench-host.so";
    const auto r = plugin_check(module);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "module  " + module)) << r.out;
    EXPECT_TRUE(contains(r.out, "backend host")) << r.out;
    EXPECT_TRUE(contains(r.out, "device  host:0")) << r.out;
    for (const char *check : {"abi.negotiation", "abi.table", "abi.struct-size", "ops.elementwise", "ops.transfer",
                              "ops.bad-arguments", "module.open-close-cycles"})
        EXPECT_TRUE(contains(r.out, std::string("PASS  ") + check)) << check << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "\nPASSED: ")) << r.out;
    // The last line alone says which module and device passed.
    EXPECT_TRUE(contains(r.out, " checks of vrambench-host.so (backend host) on 1 device: host:0\n")) << r.out;
    EXPECT_TRUE(contains(r.err, "passed every check")) << r.err;
}

TEST(PluginCheck, PassesTheBackendTemplate)
{
    const auto r = plugin_check(VRAMBENCH_TEMPLATE_MODULE);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "device  template:0")) << r.out;
}

// Every other built module: passes where it has a device; without one it is unavailable,
// exits 3 naming why, and exits 0 with --allow-unavailable.
TEST(PluginCheck, PassesEveryOtherBuiltModuleOrSaysWhyItIsUnavailable)
{
    int checked = 0;
    for (const auto &item : std::filesystem::directory_iterator(VRAMBENCH_MODULE_DIR)) {
        const std::string file = item.path().filename().string();
        if (file.rfind("vrambench-", 0) != 0 || item.path().extension() != ".so" || file == "vrambench-host.so")
            continue;
        ++checked;
        SCOPED_TRACE(file);
        const vrb::BackendEntry entry = vrb::open_backend(item.path());
        const auto r = plugin_check(item.path().string());
        if (entry.state == vrb::BackendEntry::State::available) {
            EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
            EXPECT_TRUE(contains(r.out, "device  " + entry.name + ":0")) << r.out;
            continue;
        }
        ASSERT_EQ(entry.state, vrb::BackendEntry::State::unavailable) << entry.reason;
        EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
        EXPECT_TRUE(contains(r.out, "UNAVAILABLE: ")) << r.out;
        EXPECT_TRUE(contains(r.out, "PASS  abi.table")) << r.out;
        EXPECT_TRUE(contains(r.err, "--allow-unavailable")) << r.err;
        const auto allowed = plugin_check(item.path().string(), {"--allow-unavailable"});
        EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
    }
    if (checked == 0) GTEST_SKIP() << "only the host backend is built here";
}

TEST(PluginCheck, FailsEveryMockFaultWithItsReason)
{
    struct Fault {
        std::string variant;
        int exit_code;
        std::string failed_check, reason;
    };
    const std::vector<Fault> faults = {
        {"wrong_major", 4, "abi.negotiation", "answered 2.0; the major must be the host's"},
        {"refuses_version", 4, "abi.negotiation", "mock only speaks 0.9"},
        {"no_entry", 4, "abi.entry", "the entry symbol vrb_plugin_entry is not exported"},
        {"no_table", 4, "abi.negotiation", "answered VRB_OK without a function table"},
        {"init_fails", 4, "backend.init", "mock init failed on purpose"},
        {"ok", 4, "device.description", "the device offers no memory kind"},
        {"short_table", 4, "device.description", "the device offers no memory kind"},
        {"small_memory", 4, "ops.elementwise", "mock buffers hold nothing"},
        {"leaks", 4, "module.open-close-cycles", "the heap grew in each of 8"},
        {"unavailable", 3, "", "UNAVAILABLE: mock driver is not installed"},
    };
    for (const Fault &f : faults) {
        SCOPED_TRACE(f.variant);
        // The sanitized build's leak check would end the process over the leak the kit is
        // to find, with its own exit code.
        std::vector<std::string> env;
        if (f.variant == "leaks") env.push_back("ASAN_OPTIONS=detect_leaks=0");
        const auto r = plugin_check(mock(f.variant), {}, env);
        EXPECT_EQ(r.exit_code, f.exit_code) << r.out << r.err;
        if (!f.failed_check.empty()) {
            EXPECT_TRUE(contains(r.out, "FAIL  " + f.failed_check)) << r.out;
        }
        EXPECT_TRUE(contains(r.out, f.reason)) << r.out;
        EXPECT_FALSE(contains(r.out, "\nPASSED")) << r.out;
    }
}

TEST(PluginCheck, AWrongLaneIsNamedByOperationWidthKindCountLaneAndBothValues)
{
    const auto r = plugin_check(WRONG_LANE_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  ops.elementwise")) << r.out;
    EXPECT_TRUE(contains(r.out, "PASS  ops.read-dot")) << r.out;
    EXPECT_TRUE(contains(r.out, "copy, 4-byte elements, memory kind \"ram\" (0), count 17: 1 of 17 lanes wrong, "
                                "first wrong lane 3: expected 0x"))
        << r.out;
    EXPECT_TRUE(contains(r.out, ", actual 0x")) << r.out;
    EXPECT_TRUE(contains(r.err, "failed")) << r.err;
}

// A module may count every unit's walk of a small set (VRB_OUTPUT_WHOLE_SET_PER_UNIT);
// one that claims walks it never made multiplies every figure, and the kit sees it on a
// set too large for any device to walk whole.
TEST(PluginCheck, AModuleThatCountsWalksItNeverMadeFailsThePassesCheck)
{
    const auto r = plugin_check(UNSEEN_WALKS_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  ops.passes")) << r.out;
    EXPECT_TRUE(contains(r.out, "count 16384: a set past any device's wave (1 compute units) was walked whole by "
                                "every unit, the output says"))
        << r.out;
}

TEST(PluginCheck, AFileThatIsNoLibraryFailsTheEntryCheck)
{
    const auto r = plugin_check(std::string(MOCK_DIR) + "/not-a-library.so");
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  abi.entry")) << r.out;
    EXPECT_TRUE(contains(r.out, "not a loadable library")) << r.out;
}

TEST(PluginCheck, AMissingFileOrAFolderIsAUsageError)
{
    const auto missing = plugin_check("/nonexistent/vrambench-acme.so");
    EXPECT_EQ(missing.exit_code, 2) << missing.err;
    EXPECT_TRUE(contains(missing.err, "/nonexistent/vrambench-acme.so: no such file")) << missing.err;
    EXPECT_TRUE(missing.out.empty()) << missing.out;
    const auto folder = plugin_check(VRAMBENCH_MODULE_DIR);
    EXPECT_EQ(folder.exit_code, 2) << folder.err;
    EXPECT_TRUE(contains(folder.err, "is a directory")) << folder.err;
    const auto none = run_process({VRAMBENCH_EXE, "plugin-check"});
    EXPECT_EQ(none.exit_code, 2) << none.err;
}

#if defined(CRASHING_MODULE) && defined(HANGING_MODULE)
TEST(PluginCheck, AModuleThatCrashesTheKitIsNamedWithTheCheckItWasIn)
{
    const auto r = plugin_check(CRASHING_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "CRASHED  backend.init vrambench-faulty-crash_init.so: the module killed the check "
                                "with signal 11"))
        << r.out;
    EXPECT_TRUE(contains(r.err, "in backend.init")) << r.err;
}

TEST(PluginCheck, AModuleThatHangsTheKitIsStoppedAtTheTimeout)
{
    const auto r = plugin_check(HANGING_MODULE, {"--timeout", "3"});
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "the module made no end within 3 s (--timeout)")) << r.out;
    EXPECT_TRUE(contains(r.out, "CRASHED  ops.")) << r.out;
}
#endif
