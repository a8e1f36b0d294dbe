// The CPU's caches as its deterministic cache parameters describe them (CPUID leaf 4 on
// Intel, 0x8000001D on AMD and Hygon): the size of one instance of each cache and how
// many logical CPUs share it.
//
// Why not the size glibc's sysconf() gives when sysfs has no cache topology: on AMD it
// comes from leaf 0x80000006, whose L3 is the whole package's (hundreds of MiB on a
// server part), while one core reaches only its own CCX's (32 MiB): sizes planned from
// the package total make every "past the cache" buffer 16 times larger than it needs
// to be.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vrb::cpu {

struct CpuidCache {
    uint32_t level = 0;
    const char *kind = "";  // "data", "instruction", "unified"
    uint64_t bytes = 0;     // one instance
    uint32_t shared_by = 0; // logical CPUs sharing one instance, as CPUID counts them
};

// One subleaf of leaf 4 / 0x8000001D; nothing (level 0) for the terminating null entry.
inline CpuidCache decode_cache_leaf(uint32_t eax, uint32_t ebx, uint32_t ecx)
{
    CpuidCache c;
    const uint32_t type = eax & 0x1fu;
    if (type == 0 || type > 3) return c;
    c.level = (eax >> 5) & 0x7u;
    c.kind = type == 1 ? "data" : type == 2 ? "instruction" : "unified";
    const uint64_t line = (ebx & 0xfffu) + 1;
    const uint64_t partitions = ((ebx >> 12) & 0x3ffu) + 1;
    const uint64_t ways = ((ebx >> 22) & 0x3ffu) + 1;
    const uint64_t sets = uint64_t(ecx) + 1;
    c.bytes = line * partitions * ways * sets;
    c.shared_by = ((eax >> 14) & 0xfffu) + 1;
    return c;
}

// The caches of the CPU this runs on; empty where the CPU has no such leaf.
std::vector<CpuidCache> cpuid_caches();

// CPUID's vendor string ("AuthenticAMD", "GenuineIntel" ...); empty off x86.
std::string cpuid_vendor();

} // namespace vrb::cpu
