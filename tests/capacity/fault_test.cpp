// Faults played by the test-only host-faults module (tests/mock/host_faults.cpp): a bit
// flipped after every FILL (VRAMBENCH_TEST_FLIP_BIT) and allocations refused after the
// first N (VRAMBENCH_TEST_FAIL_ALLOC_AFTER). A fault must be reported where it happened, an
// allocation failure must be recorded, and no buffer may outlive a probe either way.
#include "probe_harness.hpp"

#include <gtest/gtest.h>
#include <vrambench/core/measurement/sizes.hpp>

using namespace vrb;
using namespace vrb::test;

using vrb::MiB;

namespace {

} // namespace

TEST(CapacityFaults, TheShippedHostModuleIgnoresTheFaultVariables)
{
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "0");
    OpenDevice target = open_device(VRAMBENCH_HOST_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    EXPECT_NO_THROW(target.device->allocate(0, MiB));
}

TEST(CapacityFaults, AFlippedBitIsAnIntegrityFailureWithItsAddressForEveryPattern)
{
    const ScopedEnv flip("VRAMBENCH_TEST_FLIP_BIT", "5000003");
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    const int64_t live = Buffer::live_count();
    const auto results = run_probe(target, "integrity.pattern", small_budget("32M"));
    EXPECT_EQ(Buffer::live_count(), live);
    ASSERT_EQ(results.size(), 5u);
    for (const auto &r : results) {
        SCOPED_TRACE(r.parameters.at("operation").get<std::string>());
        EXPECT_EQ(r.status, ProbeResult::Status::verification_failed);
        EXPECT_EQ(r.verification.status, Verification::Status::failed);
        EXPECT_EQ(r.value, 1.0);
        EXPECT_NE(r.verification.detail.find("0x4c4b40"), std::string::npos) << r.verification.detail;
        EXPECT_EQ(r.extra.at("first_mismatch_byte"), 5000000u);
        const auto &first = r.extra.at("first_addresses").at(0);
        EXPECT_EQ(first.at("byte"), 5000000u);
        // The lowest bit of the lane's fourth byte (little-endian): bit 24.
        EXPECT_EQ(first.at("flipped_bits"), "0x01000000");
    }
}

TEST(CapacityFaults, AFlippedBitPastTheBufferChangesNothing)
{
    const ScopedEnv flip("VRAMBENCH_TEST_FLIP_BIT", std::to_string(1ull << 40));
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    for (const auto &r : run_probe(target, "integrity.pattern", small_budget("16M")))
        EXPECT_EQ(r.verification.status, Verification::Status::passed) << r.verification.detail;
}

TEST(CapacityFaults, AnAllocationFailureMidwayThroughTotalIsRecordedAndReleasesEveryChunk)
{
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "3");
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    const int64_t live = Buffer::live_count();
    const auto results = run_probe(target, "capacity.total", small_budget("64M"));
    EXPECT_EQ(Buffer::live_count(), live);
    ASSERT_EQ(results.size(), 1u);
    const ProbeResult &r = results[0];
    EXPECT_EQ(r.status, ProbeResult::Status::ok) << r.error.value_or("");
    EXPECT_EQ(r.verification.status, Verification::Status::passed);
    EXPECT_EQ(r.value, 3.0 * 8 * MiB); // three 8 MiB chunks, the fourth refused
    EXPECT_EQ(r.extra.at("ended_by"), "allocation-failure");
    EXPECT_EQ(r.extra.at("failure").at("chunk"), 3);
    EXPECT_EQ(r.extra.at("failure").at("status"), "out of memory");
}

TEST(CapacityFaults, FragmentationWithTooFewChunksFailsAndReleasesThem)
{
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "2");
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    const int64_t live = Buffer::live_count();
    const auto results = run_probe(target, "capacity.fragmentation", small_budget("64M"));
    EXPECT_EQ(Buffer::live_count(), live);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, ProbeResult::Status::failed);
    EXPECT_NE(results[0].error.value_or("").find("only 2 chunks"), std::string::npos);
}

TEST(CapacityFaults, FragmentationReportsAFreedTotalThatCannotBeHadInOneBlock)
{
    // Nine chunks fit, then the device refuses everything: four holes, no block.
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "9");
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    const int64_t live = Buffer::live_count();
    const auto results = run_probe(target, "capacity.fragmentation", small_budget("64M"));
    EXPECT_EQ(Buffer::live_count(), live);
    ASSERT_EQ(results.size(), 1u);
    const ProbeResult &r = results[0];
    EXPECT_EQ(r.extra.at("chunks_ended_by"), "allocation-failure");
    EXPECT_EQ(r.extra.at("requested_bytes"), 4 * 4 * MiB);
    EXPECT_EQ(r.extra.at("full_request_fits"), false);
    EXPECT_EQ(r.value, 0.0);
}

TEST(CapacityFaults, AProbeStoppedByAFailureLeavesNothingAllocated)
{
    // The first allocation is refused: max-alloc cannot even measure its yardstick.
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "0");
    OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    const int64_t live = Buffer::live_count();
    EXPECT_THROW(run_probe(target, "capacity.max-alloc", small_budget("64M")), BackendError);
    EXPECT_EQ(Buffer::live_count(), live);
    const auto total = run_probe(target, "capacity.total", small_budget("64M"));
    EXPECT_EQ(total.at(0).status, ProbeResult::Status::failed);
    EXPECT_EQ(Buffer::live_count(), live);
}

TEST(CapacityFaults, AMistypedHookStopsTheFaultsModuleInsteadOfBeingIgnored)
{
    const ScopedEnv fail("VRAMBENCH_TEST_FAIL_ALLOC_AFTER", "three");
    const OpenDevice target = open_device(VRAMBENCH_HOST_FAULTS_MODULE);
    EXPECT_FALSE(target.device);
    EXPECT_NE(target.entry.reason.find("VRAMBENCH_TEST_FAIL_ALLOC_AFTER=three"), std::string::npos)
        << target.entry.reason;
}
