// How the CUDA/HIP module describes a device, its host code run against the recording
// stand-in of its runtime (standin/): an SM's L1, which no runtime reports, is listed
// per unit below the runtime's L2, so a sweep's plateau in the SMs' L1s is named L1.
#include "backend.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(DescribedGpu, ListsEachSmsL1FromTheTableBelowTheL2TheRuntimeReports)
{
    vrb_device_info info{};
    vrb::gpu::describe_device(0, info);
    ASSERT_GE(info.cache_count, 2u);
    const vrb_cache_info &l1 = info.caches[0];
    EXPECT_EQ(l1.level, 1u);
    EXPECT_EQ(l1.bytes, 256u << 10); // the stand-in's SMs are compute capability 9.0's
    EXPECT_EQ(l1.shared_by, 1u);
    EXPECT_EQ(std::string(l1.kind), "data");
    EXPECT_EQ(info.caches[1].level, 2u);
    bool noted = false;
    for (uint32_t i = 0; i < info.property_count; ++i)
        noted = noted || (std::string(info.properties[i].key) == "l1_per_compute_unit" &&
                          std::string(info.properties[i].value).find("Hopper") != std::string::npos);
    EXPECT_TRUE(noted) << "the L1's source is not among the device's properties";
}

} // namespace
