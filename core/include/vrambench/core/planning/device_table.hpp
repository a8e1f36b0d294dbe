// Datasheet facts about the common compute cards of the last three generations: peak
// memory bandwidth, bus width, memory type, last-level cache and the L1 of a compute
// unit, per visible device.
//
// A PCI id is not a card model: 1002:744c is both the RX 7900 XT and XTX, 1002:740c
// both MI250X and MI250, and an Arc A770 comes with 8 or 16 GB at different speeds. An
// entry therefore also names the memory the device reports and, where that is what
// differs, its compute units. A device that matches several entries is ambiguous and
// gets no datasheet figure; one that reports less memory or fewer compute units than
// a card that can be split (MIG, MI300X partition modes) is a partition of it and gets
// none either: its share of the card's bandwidth is not on any datasheet.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vrb {

enum class MemoryType { gddr6, gddr6x, gddr7, hbm2, hbm2e, hbm3, hbm3e };
std::string_view to_string(MemoryType type);

struct CardSpec {
    std::string_view name;
    uint32_t pci_vendor = 0, pci_device = 0;
    double memory_gib = 0;      // per visible device, as the datasheet sizes it
    uint32_t compute_units = 0; // per visible device; 0 where it does not tell variants apart
    MemoryType memory = MemoryType::gddr6;
    uint32_t bus_bits = 0;         // per visible device
    double data_rate_gbps = 0;     // per pin, as the datasheet gives it
    double peak_gb_per_s = 0;      // per visible device, as the datasheet gives it
    uint64_t last_level_bytes = 0; // the cache nearest memory, per visible device
    std::string_view last_level_name;
    bool partitionable = false; // MIG or partition modes can split it into several devices
    std::string_view source;    // the vendor documents the figures come from
    // One SM's or CU's L1 data cache, for modules whose API reports none (Vulkan,
    // OpenCL): kernels that re-read their items keep them there, up to this times the
    // compute units. 0 where the entry does not say.
    uint64_t unit_l1_bytes = 0;
};

// Every entry, in no particular order.
std::span<const CardSpec> card_table();

struct CardMatch {
    enum class Kind { none, unique, ambiguous, partitioned };
    Kind kind = Kind::none;
    const CardSpec *card = nullptr;           // unique; for partitioned, the card it is a part of
    std::vector<const CardSpec *> candidates; // every entry of the PCI id that fits, when ambiguous
    std::string why;                          // one sentence for the user
};

// Matches by PCI vendor:device first, then the reported total memory (within 10 % below
// and 3 % above the datasheet's), then compute units where an entry names them.
CardMatch match_card(const vrb_device_info &info);

} // namespace vrb
