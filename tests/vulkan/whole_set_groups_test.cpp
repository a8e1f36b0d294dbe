// Which workgroups walk a small working set: below one full wave of the device every
// workgroup walks it whole, so every compute unit (every CPU thread, on lavapipe) works
// at every sweep point; from one wave on the set is shared out.
#include "filling_grid.hpp"
#include "splitting.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace vrb::vulkan {
namespace {

constexpr uint32_t kLocal = 256;       // a GPU's workgroup
constexpr uint32_t kLavapipeLocal = 8; // lavapipe's: one SIMD vector (device.cpp)

// Every sweep point from 4 KiB to 4 GiB, a quarter-octave apart, at each element width:
// either every workgroup walks the set, or each of them has at least a workgroup's width
// of elements of its own.
void expect_every_workgroup_works(uint32_t fill, uint32_t local)
{
    for (uint32_t element : {4u, 8u, 16u}) {
        for (double bytes = 4096; bytes <= double(uint64_t(1) << 32); bytes *= 1.189207) {
            const uint64_t count = static_cast<uint64_t>(bytes) / element;
            const uint32_t whole = whole_set_groups(count, fill, local);
            if (whole) {
                ASSERT_EQ(whole, fill) << count << " elements";
            } else {
                ASSERT_GE(count, uint64_t(fill) * local) << count << " elements";
            }
        }
    }
}

TEST(WholeSetGroups, put_work_on_every_cpu_thread_of_lavapipe_at_every_sweep_point_from_4_kib)
{
    for (uint32_t threads : {1u, 2u, 16u, 96u}) {
        DeviceUnits units;
        units.cpu = true;
        units.cpu_threads = threads;
        const uint32_t fill = filling_groups(units, kLavapipeLocal);
        ASSERT_GE(fill, threads);
        expect_every_workgroup_works(fill, kLavapipeLocal);
        // Fewer elements than the threads' workgroups have invocations: each walks all.
        EXPECT_EQ(whole_set_groups(7, fill, kLavapipeLocal), threads * kWorkgroupsPerCpuThread);
    }
}

TEST(WholeSetGroups, put_work_on_all_132_sms_of_an_h200_at_every_sweep_point_from_4_kib)
{
    DeviceUnits units;
    units.compute_units = 132;
    units.resident_threads = 2048;
    const uint32_t fill = filling_groups(units, kLocal);
    EXPECT_EQ(fill, 132u * 8);
    expect_every_workgroup_works(fill, kLocal);
    EXPECT_EQ(whole_set_groups(4096 / 4, fill, kLocal), fill); // 4 KiB: every SM walks it
}

TEST(WholeSetGroups, share_the_set_out_from_one_full_wave_and_where_nothing_says_what_fills_the_device)
{
    EXPECT_EQ(whole_set_groups(16 * kLocal - 1, 16, kLocal), 16u);
    EXPECT_EQ(whole_set_groups(16 * kLocal, 16, kLocal), 0u);
    EXPECT_EQ(whole_set_groups(100, 0, kLocal), 0u);
    EXPECT_EQ(whole_set_groups(0, 16, kLocal), 0u);
}

} // namespace
} // namespace vrb::vulkan
