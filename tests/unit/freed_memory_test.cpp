// A worker's freed memory leaves its resident set, whatever it freed before.
#include <vrambench/core/run/freed_memory.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace {

long resident_kib()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

void touch_and_free(std::size_t bytes)
{
    void *p = std::malloc(bytes);
    ASSERT_NE(p, nullptr);
    std::memset(p, 1, bytes);
    // So the compiler keeps the writes.
    asm volatile("" : : "r"(p) : "memory");
    std::free(p);
}

} // namespace

TEST(FreedMemory, ABlockUnderTheSizeOfAnEarlierFreedOneLeavesTheResidentSetWhenFreed)
{
#ifdef VRAMBENCH_SANITIZED
    GTEST_SKIP() << "a sanitizer's allocator stands in for glibc's";
#endif
    vrb::return_freed_memory_to_the_system();
    // glibc would raise its threshold to 24 MiB here, and serve the next 8 MiB from its heap.
    touch_and_free(24u << 20);
    const long before = resident_kib();
    ASSERT_GT(before, 0);
    // Eight blocks, each freed before the next: a heap would keep the last ones resident.
    for (int i = 0; i < 8; ++i)
        touch_and_free(8u << 20);
    EXPECT_LT(resident_kib() - before, 4 * 1024) << "a freed 8 MiB block stayed resident";
}
