// Byte sizes as users type them: 4096, 256M, 4GiB, 1.5G. Binary multiples (K = KiB).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vrb {

inline constexpr uint64_t KiB = uint64_t(1) << 10, MiB = uint64_t(1) << 20, GiB = uint64_t(1) << 30;

// Parses a positive size in bytes. Throws UsageError naming the text on anything
// else: empty, zero, negative, not a number, a fraction of a byte, or past 2^63.
uint64_t parse_size(std::string_view text);

// A budget for probes that allocate much: absolute ("8G") or a share of what the
// device reports free ("50%").
struct MemoryLimit {
    uint64_t bytes = 0;  // set when absolute
    double fraction = 0; // set when a percentage, in (0, 1]
    // The budget on a device with `free_bytes` free.
    uint64_t resolve(uint64_t free_bytes) const;
};

// Throws UsageError naming the text for anything else, a percentage of 0 or over 100.
MemoryLimit parse_memory_limit(std::string_view text);

// 268435456 -> "256 MiB"; exact multiples print without decimals.
std::string format_size(uint64_t bytes);

} // namespace vrb
