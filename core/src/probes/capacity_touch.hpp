// Writing and reading back every byte of a buffer on the device, so an allocation
// counts only when its memory really exists: lazy allocation and oversubscription
// cannot fake it. FILL and CHECK run on the device; the host then reads a few pages
// itself, so a CHECK that reports nothing is not taken on trust.
#pragma once

#include <vrambench/core/modules/backend.hpp>
#include <vrambench/pattern.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace vrb::capacity {

struct BadLane {
    uint64_t byte = 0; // offset from the buffer's start
    uint32_t expected = 0, actual = 0;
};

struct Touch {
    uint64_t bytes = 0;
    double write_seconds = 0; // the FILL, timed by the device's clock
    double read_seconds = 0;  // the CHECK
    uint32_t timer = 0;       // vrb_timer_kind of both
    uint64_t mismatches = 0;  // lanes CHECK found wrong
    std::optional<uint64_t> first_mismatch_byte;
    std::optional<BadLane> missed; // a wrong lane the host saw and CHECK did not report

    bool verified() const { return mismatches == 0 && !missed; }
    double write_gb_per_s() const;
    double seconds_per_gib_written() const;
    // One line for a result's verification detail.
    std::string describe_failure() const;
};

// Fills the whole buffer with `pattern` and checks it on the device, then compares a
// few pages spread over it on the host. Throws BackendError or RunError (a broken
// timer) when an operation fails.
Touch touch_buffer(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed);

// Writes the buffer again with the same pattern and returns the device-timed seconds:
// a second opinion on a slow first write, which may have paid for lazy allocation.
double rewrite_seconds(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed);

// Writes and checks `bytes` from `offset` only: a quick proof that memory is usable.
// Returns the wrong lanes CHECK found.
uint64_t touch_window(Device &device, Buffer &buffer, uint64_t offset, uint64_t bytes, uint32_t seed);

// Checks the buffer again on the device against what touch_buffer wrote.
uint64_t recheck_buffer(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed);

// The wrong lanes from `from_byte` on, read by the host: at most `limit` of them, and
// at most `scan_bytes` read, so a buffer of any size is located in bounded time.
std::vector<BadLane> locate_mismatches(const Buffer &buffer, uint32_t pattern, uint32_t seed, uint64_t from_byte,
                                       std::size_t limit, uint64_t scan_bytes);

nlohmann::json to_json(const BadLane &lane);

} // namespace vrb::capacity
