// The backend's environment settings, malformed ones included.
#include "options.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace vrb::opencl;

namespace {
struct Env {
    Env(const char *name, const char *value) : name(name) { setenv(name, value, 1); }
    ~Env() { unsetenv(name); }
    const char *name;
};
} // namespace

TEST(OpenclOptions, NothingSetMeansTheDevicesOwnLimits)
{
    const Options o = read_options();
    EXPECT_EQ(o.segment_bytes, 0u);
    EXPECT_EQ(o.local_size, 0u);
    EXPECT_EQ(o.max_groups, 0u);
}

TEST(OpenclOptions, ReadsASegmentSizeAndALocalSize)
{
    const Env s("VRAMBENCH_OPENCL_SEGMENT_BYTES", "65536"), l("VRAMBENCH_OPENCL_LOCAL_SIZE", "64");
    const Options o = read_options();
    EXPECT_EQ(o.segment_bytes, 65536u);
    EXPECT_EQ(o.local_size, 64u);
}

TEST(OpenclOptions, RefusesMalformedValuesNamingTheVariable)
{
    for (const char *bad : {"12k", "-4096", "100", ""}) {
        const Env s("VRAMBENCH_OPENCL_SEGMENT_BYTES", bad);
        if (!*bad) continue; // empty is unset
        try {
            read_options();
            ADD_FAILURE() << bad << " was accepted";
        } catch (const vrb::plugin::Failure &f) {
            EXPECT_EQ(f.status(), VRB_ERROR_INVALID_ARGUMENT);
            EXPECT_NE(std::string(f.what()).find("VRAMBENCH_OPENCL_SEGMENT_BYTES"), std::string::npos) << f.what();
        }
    }
    const Env l("VRAMBENCH_OPENCL_LOCAL_SIZE", "48");
    EXPECT_THROW(read_options(), vrb::plugin::Failure) << "48 is no power of two";
}

TEST(OpenclOptions, ChoosesTheGpuOrCpuKernelsOnlyWhenAsked)
{
    EXPECT_EQ(read_options().kernels, Kernels::ByDeviceType);
    {
        const Env k("VRAMBENCH_OPENCL_KERNELS", "gpu");
        EXPECT_EQ(read_options().kernels, Kernels::Gpu);
    }
    {
        const Env k("VRAMBENCH_OPENCL_KERNELS", "cpu");
        EXPECT_EQ(read_options().kernels, Kernels::Cpu);
    }
    const Env k("VRAMBENCH_OPENCL_KERNELS", "GPU");
    try {
        read_options();
        ADD_FAILURE() << "GPU was accepted";
    } catch (const vrb::plugin::Failure &f) {
        EXPECT_EQ(f.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(f.what()).find("VRAMBENCH_OPENCL_KERNELS=GPU must be gpu or cpu"), std::string::npos)
            << f.what();
    }
}
