// How far and how finely the curve probes go, derived from the device and the suite,
// and the checks that refuse a malformed plan before anything is allocated.
#pragma once

#include <vrambench/core/probe.hpp>

namespace vrb {

struct CurvePlan {
    uint64_t from = 0, to = 0; // working-set bytes, both ends included
    double ratio = 2;          // between neighbouring sizes
    uint32_t warmups = 1;
    uint32_t reps = 3;
    double target_seconds = 1e-3; // one timed run lasts at least about this long
    std::string size_rule;        // how `to` was chosen, kept with the result
};

// Sizes from `from` to `to` on a geometric grid of `ratio`, each a multiple of
// `granule`, `to` always included. Throws UsageError for an empty range (from 0, to
// below from) or a ratio not above 1.
std::vector<uint64_t> geometric_sizes(uint64_t from, uint64_t to, double ratio, uint64_t granule);

// bandwidth.sweep: 4 KiB to at least 8 x the largest cache (1 GiB when none is
// reported), with `buffers` buffers of up to `to` bytes in a quarter of the free memory.
// --size sets the largest working set.
CurvePlan plan_sweep(const DeviceRecord &device, const ProbeOptions &options);
// latency.chase: 4 KiB to 8 x the largest cache, capped so one lap of the chain stays
// short (quick 64 MiB, standard 128 MiB, full 1 GiB); --size sets the largest.
CurvePlan plan_chase(const DeviceRecord &device, const ProbeOptions &options);

// Strides 1, 2, 4 ... elements of `element_bytes` up to at least `page_bytes`.
std::vector<uint64_t> stride_plan(Suite suite, uint32_t element_bytes, uint64_t page_bytes = 4096);
// Byte offsets 0 ... at least 256, multiples of element_bytes.
std::vector<uint64_t> alignment_plan(Suite suite, uint32_t element_bytes);

// Refusals with a message saying what is wrong and what is allowed.
void check_stride(uint64_t stride, uint64_t elements);                             // UsageError
void check_offset(uint64_t offset, uint32_t element_bytes, uint64_t buffer_bytes); // UsageError
// The kind must exist on the device and have every flag in `needed`; RunError otherwise.
void check_kind(const DeviceRecord &device, uint32_t kind, uint32_t needed);

} // namespace vrb
