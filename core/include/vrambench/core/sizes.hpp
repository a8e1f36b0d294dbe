// Byte sizes as users type them: 4096, 256M, 4GiB, 1.5G. Binary multiples (K = KiB).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vrb {

// Parses a positive size in bytes. Throws UsageError naming the text on anything
// else: empty, zero, negative, not a number, a fraction of a byte, or past 2^63.
uint64_t parse_size(std::string_view text);

// 268435456 -> "256 MiB"; exact multiples print without decimals.
std::string format_size(uint64_t bytes);

} // namespace vrb
