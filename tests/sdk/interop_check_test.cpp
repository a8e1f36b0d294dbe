// The kit's checks of what a module may decline or leave out: declined operations are
// skipped and named, the optional interop slots (export and import with their fd
// ownership, peer paths) and counts past 2^22 lanes (--large) are held to their rules,
// each against a module that keeps them and one with a fault planted.
#include "run_process.hpp"

#include <gtest/gtest.h>

#include <string>

#if defined(HOST_DECLINES_MODULE) && defined(HOST_LANES_MODULE)
TEST(PluginCheckDeclines, AModuleThatDeclinesDotAndScaleAt16BytesPassesAndTheReportNamesWhatWasNotRun)
{
    const auto r = plugin_check(HOST_DECLINES_MODULE);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "PASS  ops.read-dot")) << r.out;
    EXPECT_TRUE(contains(r.out, "PASS  ops.elementwise")) << r.out;
    EXPECT_TRUE(contains(
        r.out, "declined by the module, not run: dot at 16 bytes on memory kind \"pageable\" (0) (op_supported)"))
        << r.out;
    EXPECT_TRUE(contains(
        r.out, "declined by the module, not run: scale at 16 bytes on memory kind \"pageable\" (0) (op_supported)"))
        << r.out;
    EXPECT_FALSE(contains(r.out, "not run: dot at 8 bytes")) << r.out;
    EXPECT_TRUE(contains(r.out, "\nPASSED: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "; 2 declined by the module, not run\n")) << r.out;
}

TEST(PluginCheckDeclines, AModuleThatDeclinesFillOrCheckFailsNamingThemMandatory)
{
    // The faulty module's query declines CHECK (its run() does not do it).
    const auto r = plugin_check(DECLINES_DOT_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  ops.fill-check")) << r.out;
    EXPECT_TRUE(contains(r.out, "check at 4 bytes on memory kind \"ram\" (0): op_supported declines it, but fill and "
                                "check are mandatory"))
        << r.out;
    // What it declines and is not mandatory is skipped, not failed.
    EXPECT_TRUE(contains(r.out, "PASS  ops.read-dot")) << r.out;
    EXPECT_TRUE(contains(r.out, "not run: dot at 4 bytes")) << r.out;
}

TEST(PluginCheckLarge, ALaneBugPast4MiLanesPassesWithoutLargeAndFailsWithIt)
{
    const auto plain = plugin_check(HOST_LANES_MODULE);
    EXPECT_EQ(plain.exit_code, 0) << plain.out << plain.err;
    EXPECT_FALSE(contains(plain.out, "ops.large-counts")) << plain.out;
    const auto large = plugin_check(HOST_LANES_MODULE, {"--large"});
    EXPECT_EQ(large.exit_code, 4) << large.out << large.err;
    EXPECT_TRUE(contains(large.out, "FAIL  ops.large-counts")) << large.out;
    EXPECT_TRUE(contains(large.out, "copy, 4-byte elements, memory kind \"pageable\" (0), count 4259860: 1 of "
                                    "4259860 lanes wrong, first wrong lane 4194307"))
        << large.out;
}

TEST(PluginCheckLarge, TheHostModulePassesTheLargeCounts)
{
    const auto r = plugin_check(std::string(VRAMBENCH_MODULE_DIR) + "/vrambench-host.so", {"--large"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "PASS  ops.large-counts")) << r.out;
}
#endif

TEST(PluginCheckInterop, AModuleThatKeepsTheFdRulesPassesExportImportAndPeers)
{
    const auto r = plugin_check(MEMFD_OK_MODULE);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "PASS  interop.export-import      memfd:0")) << r.out;
    EXPECT_TRUE(contains(r.out, "PASS  interop.peers              memfd:1")) << r.out;
    EXPECT_TRUE(contains(r.out, "not run: export of memory kind \"device\" (0) as dma-buf")) << r.out;
}

TEST(PluginCheckInterop, AnImportThatDupsTheCallersFdInsteadOfTakingItFails)
{
    const auto r = plugin_check(MEMFD_IMPORT_DUPS_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  interop.export-import")) << r.out;
    EXPECT_TRUE(contains(r.out, "memfd:0 memory kind \"device\" (0), opaque fd: 1 more fds open after export, import "
                                "and free than before"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "vrambench-memfd-mock")) << r.out;
}

TEST(PluginCheckInterop, AFailedImportThatClosesTheCallersFdFails)
{
    const auto r = plugin_check(MEMFD_FAILED_IMPORT_CLOSES_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  interop.export-import")) << r.out;
    EXPECT_TRUE(contains(r.out, "a failed import closed the caller's fd")) << r.out;
}

TEST(PluginCheckInterop, AnInPlaceReadOfAPeersMemoryThatStopsShortFails)
{
    const auto r = plugin_check(MEMFD_PEER_READ_HALF_MODULE);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "FAIL  interop.peers              memfd:0")) << r.out;
    EXPECT_TRUE(
        contains(r.out, "memfd:0 with the memory of memfd:1, read in place of 262147 lanes: checksum expected "))
        << r.out;
    EXPECT_TRUE(contains(r.out, "PASS  interop.export-import      memfd:0")) << r.out;
}

#if defined(MULTI_MODULE)
TEST(PluginCheckInterop, APeerCopyThatLeavesBytesUnwrittenFails)
{
    const auto clean = plugin_check(MULTI_MODULE, {}, {"VRAMBENCH_MOCK_DEVICES=2"});
    EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
    EXPECT_TRUE(contains(clean.out, "PASS  interop.peers              multi:0")) << clean.out;
    const auto skewed = plugin_check(MULTI_MODULE, {}, {"VRAMBENCH_MOCK_DEVICES=2", "VRAMBENCH_MOCK_PEER_SKEW=4"});
    EXPECT_EQ(skewed.exit_code, 4) << skewed.out << skewed.err;
    EXPECT_TRUE(contains(skewed.out, "FAIL  interop.peers              multi:0")) << skewed.out;
    EXPECT_TRUE(contains(skewed.out, "multi:0 with the memory of multi:1, peer copy of 1048588 bytes from the peer: 1 "
                                     "of 262147 lanes wrong, first wrong lane 262146"))
        << skewed.out;
}
#endif

#if defined(SEMA_MODULE)
TEST(PluginCheckInterop, SemaphoresWhoseDeviceSideWaitsDoNotWaitFail)
{
    const auto clean = plugin_check(SEMA_MODULE);
    EXPECT_TRUE(contains(clean.out, "PASS  interop.semaphores         sema:0")) << clean.out;
    const auto broken = plugin_check(SEMA_MODULE, {}, {"VRAMBENCH_MOCK_IGNORE_WAITS=sema"});
    EXPECT_EQ(broken.exit_code, 4) << broken.out << broken.err;
    EXPECT_TRUE(contains(broken.out, "FAIL  interop.semaphores         sema:0")) << broken.out;
    EXPECT_TRUE(contains(broken.out, "behind a device-side wait")) << broken.out;
}
#endif
