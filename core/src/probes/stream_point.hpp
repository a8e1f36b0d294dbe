// One verified measurement of read, write or copy over pseudo-random data: the step
// every curve probe repeats at each size, stride-free offset or element width.
#pragma once

#include "curve.hpp"

namespace vrb {

struct StreamPoint {
    vrb_op_kind kind = VRB_OP_READ; // READ, WRITE or COPY
    uint32_t element_bytes = 16;
    Buffer *src = nullptr; // holds random lanes of src_seed from its start (READ, COPY)
    Buffer *dst = nullptr; // WRITE, COPY
    uint64_t offset = 0;   // bytes, into src and dst alike
    uint64_t bytes = 0;    // per buffer, from offset
    uint32_t src_seed = 0;
    uint32_t write_seed = 0; // WRITE's pattern; COPY's destination is scrambled with it first
};

struct Pace {
    uint32_t warmups = 1, reps = 3;
    double target_seconds = 1e-3;
};

// Times the point with enough passes to outlast a dispatch, fills a bandwidth result
// (bytes per pass x passes) and verifies it against the host's arithmetic: READ's
// checksum, every destination lane of WRITE and COPY. Backend failures become a failed
// result, never an exception.
ProbeResult measure_stream_point(const ProbeContext &ctx, std::string_view probe, const StreamPoint &point,
                                 const Pace &pace);

} // namespace vrb
