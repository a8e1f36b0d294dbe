#include "cpuid_caches.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <cstring>
#endif

namespace vrb::cpu {

std::string cpuid_vendor()
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return {};
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    return vendor;
#else
    return {};
#endif
}

std::vector<CpuidCache> cpuid_caches()
{
    std::vector<CpuidCache> out;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return out;
    const unsigned max_basic = a;
    const std::string vendor = cpuid_vendor();
    unsigned leaf = 0;
    if (vendor == "GenuineIntel" && max_basic >= 4) {
        leaf = 4;
    } else if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
        // Leaf 0x8000001D exists when the topology extensions bit (0x80000001 ECX[22]) is set.
        const unsigned max_extended = __get_cpuid_max(0x80000000u, nullptr);
        if (max_extended >= 0x8000001Du && __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & (1u << 22)))
            leaf = 0x8000001Du;
    }
    if (!leaf) return out;
    for (unsigned sub = 0; sub < 16; ++sub) {
        __cpuid_count(leaf, sub, a, b, c, d);
        const CpuidCache cache = decode_cache_leaf(a, b, c);
        if (cache.level == 0) break;
        out.push_back(cache);
    }
#endif
    return out;
}

} // namespace vrb::cpu
