// How many bytes each operation moves: the one table bandwidth is computed from.
//
// Backends never compute bandwidth; they time operations. A figure in GB/s is always
// bytes_moved(...) / seconds / 1e9, with the bytes from this table, so "copy" means
// the same number on every backend. Write-allocate traffic (a cache reading a line
// before overwriting it) is not counted, as STREAM does not count it.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <string_view>

namespace vrb {

struct Traffic {
    uint64_t read = 0;
    uint64_t written = 0;
    uint64_t total() const { return read + written; }
};

// Per element of element_bytes; for TRANSFER, count is in bytes and each direction
// counts once (bytes read from the source are not counted again as written).
Traffic bytes_moved(uint32_t kind, uint32_t element_bytes, uint64_t count);

// The rule as prose, stored with every result ("2 x count x element_bytes: ...").
std::string_view counting_rule(uint32_t kind);

std::string_view op_name(uint32_t kind);

// GB/s = 1e9 bytes per second, everywhere.
inline constexpr double bytes_per_gb = 1e9;

} // namespace vrb
