#include "stream_point.hpp"
#include "offered.hpp"

#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

namespace vrb {

ProbeResult measure_stream_point(const ProbeContext &ctx, std::string_view probe, const StreamPoint &p,
                                 const Pace &pace)
{
    ProbeResult r = make_result(ctx, probe);
    const uint64_t count = p.bytes / p.element_bytes;
    const uint64_t lanes = count * p.element_bytes / 4;
    r.byte_counting = fmt::format("{}, per pass, times the passes each run made", counting_rule(p.kind));
    const Buffer &operand = p.src ? *p.src : *p.dst;
    if (!offered(ctx, r, p.kind, p.element_bytes, operand.kind())) return r;
    try {
        // A destination that already held the answer would verify a copy that never ran.
        if (p.kind == VRB_OP_COPY) fill_random(ctx.device, *p.dst, lanes * 4, p.write_seed, p.offset);
        vrb_operation op = make_operation(p.kind, p.element_bytes, count);
        op.seed = p.write_seed;
        if (p.dst) op.dst = {p.dst->handle(), p.offset};
        if (p.src) op.src1 = {p.src->handle(), p.offset};
        const PointTiming t = time_point(ctx.device, op, pace.warmups, pace.reps, pace.target_seconds);
        // A stream operation touches each byte it moves once a pass: its footprint.
        const uint64_t per_pass = bytes_moved(p.kind, p.element_bytes, count).total();
        set_bandwidth(r, t.timing, per_pass * t.passes, ctx, per_pass);
        r.parameters["passes"] = t.passes;
        if (t.timing.output.page_bytes) r.parameters["page_bytes"] = t.timing.output.page_bytes;
        // What each compute unit's caches had to hold: all of it where every unit walked
        // the whole set (the module says so: a set below one wave of the device), else
        // the unit's share.
        const bool whole = t.timing.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT;
        const auto &info = ctx.record.info;
        const uint32_t units = (info.known & VRB_KNOWN_COMPUTE_UNITS) ? info.compute_units : 0;
        r.parameters["working_set_bytes"] = per_pass;
        r.parameters["every_unit_walks_the_whole_set"] = whole;
        if (whole || units > 0) r.parameters["per_unit_working_set_bytes"] = whole ? per_pass : per_pass / units;
        const uint64_t first = p.offset / 4;
        if (p.kind == VRB_OP_READ) {
            const uint64_t want = reference_pattern_sum(VRB_PATTERN_RANDOM, p.src_seed, first, lanes);
            if (t.timing.output.checksum != want)
                mark_verification_failed(r,
                                         fmt::format("checksum {:#x}, expected {:#x}", t.timing.output.checksum, want));
            else
                r.verification = {Verification::Status::passed, "checksum matches the host"};
            return r;
        }
        const uint32_t seed = p.kind == VRB_OP_WRITE ? p.write_seed : p.src_seed;
        // WRITE's lanes count from the destination's offset; a copy keeps the source's.
        const uint64_t shift = p.kind == VRB_OP_WRITE ? 0 : first;
        const ExpectedLanes expected = [random = expect_pattern(VRB_PATTERN_RANDOM, seed),
                                        shift](uint64_t lane, std::span<uint32_t> out) { random(shift + lane, out); };
        const Mismatches m = compare_buffer(*p.dst, p.offset, lanes, expected);
        if (m.count)
            mark_verification_failed(
                r, fmt::format("{} of {} lanes wrong; first at byte {:#x}: {:#010x}, expected {:#010x}", m.count, lanes,
                               p.offset + m.first * 4, m.first_actual, m.first_expected));
        else
            r.verification = {Verification::Status::passed, fmt::format("all {} lanes match the host", lanes)};
    } catch (const Error &e) {
        mark_run_failed(r, e);
    }
    return r;
}

} // namespace vrb
