// The L1 tables the CUDA and HIP modules report an SM's or CU's L1 from, since neither
// runtime does.
#include "l1_caches.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using vrb::gpu::amd_l1;
using vrb::gpu::nvidia_l1;

TEST(L1Caches, GiveNvidiaSmsTheirUnifiedL1ByComputeCapability)
{
    EXPECT_EQ(nvidia_l1(9, 0).bytes, 256u << 10); // H100, H200
    EXPECT_EQ(nvidia_l1(8, 0).bytes, 192u << 10); // A100
    EXPECT_EQ(nvidia_l1(8, 9).bytes, 128u << 10); // L40S, RTX 4090
    EXPECT_EQ(nvidia_l1(8, 6).bytes, 128u << 10); // RTX 3090
    EXPECT_NE(std::string(nvidia_l1(9, 0).note).find("256 KiB"), std::string::npos);
}

TEST(L1Caches, GiveAmdCusTheirVectorL1ByArchitectureWhateverFeaturesFollowTheName)
{
    EXPECT_EQ(amd_l1("gfx942:sramecc+:xnack-").bytes, 32u << 10); // MI300X
    EXPECT_EQ(amd_l1("gfx942").bytes, 32u << 10);
    EXPECT_EQ(amd_l1("gfx90a:sramecc+:xnack-").bytes, 16u << 10); // MI250X, MI210
}

TEST(L1Caches, ClaimNothingForAnArchitectureTheyDoNotList)
{
    EXPECT_EQ(nvidia_l1(6, 1).bytes, 0u);
    EXPECT_EQ(nvidia_l1(9, 4).bytes, 0u); // HIP's numbers for gfx942 are not NVIDIA's
    EXPECT_EQ(amd_l1("gfx1100").bytes, 0u);
    EXPECT_EQ(amd_l1("").bytes, 0u);
    EXPECT_EQ(amd_l1("gfx94").bytes, 0u);
}

TEST(L2Sharing, GivesEachXcdOfACdna3PartItsOwnL2AndEveryOtherAmdPartOne)
{
    using vrb::gpu::amd_l2_shared_by;
    EXPECT_EQ(amd_l2_shared_by("gfx942:sramecc+:xnack-", 304), 38u);  // MI300X: 8 XCDs
    EXPECT_EQ(amd_l2_shared_by("gfx942", 228), 38u);                  // MI300A: 6 XCDs
    EXPECT_EQ(amd_l2_shared_by("gfx942", 80), 0u);                    // XCDs of another size: unknown
    EXPECT_EQ(amd_l2_shared_by("gfx90a:sramecc+:xnack-", 110), 110u); // an MI250X GCD is one device
    EXPECT_EQ(amd_l2_shared_by("gfx1100", 96), 96u);
}

} // namespace
