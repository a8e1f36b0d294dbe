// When an allocation counts as spilled out of device memory: written far slower than a
// reference buffer, twice. A reference small enough for the caches has their rates, not
// memory's, and a CPU writes memory four times slower than its caches, so against such a
// reference (all a small budget leaves room for) nothing is judged spilled.
#include "capacity_largest.hpp"
#include "probe_harness.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <gtest/gtest.h>

using namespace vrb;
using namespace vrb::test;

TEST(Spills, AReferenceWithinTwiceTheLastLevelCacheIsCacheResident)
{
    EXPECT_TRUE(capacity::cache_resident(4 * MiB, 32 * MiB));
    EXPECT_TRUE(capacity::cache_resident(63 * MiB, 32 * MiB));
    EXPECT_FALSE(capacity::cache_resident(64 * MiB, 32 * MiB));
    EXPECT_FALSE(capacity::cache_resident(4 * MiB, 0)); // no cache known: judged as before
}

TEST(Spills, ACandidateSlowerThanACacheResidentReferenceStillFits)
{
    OpenDevice target = open_device(VRAMBENCH_HOST_MODULE);
    ASSERT_TRUE(target.device) << target.entry.reason;
    // A reference no memory can match: every candidate writes far below a quarter of it.
    capacity::WriteReference reference;
    reference.bytes = 4 * MiB;
    reference.first_gb_per_s = reference.warm_gb_per_s = 1e9;
    std::optional<capacity::Touch> corrupt;
    nlohmann::json step;
    reference.cache_resident = false;
    EXPECT_EQ(capacity::attempt_allocation(*target.device, 0, 8 * MiB, 1, reference, step, corrupt),
              capacity::Attempt::spilled)
        << step.dump();
    reference.cache_resident = true;
    EXPECT_EQ(capacity::attempt_allocation(*target.device, 0, 8 * MiB, 1, reference, step, corrupt),
              capacity::Attempt::fits)
        << step.dump();
    EXPECT_FALSE(corrupt);
}
