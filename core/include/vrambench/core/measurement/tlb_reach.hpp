// The reach of a device's data TLBs: the bytes one level's entries map at one page
// size. A dependent chase past a reach pays a translation on most of its loads, a
// latency step that is no cache level (name_plateaus in plateaus.hpp).
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace vrb {

struct TlbReach {
    uint32_t level = 0;
    uint64_t bytes = 0; // entries x page size
    bool operator==(const TlbReach &) const = default;
};

// Reads VRB_PROPERTY_DATA_TLB's text, "L1 72x4K 72x2M; L2 3072x4K 3072x2M": a reach for
// every level and page size, smallest first. A text that does not read that way gives
// none: a module's mistake leaves the curve named as if it had said nothing.
std::vector<TlbReach> parse_data_tlb(std::string_view text);

// The reaches a device reports in its VRB_PROPERTY_DATA_TLB property; none without it.
std::vector<TlbReach> tlb_reach(const vrb_device_info &info);

} // namespace vrb
