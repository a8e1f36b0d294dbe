#include "cpuid_tlb.hpp"

#include "cpuid_caches.hpp"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace vrb::cpu {

namespace {

constexpr uint64_t k4K = 4096, k2M = 2ull << 20, k4M = 4ull << 20, k1G = 1ull << 30;

// Keeps the largest count per level and page size, in order of level then page size.
void merge(std::vector<CpuidTlb> &into, const CpuidTlb &tlb)
{
    if (tlb.entries == 0) return;
    for (CpuidTlb &t : into)
        if (t.level == tlb.level && t.page_bytes == tlb.page_bytes) {
            t.entries = std::max(t.entries, tlb.entries);
            return;
        }
    into.push_back(tlb);
    std::sort(into.begin(), into.end(), [](const CpuidTlb &a, const CpuidTlb &b) {
        return a.level != b.level ? a.level < b.level : a.page_bytes < b.page_bytes;
    });
}

std::string page_text(uint64_t bytes)
{
    return bytes >= k1G   ? std::to_string(bytes >> 30) + "G"
           : bytes >= k2M ? std::to_string(bytes >> 20) + "M"
                          : std::to_string(bytes >> 10) + "K";
}

} // namespace

std::vector<CpuidTlb> decode_amd_data_tlbs(uint32_t eax5, uint32_t ebx5, uint32_t eax6, uint32_t ebx6)
{
    std::vector<CpuidTlb> out;
    merge(out, {1, k4K, (ebx5 >> 16) & 0xffu});
    merge(out, {1, k2M, (eax5 >> 16) & 0xffu});
    if (ebx6 >> 28) merge(out, {2, k4K, (ebx6 >> 16) & 0xfffu});
    if (eax6 >> 28) merge(out, {2, k2M, (eax6 >> 16) & 0xfffu});
    return out;
}

std::vector<CpuidTlb> decode_intel_tlb_leaf(uint32_t ebx, uint32_t ecx, uint32_t edx)
{
    std::vector<CpuidTlb> out;
    const uint32_t type = edx & 0x1fu; // 1 data, 2 instruction, 3 unified, 4 load-only, 5 store-only
    if (type != 1 && type != 3 && type != 4) return out;
    const uint32_t level = (edx >> 5) & 0x7u;
    const uint32_t entries = (ebx >> 16) * ecx; // ways x sets
    const uint64_t pages[] = {k4K, k2M, k4M, k1G};
    for (unsigned bit = 0; bit < 4; ++bit)
        if (ebx & (1u << bit)) merge(out, {level, pages[bit], entries});
    return out;
}

std::vector<CpuidTlb> cpuid_data_tlbs()
{
    std::vector<CpuidTlb> out;
#if defined(__x86_64__) || defined(__i386__)
    const std::string vendor = cpuid_vendor();
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
        if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000006u) return out;
        unsigned a5 = 0, b5 = 0, a6 = 0, b6 = 0;
        __cpuid(0x80000005u, a5, b5, c, d);
        __cpuid(0x80000006u, a6, b6, c, d);
        return decode_amd_data_tlbs(a5, b5, a6, b6);
    }
    if (vendor == "GenuineIntel" && __get_cpuid_max(0, nullptr) >= 0x18u) {
        __cpuid_count(0x18u, 0, a, b, c, d);
        const unsigned last = std::min(a, 63u); // subleaf 0's EAX: the last subleaf
        for (unsigned sub = 0; sub <= last; ++sub) {
            __cpuid_count(0x18u, sub, a, b, c, d);
            for (const CpuidTlb &t : decode_intel_tlb_leaf(b, c, d))
                merge(out, t);
        }
    }
#endif
    return out;
}

std::string data_tlb_text(const std::vector<CpuidTlb> &tlbs)
{
    std::string text;
    uint32_t level = 0;
    for (const CpuidTlb &t : tlbs) {
        if (t.level != level) {
            if (!text.empty()) text += "; ";
            text += 'L';
            text += std::to_string(t.level);
            level = t.level;
        }
        text += ' ';
        text += std::to_string(t.entries);
        text += 'x';
        text += page_text(t.page_bytes);
    }
    return text;
}

} // namespace vrb::cpu
