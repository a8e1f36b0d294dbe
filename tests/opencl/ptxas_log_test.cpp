// Each kernel's registers, read from a build log in ptxas --verbose form. The log below
// is what ptxas 13.0 prints for this backend's program at sm_90 (its OpenCL C compiled to
// PTX by clang), shortened to three kernels.
#include "ptxas_log.hpp"

#include <gtest/gtest.h>

using namespace vrb::opencl;

namespace {

const char *const nvidia_log = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'product_sum_w4' for 'sm_90'
ptxas info    : Function properties for product_sum_w4
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 64 registers, used 1 barriers, 2048 bytes smem
ptxas info    : Compile time = 41.339 ms
ptxas info    : Compiling entry function 'read_w4' for 'sm_90'
ptxas info    : Function properties for read_w4
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 48 registers, used 1 barriers, 2048 bytes smem
ptxas info    : Compile time = 29.788 ms
ptxas info    : Compiling entry function 'copy_w1' for 'sm_90'
ptxas info    : Function properties for copy_w1
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 30 registers, used 0 barriers
ptxas info    : Compile time = 17.430 ms)";

} // namespace

TEST(PtxasLog, EveryKernelTheLogNamesHasItsRegisters)
{
    const auto registers = ptxas_registers(nvidia_log);
    ASSERT_EQ(registers.size(), 3u);
    EXPECT_EQ(registers.at("product_sum_w4"), 64u);
    EXPECT_EQ(registers.at("read_w4"), 48u);
    EXPECT_EQ(registers.at("copy_w1"), 30u);
}

TEST(PtxasLog, ACountBeforeAnyKernelIsNamedBelongsToNone)
{
    const auto registers = ptxas_registers("ptxas info    : Used 12 registers\n"
                                           "ptxas info    : Compiling entry function 'fill_w1' for 'sm_90'\n");
    EXPECT_TRUE(registers.empty()) << "fill_w1 has no count of its own yet";
}

TEST(PtxasLog, AnotherDriversLogSaysNothing)
{
    EXPECT_TRUE(ptxas_registers("").empty());
    EXPECT_TRUE(ptxas_registers("warning: <source>:12: loop not vectorized\n").empty());
    EXPECT_TRUE(ptxas_registers("ptxas info    : Compiling entry function 'read_w4' for 'sm_90'\n"
                                "ptxas info    : Used many registers\n")
                    .empty())
        << "a count that is not a number is no count";
}
