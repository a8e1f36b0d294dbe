#include "exercise.hpp"

#include "backend.hpp"
#include "reference.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <algorithm>
#include <set>

namespace vrb::vulkan::test {

namespace {

const char *op_name(vrb_op_kind kind)
{
    switch (kind) {
    case VRB_OP_READ: return "read";
    case VRB_OP_WRITE: return "write";
    case VRB_OP_COPY: return "copy";
    case VRB_OP_SCALE: return "scale";
    case VRB_OP_ADD: return "add";
    case VRB_OP_TRIAD: return "triad";
    case VRB_OP_DOT: return "dot";
    case VRB_OP_STRIDED_READ: return "strided_read";
    case VRB_OP_GATHER: return "gather";
    case VRB_OP_CHASE: return "chase";
    case VRB_OP_TRANSFER: return "transfer";
    case VRB_OP_FILL: return "fill";
    case VRB_OP_CHECK: return "check";
    }
    return "unknown";
}

// Compares lanes and reports the first few differences, not a million lines.
void expect_lanes(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want, const char *what)
{
    ASSERT_EQ(got.size(), want.size());
    uint64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] == want[i]) continue;
        if (++wrong <= 3) ADD_FAILURE() << what << " lane " << i << ": got " << got[i] << ", expected " << want[i];
    }
    EXPECT_EQ(wrong, 0u) << what << ": lanes that differ";
}

uint32_t seed_of(const Exercise &e)
{
    return 0x1234u + uint32_t(e.kind) * 977u + e.element_bytes * 31u + uint32_t(e.count);
}

} // namespace

std::string describe(const Exercise &e)
{
    return std::string(op_name(e.kind)) + "_of_" + std::to_string(e.count) + "_elements_of_" +
           std::to_string(e.element_bytes) + "_bytes" +
           (e.offset_elements ? "_at_offset_" + std::to_string(e.offset_elements) : std::string());
}

void exercise(vrb_device *device, uint32_t kind, const Exercise &e)
{
    SCOPED_TRACE(describe(e));
    const uint32_t width = e.element_bytes / 4;
    const uint64_t lanes = e.count * width;
    const uint32_t seed = seed_of(e);
    // Offsets in bytes of dst, src1 and src2, each a whole number of elements.
    const uint64_t od = e.offset_elements * e.element_bytes;
    const uint64_t o1 = (e.offset_elements ? e.offset_elements + 1 : 0) * e.element_bytes;
    const uint64_t o2 = (e.offset_elements ? e.offset_elements + 2 : 0) * e.element_bytes;
    auto make = [&](uint64_t offset, uint64_t data_lanes) {
        return alloc(device, kind, offset + std::max<uint64_t>(data_lanes, 1) * 4);
    };

    vrb_operation op = vrb::make_operation(e.kind, e.element_bytes, e.count);
    op.seed = seed;
    op.scalar = 0x9e3779b9u; // large, so products wrap
    switch (e.kind) {
    case VRB_OP_READ:
    case VRB_OP_DOT: {
        const auto src1 = random_lanes(lanes, seed), src2 = random_lanes(lanes, seed + 1);
        BufferPtr b1 = make(o1, lanes), b2 = make(o2, lanes);
        upload(b1.get(), o1, src1);
        upload(b2.get(), o2, src2);
        op.src1 = {b1.get(), o1};
        op.src2 = {b2.get(), o2};
        const RunResult r = run(device, op);
        EXPECT_EQ(r.output.checksum, expected_sum(e.kind, src1, src2, e.count, width, 1));
        break;
    }
    case VRB_OP_STRIDED_READ: {
        const uint64_t elements = e.count ? (e.count - 1) * e.stride + 1 : 0;
        const auto src1 = random_lanes(elements * width, seed);
        BufferPtr b1 = make(o1, elements * width);
        upload(b1.get(), o1, src1);
        op.src1 = {b1.get(), o1};
        op.stride = e.stride;
        const RunResult r = run(device, op);
        EXPECT_EQ(r.output.checksum, expected_sum(e.kind, src1, {}, e.count, width, e.stride));
        break;
    }
    case VRB_OP_WRITE:
    case VRB_OP_FILL: {
        BufferPtr bd = make(od, lanes);
        op.dst = {bd.get(), od};
        const uint32_t first = e.kind == VRB_OP_WRITE ? VRB_PATTERN_RANDOM : 0;
        const uint32_t last = e.kind == VRB_OP_WRITE ? VRB_PATTERN_RANDOM : VRB_PATTERN_COUNT - 1;
        for (uint32_t pattern = first; pattern <= last; ++pattern) {
            SCOPED_TRACE("pattern " + std::to_string(pattern));
            op.pattern = pattern;
            run(device, op);
            std::vector<uint32_t> want(lanes);
            for (uint64_t l = 0; l < lanes; ++l)
                want[l] = vrb_pattern(pattern, l, seed);
            expect_lanes(download<uint32_t>(bd.get(), od, lanes), want, "dst");
        }
        break;
    }
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_ADD:
    case VRB_OP_TRIAD: {
        const auto src1 = random_lanes(lanes, seed), src2 = random_lanes(lanes, seed + 1);
        BufferPtr bd = make(od, lanes), b1 = make(o1, lanes), b2 = make(o2, lanes);
        upload(b1.get(), o1, src1);
        upload(b2.get(), o2, src2);
        op.dst = {bd.get(), od};
        op.src1 = {b1.get(), o1};
        if (e.kind == VRB_OP_ADD || e.kind == VRB_OP_TRIAD) op.src2 = {b2.get(), o2};
        run(device, op);
        expect_lanes(download<uint32_t>(bd.get(), od, lanes), expected_stream(e.kind, src1, src2, op.scalar), "dst");
        break;
    }
    case VRB_OP_GATHER: {
        const uint64_t elements = e.count + 5;
        const auto src1 = random_lanes(elements * width, seed);
        std::vector<uint32_t> index(e.count);
        for (uint64_t i = 0; i < e.count; ++i)
            index[i] = vrb_pattern_random(i, seed + 7) % elements;
        if (!index.empty()) index.back() = static_cast<uint32_t>(elements - 1); // the very last element too
        BufferPtr b1 = make(o1, elements * width), b2 = make(o2 / e.element_bytes * 4, e.count);
        upload(b1.get(), o1, src1);
        upload(b2.get(), o2 / e.element_bytes * 4, index);
        op.src1 = {b1.get(), o1};
        op.src2 = {b2.get(), o2 / e.element_bytes * 4};
        const RunResult r = run(device, op);
        EXPECT_EQ(r.output.checksum, expected_gather(src1, index, width));
        break;
    }
    case VRB_OP_CHASE: {
        const auto n = static_cast<uint32_t>(std::max<uint64_t>(std::min<uint64_t>(e.count, 1u << 20), 2));
        const auto chain = random_cycle(n, seed);
        const uint64_t o = o1 / e.element_bytes * 4;
        BufferPtr b1 = make(o, n);
        upload(b1.get(), o, chain);
        op.src1 = {b1.get(), o};
        const RunResult r = run(device, op);
        EXPECT_EQ(r.output.checksum, follow(chain, e.count));
        break;
    }
    case VRB_OP_CHECK: {
        op.pattern = VRB_PATTERN_RANDOM;
        std::vector<uint32_t> data(lanes);
        for (uint64_t l = 0; l < lanes; ++l)
            data[l] = vrb_pattern(op.pattern, l, seed);
        BufferPtr b1 = make(o1, lanes);
        upload(b1.get(), o1, data);
        op.src1 = {b1.get(), o1};
        RunResult r = run(device, op);
        EXPECT_EQ(r.output.mismatches, 0u);
        // Corrupt the last lane and one in the middle: both counted, the lower reported.
        const std::set<uint64_t> bad{lanes - 1, lanes / 2};
        for (uint64_t l : bad)
            data[l] ^= 0x00010000u;
        upload(b1.get(), o1, data);
        r = run(device, op);
        EXPECT_EQ(r.output.mismatches, bad.size());
        EXPECT_EQ(r.output.first_mismatch, *bad.begin());
        break;
    }
    case VRB_OP_TRANSFER: ADD_FAILURE() << "TRANSFER has its own tests"; break;
    }
}

} // namespace vrb::vulkan::test
