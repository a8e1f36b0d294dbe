// Every probe family, run in this process on a module that tells one lie: the probe
// that reads the spoiled answer reports verification-failed with the address and both
// values the module logged, and the results the lie does not reach still pass. Without
// a lie every family verifies on the same module, so each failure is the lie's.
#include "lying_module.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace vrb;
using vrb::test::Liar;

namespace {

ProbeOptions quick()
{
    ProbeOptions o;
    o.suite = Suite::quick;
    o.size = 1 * MiB;
    o.repetitions = 2;
    return o;
}

ProbeOptions small_memory()
{
    ProbeOptions o = quick();
    o.size.reset();
    o.memory_limit = parse_memory_limit("32M");
    return o;
}

std::string operation_of(const ProbeResult &r)
{
    if (!r.parameters.is_object()) return "";
    for (const char *key : {"operation", "direction"})
        if (r.parameters.contains(key)) return r.parameters.at(key).get<std::string>();
    return "";
}

bool says_one_of(const std::string &detail, const std::vector<std::string> &told, const std::string &before)
{
    return std::any_of(told.begin(), told.end(),
                       [&](const std::string &line) { return detail.find(before + line) != std::string::npos; });
}

// Results whose operation is in `spoiled` failed verification naming a lie the module
// told (after `before`); every other one passed. Returns how many failed.
std::size_t expect_caught(const std::vector<ProbeResult> &results, const std::set<std::string> &spoiled,
                          const std::vector<std::string> &told, const std::string &before = "")
{
    EXPECT_FALSE(told.empty()) << "the module told no lie";
    std::size_t caught = 0;
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.probe + " " + r.parameters.dump());
        // Not run (a kind its kernels cannot use): nothing to verify.
        if (r.status == ProbeResult::Status::skipped ||
            (!r.value && r.verification.status != Verification::Status::failed))
            continue;
        if (spoiled.count(operation_of(r))) {
            EXPECT_EQ(r.status, ProbeResult::Status::verification_failed) << r.error.value_or("");
            EXPECT_EQ(r.verification.status, Verification::Status::failed);
            EXPECT_TRUE(says_one_of(r.verification.detail, told, before))
                << r.verification.detail << "\nthe module told:\n"
                << testing::PrintToString(told);
            ++caught;
        } else {
            // Out of the lie's reach: verified, or not run (a kind its kernels cannot use).
            EXPECT_NE(r.verification.status, Verification::Status::failed) << r.verification.detail;
            if (r.value) {
                EXPECT_EQ(r.verification.status, Verification::Status::passed) << r.verification.detail;
            }
        }
    }
    return caught;
}

} // namespace

// ---------------------------------------------------------------- no lie

class WithoutALie : public ::testing::TestWithParam<const char *> {};

TEST_P(WithoutALie, TheProbeVerifiesEveryResultOnTheLyingModule)
{
    Liar liar("");
    const bool capacity =
        std::string_view(GetParam()).starts_with("capacity.") || std::string_view(GetParam()).starts_with("integrity.");
    const auto results = liar.run(GetParam(), capacity ? small_memory() : quick());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        if (r.status == ProbeResult::Status::skipped) continue;
        EXPECT_NE(r.status, ProbeResult::Status::failed) << r.error.value_or("");
        EXPECT_NE(r.verification.status, Verification::Status::failed) << r.verification.detail;
    }
    EXPECT_TRUE(liar.told().empty());
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, WithoutALie,
                         ::testing::Values("bandwidth.stream", "bandwidth.sweep", "latency.chase", "pattern.stride",
                                           "pattern.alignment", "pattern.gather", "pattern.vector", "memory.kinds",
                                           "bandwidth.transfer", "bandwidth.peer", "latency.peer", "interop.handoff",
                                           "interop.bandwidth", "interop.import", "capacity.max-alloc",
                                           "capacity.total", "capacity.fragmentation", "integrity.pattern"));

// ---------------------------------------------------------------- checksums

TEST(ChecksumLie, StreamReadAndDotChecksumsAreComparedWithTheHosts)
{
    Liar liar("checksum");
    const auto results = liar.run("bandwidth.stream", quick());
    EXPECT_GE(expect_caught(results, {"read", "dot"}, liar.told(), ""), 2u);
    for (const ProbeResult &r : results) {
        if (r.status == ProbeResult::Status::verification_failed) {
            EXPECT_TRUE(r.verification.detail.starts_with("checksum 0x")) << r.verification.detail;
        }
    }
}

class ReadChecksumLie : public ::testing::TestWithParam<std::pair<const char *, const char *>> {};

TEST_P(ReadChecksumLie, TheReadChecksumIsComparedWithTheHosts)
{
    Liar liar("checksum");
    const auto [probe, operation] = GetParam();
    const auto results = liar.run(probe, quick());

    EXPECT_GE(expect_caught(results, {operation}, liar.told()), 1u);
}

INSTANTIATE_TEST_SUITE_P(StreamPoints, ReadChecksumLie,
                         ::testing::Values(std::pair{"bandwidth.sweep", "read"}, std::pair{"pattern.alignment", "read"},
                                           std::pair{"pattern.vector", "read"}, std::pair{"memory.kinds", "read"},
                                           std::pair{"pattern.stride", "strided-read"},
                                           std::pair{"pattern.gather", "gather"}));

// ---------------------------------------------------------------- lanes

TEST(LaneLie, EveryStreamDestinationLaneIsComparedWithTheHosts)
{
    for (const char *op : {"copy", "scale", "add", "triad", "write"}) {
        SCOPED_TRACE(op);
        Liar liar(op);
        const auto results = liar.run("bandwidth.stream", quick());

        EXPECT_GE(expect_caught(results, {op}, liar.told(), "first at "), 1u);
    }
}

class DestinationLaneLie : public ::testing::TestWithParam<std::pair<const char *, const char *>> {};

TEST_P(DestinationLaneLie, TheDestinationsLastLaneIsComparedWithTheHosts)
{
    const auto [probe, operation] = GetParam();
    Liar liar(operation);
    const auto results = liar.run(probe, quick());

    EXPECT_GE(expect_caught(results, {operation}, liar.told(), "first at "), 1u);
}

INSTANTIATE_TEST_SUITE_P(StreamPoints, DestinationLaneLie,
                         ::testing::Values(std::pair{"bandwidth.sweep", "copy"}, std::pair{"bandwidth.sweep", "write"},
                                           std::pair{"pattern.alignment", "copy"}, std::pair{"pattern.vector", "copy"},
                                           std::pair{"memory.kinds", "copy"}, std::pair{"memory.kinds", "write"}));

// Every point of the alignment probe's copy names the byte the module spoiled at that
// point's offset: the lanes compared are the source's from the offset, and the address
// said counts from the buffer's start, not from the offset.
TEST(LaneLie, AnAlignmentCopyNamesTheByteSpoiledAtEachOffset)
{
    Liar liar("copy");
    const auto results = liar.run("pattern.alignment", quick());
    const auto copy =
        std::find_if(results.begin(), results.end(), [](const ProbeResult &r) { return operation_of(r) == "copy"; });
    ASSERT_NE(copy, results.end());
    const uint64_t bytes = copy->parameters.at("array_bytes").get<uint64_t>();
    const auto &points = copy->extra.at("curve").at("points");
    std::size_t past_zero = 0;
    for (const auto &point : points) {
        const auto offset = static_cast<uint64_t>(point.at("offset_bytes").get<double>());
        const std::string detail = point.at("verification").at("detail").get<std::string>();
        SCOPED_TRACE(fmt::format("offset {}: {}", offset, detail));
        EXPECT_EQ(point.at("status"), "verification-failed");
        EXPECT_NE(detail.find(fmt::format("1 of {} lanes wrong; first at byte {:#x}: ", bytes / 4, offset + bytes - 4)),
                  std::string::npos);
        EXPECT_TRUE(says_one_of(detail, liar.told(), "first at ")) << testing::PrintToString(liar.told());
        if (offset > 0) ++past_zero;
    }
    EXPECT_GE(past_zero, 3u);
}

// ---------------------------------------------------------------- chase

TEST(ChaseLie, AChaseThatEndsOneNodeEarlyFailsAtItsFirstPoint)
{
    Liar liar("chase");
    const auto results = liar.run("latency.chase", quick());
    EXPECT_EQ(expect_caught(results, {"chase"}, liar.told()), 1u);
    // The curve names the first point and the lane the module really stopped at.
    ASSERT_EQ(results.size(), 1u);
    EXPECT_NE(results[0].verification.detail.find("at working_set_bytes "), std::string::npos);
    EXPECT_NE(results[0].verification.detail.find(liar.told().at(0)), std::string::npos)
        << results[0].verification.detail;
}

// ---------------------------------------------------------------- transfers

TEST(TransferLie, AByteSpoiledOnTheWayToTheDeviceFailsEveryRouteIntoIt)
{
    Liar liar("to-device");
    const auto results = liar.run("bandwidth.transfer", quick());

    EXPECT_GE(expect_caught(results,
                            {"host-to-device pinned", "host-to-device pageable", "both-directions pinned",
                             "both-directions pageable", "device-to-device"},
                            liar.told(), "first at "),
              5u);
}

TEST(TransferLie, AByteSpoiledOnTheWayToTheHostFailsEveryRouteIntoIt)
{
    Liar liar("to-host");
    const auto results = liar.run("bandwidth.transfer", quick());

    EXPECT_GE(expect_caught(results,
                            {"device-to-host pinned", "device-to-host pageable", "both-directions pinned",
                             "both-directions pageable"},
                            liar.told(), "first at "),
              4u);
}

TEST(TransferLie, AByteSpoiledOnlyInTheSecondOfTwoCopiesAtOnceIsCaught)
{
    Liar liar("second-direction");
    const auto results = liar.run("bandwidth.transfer", quick());

    EXPECT_EQ(expect_caught(results, {"both-directions pinned", "both-directions pageable"}, liar.told(), "first at "),
              2u);
}

// Each destination first holds other data (and the run's buffers are reused, so the
// host side of one route may hold the very bytes the next route copies): a copy engine
// that moves nothing fails every route.
TEST(TransferLie, ACopyEngineThatMovesNothingFailsEveryRoute)
{
    Liar liar("idle-transfer");
    const auto results = liar.run("bandwidth.transfer", quick());

    EXPECT_EQ(expect_caught(results,
                            {"host-to-device pinned", "device-to-host pinned", "both-directions pinned",
                             "host-to-device pageable", "device-to-host pageable", "both-directions pageable",
                             "device-to-device"},
                            liar.told(), "first at "),
              7u);
}

// ---------------------------------------------------------------- peers

TEST(PeerLie, ACopyIntoAPeerThatSpoilsOneByteFailsBothWays)
{
    Liar liar("peer-copy");
    const auto results = liar.run("bandwidth.peer", quick());
    std::size_t caught = 0;
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed);
        const bool both = r.parameters.at("both_directions").get<bool>();
        // One lane each way, as the destination's own device counted it.
        EXPECT_TRUE(r.verification.detail.find(both ? ": 2 of " : ": 1 of ") != std::string::npos)
            << r.verification.detail;
        ++caught;
    }
    EXPECT_EQ(caught, 2u);
    EXPECT_FALSE(liar.told().empty());
}

TEST(PeerLie, AChaseInAPeersMemoryThatEndsEarlyIsCaught)
{
    Liar liar("peer-read");
    const auto results = liar.run("latency.peer", quick());
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, ProbeResult::Status::verification_failed);
    EXPECT_EQ(results[0].verification.detail, "in the peer's memory: " + liar.told().at(0));
}

// ---------------------------------------------------------------- interop

TEST(ImportLie, HandoffFindsTheLastLaneReadThroughTheImportWrong)
{
    Liar liar("import");
    const auto results = liar.run("interop.handoff", quick());
    ASSERT_EQ(results.size(), 1u);
    const ProbeResult &r = results[0];
    EXPECT_EQ(r.status, ProbeResult::Status::verification_failed) << r.error.value_or("");
    const uint64_t bytes = r.parameters.at("array_bytes");
    EXPECT_EQ(r.extra.at("exporter_to_importer_mismatches"), 1u);
    EXPECT_EQ(r.extra.at("importer_to_exporter_mismatches"), 0u); // the lie is in reading only
    EXPECT_EQ(r.extra.at("first_mismatch_byte"), bytes - 4);
    EXPECT_NE(r.verification.detail.find(fmt::format("first wrong byte {:#x}", bytes - 4)), std::string::npos)
        << r.verification.detail;
}

TEST(ImportLie, TheFirstReadOfImportedMemoryIsComparedWithWhatTheExporterWrote)
{
    Liar liar("import");
    const auto results = liar.run("interop.import", quick());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed) << r.error.value_or("");
        unsigned long long got = 0, want = 0;
        const auto at = r.verification.detail.find("gave checksum ");
        ASSERT_NE(at, std::string::npos) << r.verification.detail;
        ASSERT_EQ(std::sscanf(r.verification.detail.c_str() + at, "gave checksum %llx, expected %llx", &got, &want), 2);
        // One lane read 0x100 too large: the checksums differ by exactly that.
        EXPECT_EQ(got - want, 0x100u) << r.verification.detail;
    }
}

TEST(FirstRead, IsAskedOfTheImporterAsOneReadAndRecordedSoWhereTheModuleHonoursTheAsk)
{
    // The module walks a READ on every unit unless it is asked as one read.
    Liar liar("per-unit-reads");
    const auto results = liar.run("interop.import", quick());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        EXPECT_EQ(r.verification.status, Verification::Status::passed) << r.verification.detail;
        EXPECT_EQ(r.extra.at("first_read"), "one read of the set");
    }
}

TEST(FirstRead, ThatTheModuleWalkedOnEveryUnitIsRecordedSo)
{
    Liar liar("one-read-unknown");
    const auto results = liar.run("interop.import", quick());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        // Still verified: the sum is right, only the time counts every unit's walk.
        EXPECT_EQ(r.verification.status, Verification::Status::passed) << r.verification.detail;
        EXPECT_EQ(r.extra.at("first_read"), "every unit walked the set");
    }
}

TEST(ImportLie, BandwidthOnImportedMemoryIsVerifiedForEveryOperation)
{
    Liar liar("import");
    const auto results = liar.run("interop.bandwidth", quick());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed) << r.error.value_or("");
        EXPECT_TRUE(r.verification.detail.starts_with("on imported memory: ")) << r.verification.detail;
    }
}

// ---------------------------------------------------------------- capacity and integrity

class CapacityLie : public ::testing::TestWithParam<const char *> {};

TEST_P(CapacityLie, AnAllocationWhoseLastLaneReadsBackWrongIsNotCounted)
{
    Liar liar("fill");
    const auto results = liar.run(GetParam(), small_memory());
    ASSERT_FALSE(results.empty());
    std::size_t caught = 0;
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        if (r.verification.status != Verification::Status::failed) continue;
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed);
        // The device's CHECK counted the one lane; its byte is the buffer's last lane.
        EXPECT_NE(r.verification.detail.find("1 of "), std::string::npos) << r.verification.detail;
        const auto bytes = liar.told_bytes();
        EXPECT_TRUE(std::any_of(bytes.begin(), bytes.end(), [&](const std::string &b) {
            return r.verification.detail.ends_with("the first at byte " + b);
        })) << r.verification.detail;
        ++caught;
    }
    EXPECT_GE(caught, 1u);
}

TEST_P(CapacityLie, ACheckThatMissesTheLastPageIsCaughtByTheHostsOwnRead)
{
    Liar liar("blind-check");
    const auto results = liar.run(GetParam(), small_memory());
    ASSERT_FALSE(results.empty());
    std::size_t caught = 0;
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        if (r.verification.status != Verification::Status::failed) continue;
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed);
        EXPECT_NE(r.verification.detail.find("the device's CHECK did not report it"), std::string::npos)
            << r.verification.detail;
        EXPECT_TRUE(says_one_of(r.verification.detail, liar.told_as_host_read(), "the host read "))
            << r.verification.detail << "\n"
            << testing::PrintToString(liar.told_as_host_read());
        ++caught;
    }
    EXPECT_GE(caught, 1u);
}

INSTANTIATE_TEST_SUITE_P(EveryCapacityProbe, CapacityLie,
                         ::testing::Values("capacity.max-alloc", "capacity.total", "capacity.fragmentation",
                                           "integrity.pattern"));

TEST(IntegrityLie, AFlippedBitTheDevicesCheckMissesIsReportedWithItsAddressAndBothValues)
{
    Liar liar("blind-check");
    const auto results = liar.run("integrity.pattern", small_memory());
    ASSERT_FALSE(results.empty());
    for (const ProbeResult &r : results) {
        SCOPED_TRACE(r.parameters.dump());
        ASSERT_EQ(r.status, ProbeResult::Status::verification_failed);
        EXPECT_EQ(r.value, 1.0);
        const uint64_t last = r.parameters.at("array_bytes").get<uint64_t>() - 4;
        EXPECT_EQ(r.extra.at("first_mismatch_byte"), last);
        const auto &first = r.extra.at("first_addresses").at(0);
        EXPECT_EQ(first.at("byte"), last);
        EXPECT_EQ(first.at("flipped_bits"), "0x00000100");
        EXPECT_TRUE(says_one_of(fmt::format("byte {:#x}: {}, expected {}", last, first.at("actual").get<std::string>(),
                                            first.at("expected").get<std::string>()),
                                liar.told(), ""));
    }
}
