#include <vrambench/core/run/freed_memory.hpp>

#include <malloc.h>

namespace vrb {

void return_freed_memory_to_the_system()
{
    // glibc's tunable, not a C library standard: there is no portable way to say it.
    constexpr int first_threshold = 128 * 1024;
    ::mallopt(M_MMAP_THRESHOLD, first_threshold);
}

} // namespace vrb
