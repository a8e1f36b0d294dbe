// The stream family and the reductions, lane by lane against the host's arithmetic.
#include "checks.hpp"
#include "lanes.hpp"

#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace vrb::conformance {

namespace {

const uint64_t element_counts[] = {1, 3, 17, 4099, (1u << 18) + 5};
const uint32_t widths[] = {4, 8, 16};

uint32_t expected_lane(uint32_t op_kind, uint64_t lane, uint32_t b, uint32_t c, const vrb_operation &op)
{
    switch (op_kind) {
    case VRB_OP_WRITE: return vrb_pattern_random(lane, op.seed);
    case VRB_OP_COPY: return b;
    case VRB_OP_SCALE: return op.scalar * b;
    case VRB_OP_ADD: return b + c;
    default: return b + op.scalar * c;
    }
}

} // namespace

namespace {

// The element-wise operations at one width and count, lane by lane.
void elementwise_at(Device &device, const Kind &kind, uint32_t width, uint64_t count, Findings &findings)
{
    const uint64_t lanes = count * width / 4;
    auto a = device.allocate(kind.index, lanes * 4), b = device.allocate(kind.index, lanes * 4),
         c = device.allocate(kind.index, lanes * 4);
    const auto vb = random_lanes(lanes, 11), vc = random_lanes(lanes, 22);
    upload(*b, vb);
    upload(*c, vc);
    for (uint32_t op_kind : {VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE, VRB_OP_ADD, VRB_OP_TRIAD}) {
        const std::string at = where(op_kind, width, kind, count);
        attempt(findings, at, [&] {
            if (declined(device, op_kind, width, kind, findings)) return;
            upload(*a, random_lanes(lanes, 33)); // stale data must not pass
            vrb_operation op = make_op(op_kind, width, count);
            op.dst = {a->handle(), 0};
            op.src1 = {b->handle(), 0};
            op.src2 = {c->handle(), 0};
            const auto out = device.run(op, 2);
            for (double s : out.seconds)
                if (!(s > 0)) findings.fail(fmt::format("{}: a run took {} s; durations must be > 0", at, s));
            std::vector<uint32_t> want(lanes);
            for (uint64_t i = 0; i < lanes; ++i)
                want[i] = expected_lane(op_kind, i, vb[i], vc[i], op);
            const auto got = download(*a, lanes);
            if (const auto d = lane_difference(got, want); !d.empty()) findings.fail(at + ": " + d);
        });
    }
}

// READ and DOT at one width and count.
void reductions_at(Device &device, const Kind &kind, uint32_t width, uint64_t count, Findings &findings)
{
    const uint64_t lanes = count * width / 4;
    auto b = device.allocate(kind.index, lanes * 4), c = device.allocate(kind.index, lanes * 4);
    const auto vb = random_lanes(lanes, 44), vc = random_lanes(lanes, 55);
    upload(*b, vb);
    upload(*c, vc);
    uint64_t sum = 0, dot = 0;
    for (uint64_t i = 0; i < lanes; ++i) {
        sum += vb[i];
        dot += static_cast<uint32_t>(vb[i] * vc[i]);
    }
    for (uint32_t op_kind : {VRB_OP_READ, VRB_OP_DOT}) {
        const std::string at = where(op_kind, width, kind, count);
        attempt(findings, at, [&] {
            if (declined(device, op_kind, width, kind, findings)) return;
            vrb_operation op = make_op(op_kind, width, count);
            op.src1 = {b->handle(), 0};
            op.src2 = {c->handle(), 0};
            const uint64_t want = op_kind == VRB_OP_READ ? sum : dot;
            const uint64_t got = device.run(op, 1).output.checksum;
            if (got != want) findings.fail(at + ": checksum " + value_difference(want, got));
        });
    }
}

} // namespace

void check_elementwise(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        for (uint32_t width : widths)
            for (uint64_t count : element_counts)
                elementwise_at(device, kind, width, count, findings);
    });
}

void check_reductions(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        for (uint32_t width : widths)
            for (uint64_t count : element_counts)
                reductions_at(device, kind, width, count, findings);
    });
}

void check_large_counts(const Target &target, Findings &findings)
{
    // Past 2^22 lanes, where an index kept in 22 bits, a grid of 4 Mi threads that does
    // not loop, or a 32-bit byte offset of 16-byte elements first goes wrong; at every
    // width (at 4 bytes the element count crosses 2^22 as well).
    constexpr uint64_t lanes = (uint64_t{1} << 22) + (uint64_t{1} << 16) + 20;
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        for (uint32_t width : widths) {
            const uint64_t count = lanes * 4 / width;
            elementwise_at(device, kind, width, count, findings);
            reductions_at(device, kind, width, count, findings);
        }
    });
}

void check_strided(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        for (uint32_t width : widths)
            for (uint64_t stride : {1, 2, 7, 64}) {
                const uint64_t count = 1000, elements = (count - 1) * stride + 1, lpe = width / 4;
                const std::string at =
                    where(VRB_OP_STRIDED_READ, width, kind, count) + fmt::format(", stride {}", stride);
                attempt(findings, at, [&] {
                    if (declined(device, VRB_OP_STRIDED_READ, width, kind, findings)) return;
                    auto b = device.allocate(kind.index, elements * width);
                    const auto vb = random_lanes(elements * lpe, 66);
                    upload(*b, vb);
                    uint64_t sum = 0;
                    for (uint64_t e = 0; e < count; ++e)
                        for (uint64_t l = 0; l < lpe; ++l)
                            sum += vb[e * stride * lpe + l];
                    vrb_operation op = make_op(VRB_OP_STRIDED_READ, width, count);
                    op.stride = stride;
                    op.src1 = {b->handle(), 0};
                    const uint64_t got = device.run(op, 1).output.checksum;
                    if (got != sum) findings.fail(at + ": checksum " + value_difference(sum, got));
                });
            }
    });
}

void check_gather(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        for (uint32_t width : widths) {
            const uint64_t elements = 5000, count = 3001, lpe = width / 4;
            const std::string at = where(VRB_OP_GATHER, width, kind, count);
            attempt(findings, at, [&] {
                if (declined(device, VRB_OP_GATHER, width, kind, findings)) return;
                auto data = device.allocate(kind.index, elements * width),
                     index = device.allocate(kind.index, count * 4);
                const auto vd = random_lanes(elements * lpe, 77);
                std::vector<uint32_t> vi(count);
                for (uint64_t i = 0; i < count; ++i)
                    vi[i] = vrb_pattern_random(i, 88) % elements;
                upload(*data, vd);
                upload(*index, vi);
                uint64_t sum = 0;
                for (uint64_t i = 0; i < count; ++i)
                    for (uint64_t l = 0; l < lpe; ++l)
                        sum += vd[vi[i] * lpe + l];
                vrb_operation op = make_op(VRB_OP_GATHER, width, count);
                op.src1 = {data->handle(), 0};
                op.src2 = {index->handle(), 0};
                const uint64_t got = device.run(op, 1).output.checksum;
                if (got != sum) findings.fail(at + ": checksum " + value_difference(sum, got));
            });
        }
    });
}

void check_chase(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        if (declined(device, VRB_OP_CHASE, 4, kind, findings)) return;
        const uint64_t n = 4096;
        // One cycle through every entry (Sattolo's shuffle, from the pattern's random lanes).
        std::vector<uint32_t> next(n);
        std::iota(next.begin(), next.end(), 0u);
        for (uint64_t i = n - 1; i > 0; --i)
            std::swap(next[i], next[vrb_pattern_random(i, 5) % i]);
        auto chain = device.allocate(kind.index, n * 4);
        upload(*chain, next);
        for (uint64_t steps : {uint64_t{1}, uint64_t{5}, 3 * n + 11}) {
            const std::string at = where(VRB_OP_CHASE, 4, kind, steps);
            attempt(findings, at, [&] {
                uint64_t j = 0;
                for (uint64_t s = 0; s < steps; ++s)
                    j = next[j];
                vrb_operation op = make_op(VRB_OP_CHASE, 4, steps);
                op.src1 = {chain->handle(), 0};
                const uint64_t got = device.run(op, 1).output.checksum;
                if (got != j) findings.fail(at + ": last index " + value_difference(j, got));
            });
        }
    });
}

void check_fill_and_check(const Target &target, Findings &findings)
{
    // Every width (a pattern is the same lanes at any width), from the buffer's start and
    // from an offset (lane 0 is the first lane at the offset), over a count that ends
    // inside a block of the random pattern; two flipped bits, in lanes that are not an
    // element's first, which CHECK must count and locate lane by lane.
    constexpr uint64_t lanes = 70004, offset_lanes = 12;
    constexpr uint64_t flipped[] = {12345, 40002};
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        auto buffer = device.allocate(kind.index, (lanes + offset_lanes) * 4);
        for (uint32_t width : widths) {
            // Mandatory, so declining them is the finding; running them would only repeat it.
            bool skip = false;
            attempt(findings, where(VRB_OP_FILL, width, kind, lanes * 4 / width), [&] {
                skip = declined(device, VRB_OP_FILL, width, kind, findings) |
                       declined(device, VRB_OP_CHECK, width, kind, findings);
            });
            if (skip) continue;
            for (uint64_t offset : {uint64_t{0}, offset_lanes})
                for (uint32_t pattern = 0; pattern < VRB_PATTERN_COUNT; ++pattern) {
                    const uint64_t count = lanes * 4 / width;
                    const std::string at = where(VRB_OP_FILL, width, kind, count) +
                                           fmt::format(", offset {} bytes, pattern {}", offset * 4, pattern);
                    attempt(findings, at, [&] {
                        upload(*buffer, random_lanes(lanes + offset_lanes, 44)); // stale data must not pass
                        vrb_operation fill = make_op(VRB_OP_FILL, width, count);
                        fill.pattern = pattern;
                        fill.dst = {buffer->handle(), offset * 4};
                        device.run(fill, 1);
                        const auto got = download(*buffer, lanes, offset * 4);
                        std::vector<uint32_t> want(lanes);
                        for (uint64_t i = 0; i < lanes; ++i)
                            want[i] = vrb_pattern(pattern, i, fill.seed);
                        if (const auto d = lane_difference(got, want); !d.empty()) findings.fail(at + ": " + d);

                        const std::string check_at = where(VRB_OP_CHECK, width, kind, count) +
                                                     fmt::format(", offset {} bytes, pattern {}", offset * 4, pattern);
                        vrb_operation check = make_op(VRB_OP_CHECK, width, count);
                        check.pattern = pattern;
                        check.src1 = {buffer->handle(), offset * 4};
                        upload(*buffer, want, offset * 4);
                        const auto clean = device.run(check, 1).output;
                        if (clean.mismatches != 0)
                            findings.fail(fmt::format(
                                "{}: found {} mismatches in a buffer that holds the pattern, first at lane {}",
                                check_at, clean.mismatches, clean.first_mismatch));
                        for (uint64_t lane : flipped)
                            upload(*buffer, {want[lane] ^ 0x10u}, (offset + lane) * 4);
                        const auto out = device.run(check, 1).output;
                        if (out.mismatches != 2 || out.first_mismatch != flipped[0])
                            findings.fail(fmt::format("{}: one bit flipped at lanes {} and {}: expected 2 mismatches, "
                                                      "the first at lane {}; actual {} mismatches, first at lane {}",
                                                      check_at, flipped[0], flipped[1], flipped[0], out.mismatches,
                                                      out.first_mismatch));
                    });
                }
        }
    });
}

void check_offsets(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        if (declined(device, VRB_OP_COPY, 16, kind, findings)) return;
        const uint64_t lanes = 10000, offset_lanes = 16;
        const std::string at =
            where(VRB_OP_COPY, 16, kind, lanes / 4) + fmt::format(", dst offset {} bytes", offset_lanes * 4);
        auto a = device.allocate(kind.index, (lanes + offset_lanes) * 4),
             b = device.allocate(kind.index, (lanes + offset_lanes) * 4);
        const auto vb = random_lanes(lanes + offset_lanes, 12);
        upload(*b, vb);
        const std::vector<uint32_t> before(offset_lanes, 0xdeadbeefu);
        upload(*a, std::vector<uint32_t>(lanes + offset_lanes, 0xdeadbeefu));
        vrb_operation op = make_op(VRB_OP_COPY, 16, lanes / 4);
        op.dst = {a->handle(), offset_lanes * 4};
        op.src1 = {b->handle(), 0};
        device.run(op, 1);
        const auto va = download(*a, lanes + offset_lanes);
        if (const auto d = lane_difference(std::span(va).first(offset_lanes), before); !d.empty())
            findings.fail(at + ": the lanes before dst's offset were written: " + d);
        if (const auto d = lane_difference(std::span(va).subspan(offset_lanes), std::span(vb).first(lanes)); !d.empty())
            findings.fail(at + ": lanes counted from dst's offset: " + d);
    });
}

void check_passes(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        const uint64_t lanes = 4099;
        const uint32_t passes = 3;
        auto a = device.allocate(kind.index, lanes * 4), b = device.allocate(kind.index, lanes * 4),
             c = device.allocate(kind.index, lanes * 4);
        const auto vb = random_lanes(lanes, 13), vc = random_lanes(lanes, 14);
        upload(*b, vb);
        upload(*c, vc);
        // A set walked whole by every unit counts every unit's walk: `passes` times what
        // one pass of the same operation says. Only the sweep's stream operations are ever
        // walked whole (FILL and CHECK cover a buffer once; a stride is never a working
        // set), and past any device's wave none is (the last check below).
        auto expect_passes = [&](const std::string &at, const vrb_op_output &out, const vrb_operation &op) {
            const bool whole = out.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT;
            if (whole && (op.kind == VRB_OP_FILL || op.kind == VRB_OP_CHECK || op.kind == VRB_OP_STRIDED_READ))
                findings.fail(at + ": the output says the set was walked whole by every unit, which only the "
                                   "sweep's stream operations are");
            const uint64_t walks = whole ? walks_per_pass(device, op) : uint64_t{1};
            if (out.passes != 0 && out.passes != passes * walks)
                findings.fail(fmt::format("{}, {} passes: the output says {} passes{}", at, passes, out.passes,
                                          walks > 1 ? fmt::format(" (one pass says {} walks of the whole set)", walks)
                                                    : std::string()));
            if (out.timer < VRB_TIMER_HOST_MONOTONIC || out.timer > VRB_TIMER_CALIBRATED_TIMESTAMPS)
                findings.fail(fmt::format("{}: timer {} is none of vrb_timer_kind", at, out.timer));
        };

        const std::string read_at = where(VRB_OP_READ, 4, kind, lanes);
        attempt(findings, read_at, [&] {
            if (declined(device, VRB_OP_READ, 4, kind, findings)) return;
            vrb_operation read = make_op(VRB_OP_READ, 4, lanes);
            read.src1 = {b->handle(), 0};
            read.passes = passes;
            const auto out = device.run(read, 2).output;
            const uint64_t want = std::accumulate(vb.begin(), vb.end(), uint64_t{0});
            if (out.checksum != want)
                findings.fail(fmt::format("{}, {} passes: checksum {} (the answer is one pass's)", read_at, passes,
                                          value_difference(want, out.checksum)));
            expect_passes(read_at, out, read);
        });

        const std::string add_at = where(VRB_OP_ADD, 16, kind, lanes / 4);
        attempt(findings, add_at, [&] {
            if (declined(device, VRB_OP_ADD, 16, kind, findings)) return;
            vrb_operation add = make_op(VRB_OP_ADD, 16, lanes / 4);
            add.dst = {a->handle(), 0};
            add.src1 = {b->handle(), 0};
            add.src2 = {c->handle(), 0};
            add.passes = passes;
            expect_passes(add_at, device.run(add, 1).output, add);
            const auto got = download(*a, lanes / 4 * 4);
            std::vector<uint32_t> want(got.size());
            for (uint64_t i = 0; i < want.size(); ++i)
                want[i] = vb[i] + vc[i];
            if (const auto d = lane_difference(got, want); !d.empty())
                findings.fail(fmt::format("{}, {} passes: {}", add_at, passes, d));
        });

        const std::string check_at = where(VRB_OP_CHECK, 4, kind, lanes);
        attempt(findings, check_at, [&] {
            if (declined(device, VRB_OP_FILL, 4, kind, findings) | declined(device, VRB_OP_CHECK, 4, kind, findings))
                return;
            vrb_operation fill = make_op(VRB_OP_FILL, 4, lanes);
            fill.pattern = VRB_PATTERN_RANDOM;
            fill.dst = {a->handle(), 0};
            fill.passes = passes;
            device.run(fill, 1);
            upload(*a, {vrb_pattern_random(100, fill.seed) ^ 1u}, 100 * 4);
            vrb_operation check = make_op(VRB_OP_CHECK, 4, lanes);
            check.pattern = VRB_PATTERN_RANDOM;
            check.src1 = {a->handle(), 0};
            check.passes = passes;
            const auto out = device.run(check, 2).output;
            if (out.mismatches != 1 || out.first_mismatch != 100)
                findings.fail(fmt::format("{}, {} passes, one lane flipped at 100: expected 1 mismatch at lane 100, "
                                          "actual {} mismatches, first at lane {}",
                                          check_at, passes, out.mismatches, out.first_mismatch));
            expect_passes(check_at, out, check);
        });

        // A set past one wave of any device (16384 elements a compute unit, eight times
        // the 2048 invocations the largest units keep resident) is shared out: its passes
        // are the passes asked, so a module cannot count more walks than it made.
        const uint64_t units = std::max<uint64_t>(device.describe().compute_units, 1);
        const uint64_t wide = std::min<uint64_t>(units * 16384, uint64_t(1) << 22);
        const std::string wide_at = where(VRB_OP_READ, 4, kind, wide);
        attempt(findings, wide_at, [&] {
            if (declined(device, VRB_OP_READ, 4, kind, findings)) return;
            auto w = device.allocate(kind.index, wide * 4);
            const auto vw = random_lanes(wide, 15);
            upload(*w, vw);
            vrb_operation read = make_op(VRB_OP_READ, 4, wide);
            read.src1 = {w->handle(), 0};
            read.passes = passes;
            const auto out = device.run(read, 1).output;
            if (out.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT)
                findings.fail(fmt::format("{}: a set past any device's wave ({} compute units) was walked whole by "
                                          "every unit, the output says",
                                          wide_at, units));
            else if (out.passes != 0 && out.passes != passes)
                findings.fail(fmt::format("{}, {} passes: the output says {} passes", wide_at, passes, out.passes));
            const uint64_t want = std::accumulate(vw.begin(), vw.end(), uint64_t{0});
            if (out.checksum != want)
                findings.fail(
                    fmt::format("{}, {} passes: checksum {}", wide_at, passes, value_difference(want, out.checksum)));
        });

        const std::string chase_at = where(VRB_OP_CHASE, 4, kind, 10);
        attempt(findings, chase_at, [&] {
            if (declined(device, VRB_OP_CHASE, 4, kind, findings)) return;
            std::vector<uint32_t> ring(64);
            for (uint32_t i = 0; i < ring.size(); ++i)
                ring[i] = (i + 1) % ring.size();
            upload(*a, ring);
            vrb_operation chase = make_op(VRB_OP_CHASE, 4, 10);
            chase.src1 = {a->handle(), 0};
            chase.passes = passes;
            const uint64_t got = device.run(chase, 1).output.checksum;
            if (got != 10)
                findings.fail(fmt::format("{}, {} passes: every pass starts again from index 0: last index {}",
                                          chase_at, passes, value_difference(10, got)));
        });
    });
}

void check_incompressible_write(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        // 4 MiB: 32768 lines, past the 4 KiB pages and the pattern's 256-byte blocks, from
        // an offset that puts lane 0 of the operation mid-line.
        constexpr uint64_t line_lanes = 32, lanes = (uint64_t(4) << 20) / 4, offset_lanes = 8;
        auto a = device.allocate(kind.index, (lanes + offset_lanes) * 4);
        for (uint32_t width : widths) {
            const std::string at = where(VRB_OP_WRITE, width, kind, lanes * 4 / width);
            attempt(findings, at, [&] {
                if (declined(device, VRB_OP_WRITE, width, kind, findings)) return;
                vrb_operation write = make_op(VRB_OP_WRITE, width, lanes * 4 / width);
                write.seed = 0; // the seed whose block starts with a zero lane
                write.dst = {a->handle(), offset_lanes * 4};
                device.run(write, 1);
                const auto v = download(*a, lanes + offset_lanes);
                std::vector<std::vector<uint32_t>> lines;
                for (uint64_t from = 0; from + line_lanes <= v.size(); from += line_lanes)
                    lines.emplace_back(v.begin() + static_cast<std::ptrdiff_t>(from),
                                       v.begin() + static_cast<std::ptrdiff_t>(from + line_lanes));
                uint64_t constant = 0;
                for (const auto &line : lines)
                    if (std::all_of(line.begin(), line.end(), [&](uint32_t x) { return x == line[0]; })) ++constant;
                if (constant != 0)
                    findings.fail(
                        fmt::format("{}: {} constant 128-byte lines, which memory compression shrinks", at, constant));
                const auto total = lines.size();
                std::sort(lines.begin(), lines.end());
                const auto distinct = static_cast<std::size_t>(std::unique(lines.begin(), lines.end()) - lines.begin());
                if (distinct != total)
                    findings.fail(
                        fmt::format("{}: {} of {} 128-byte lines repeat another", at, total - distinct, total));
            });
        }
    });
}

} // namespace vrb::conformance
