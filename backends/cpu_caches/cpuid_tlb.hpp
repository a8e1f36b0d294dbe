// The CPU's data TLBs as CPUID describes them: how many translations each level holds
// for each page size. A dependent chase whose working set outgrows a TLB's reach
// (entries x page size) pays a walk or a second-level lookup on most loads, a latency
// step that lies inside a cache level and is no cache of its own: the core names such
// steps after the TLB whose reach they follow (docs/probes.md).
//
// AMD and Hygon: leaves 0x80000005 (L1) and 0x80000006 (L2), 4 KiB and 2 MiB pages.
// Intel: leaf 0x18, the deterministic address translation parameters, one subleaf per
// structure; data, load-only and unified ones are taken (a chase only loads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vrb::cpu {

struct CpuidTlb {
    uint32_t level = 0;
    uint64_t page_bytes = 0;
    uint32_t entries = 0;
    bool operator==(const CpuidTlb &) const = default;
};

// Leaves 0x80000005 and 0x80000006 as registers; an entry count of 0, or an L2 whose
// associativity field is 0 (disabled), gives no TLB.
std::vector<CpuidTlb> decode_amd_data_tlbs(uint32_t eax5, uint32_t ebx5, uint32_t eax6, uint32_t ebx6);

// One subleaf of leaf 0x18: a TLB for each page size it holds, or nothing when it is
// not a data, load-only or unified TLB (or the null entry).
std::vector<CpuidTlb> decode_intel_tlb_leaf(uint32_t ebx, uint32_t ecx, uint32_t edx);

// The data TLBs of the CPU this runs on, one per level and page size (the largest entry
// count where several structures hold that size); empty off x86 or where CPUID says nothing.
std::vector<CpuidTlb> cpuid_data_tlbs();

// "L1 72x4K 72x2M; L2 3072x4K 3072x2M", the VRB_PROPERTY_DATA_TLB value; empty for none.
std::string data_tlb_text(const std::vector<CpuidTlb> &tlbs);

} // namespace vrb::cpu
