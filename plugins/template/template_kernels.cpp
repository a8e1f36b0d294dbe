// The vocabulary of plugin.h as plain loops. Every formula here is the contract: a GPU
// backend's kernels must produce bit-identical results, which is why all arithmetic is
// on uint32_t lanes (wrapping mod 2^32, never signed overflow) and every sum is a
// uint64_t total mod 2^64 that no reduction order can change. A GPU kernel splits the
// loops across threads and reduces partial sums in any order it likes.
#include "template_kernels.hpp"

#include <vrambench/pattern.h>
#include <vrambench/plugin_support.hpp>

#include <string>

namespace vrb::tpl {
namespace {

using plugin::fail;

uint64_t lanes_per_element(const vrb_operation &op)
{
    return op.element_bytes / 4;
}

// READ and DOT: lanes summed into 64 bits. A GPU kernel sums a grid-stride slice per
// thread, reduces per work-group, and adds the groups' totals atomically. Widening
// every lane to 64 bits costs more ALU work than the load it checks, so lanes are
// taken in pairs as one 64-bit word (low + 2^32 * high) beside a sum of the high
// lanes; the lane sum modulo 2^64 is words + highs - 2^32 * highs.
uint64_t sum(const uint32_t *a, uint64_t lanes)
{
    uint64_t words = 0, highs = 0;
    uint64_t i = 0;
    for (; i + 2 <= lanes; i += 2) {
        words += a[i] | uint64_t(a[i + 1]) << 32;
        highs += a[i + 1];
    }
    const uint64_t odd = i < lanes ? a[i] : 0;
    return words + highs - (highs << 32) + odd;
}

uint64_t dot(const uint32_t *a, const uint32_t *b, uint64_t lanes)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < lanes; ++i)
        total += static_cast<uint32_t>(a[i] * b[i]); // the product wraps before it is summed
    return total;
}

// Element by element, each element's lanes together, as a vectorised GPU load
// (uint2, uint4) reads them: this is what makes element width a measurable parameter.
uint64_t strided_sum(const vrb_operation &op, const uint32_t *a)
{
    const uint64_t lpe = lanes_per_element(op);
    uint64_t total = 0;
    for (uint64_t e = 0; e < op.count; ++e)
        for (uint64_t l = 0; l < lpe; ++l)
            total += a[e * op.stride * lpe + l];
    return total;
}

uint64_t gather_sum(const vrb_operation &op, const KernelArgs &args)
{
    const uint64_t lpe = lanes_per_element(op);
    const uint64_t elements = args.src1_lanes / lpe;
    uint64_t total = 0;
    for (uint64_t i = 0; i < op.count; ++i) {
        const uint64_t e = args.src2[i];
        // A GPU kernel cannot throw: it records the fault in a flag the host reads after
        // the run, and the backend then fails the call the same way.
        if (e >= elements)
            fail(VRB_ERROR_INVALID_ARGUMENT, "gather index " + std::to_string(e) + " at position " + std::to_string(i) +
                                                 " is past the " + std::to_string(elements) + " elements of src1");
        for (uint64_t l = 0; l < lpe; ++l)
            total += args.src1[e * lpe + l];
    }
    return total;
}

// Dependent loads: one thread on every API (a single work-item on a GPU), since
// latency is what is measured and a second thread would only hide it.
uint64_t chase(const vrb_operation &op, const KernelArgs &args)
{
    uint64_t j = 0;
    for (uint64_t step = 0; step < op.count; ++step) {
        if (j >= args.src1_lanes)
            fail(VRB_ERROR_INVALID_ARGUMENT, "chase index " + std::to_string(j) + " at step " + std::to_string(step) +
                                                 " is past the " + std::to_string(args.src1_lanes) +
                                                 " entries of src1");
        j = args.src1[j];
    }
    return j;
}

// WRITE: pattern.h's random lanes, hashed once per place in its block and then only
// XORed with each block's whitening word, so a store is not waiting on a hash. A GPU
// thread whose grid stride is a multiple of the block keeps its one place's hash in a
// register.
void write_random(uint32_t *dst, uint64_t lanes, uint32_t seed)
{
    uint32_t block[VRB_PATTERN_BLOCK_LANES];
    for (uint32_t j = 0; j < VRB_PATTERN_BLOCK_LANES; ++j)
        block[j] = vrb_pattern_block_lane(j, seed);
    for (uint64_t i = 0; i < lanes; ++i)
        dst[i] = block[i % VRB_PATTERN_BLOCK_LANES] ^ vrb_pattern_whitening(i >> VRB_PATTERN_BLOCK_SHIFT);
}

// Lane numbers count from the operand's offset, so any range can be filled or checked
// by itself and the host can recompute any lane without reading the others.
KernelAnswer check(const vrb_operation &op, const uint32_t *a, uint64_t lanes)
{
    KernelAnswer answer;
    for (uint64_t i = 0; i < lanes; ++i)
        if (a[i] != vrb_pattern(op.pattern, i, op.seed) && answer.mismatches++ == 0) answer.first_mismatch = i;
    return answer;
}

} // namespace

KernelAnswer launch_kernel(const vrb_operation &op, const KernelArgs &args)
{
    const uint64_t lanes = op.count * lanes_per_element(op);
    uint32_t *dst = args.dst;
    const uint32_t *a = args.src1;
    const uint32_t *b = args.src2;
    KernelAnswer answer;
    // op.kind stays a uint32_t: a value off the wire may be outside vrb_op_kind.
    switch (op.kind) {
    case VRB_OP_READ: answer.checksum = sum(a, lanes); break;
    case VRB_OP_DOT: answer.checksum = dot(a, b, lanes); break;
    case VRB_OP_WRITE: write_random(dst, lanes, op.seed); break;
    case VRB_OP_COPY:
        for (uint64_t i = 0; i < lanes; ++i)
            dst[i] = a[i];
        break;
    case VRB_OP_SCALE:
        for (uint64_t i = 0; i < lanes; ++i)
            dst[i] = op.scalar * a[i];
        break;
    case VRB_OP_ADD:
        for (uint64_t i = 0; i < lanes; ++i)
            dst[i] = a[i] + b[i];
        break;
    case VRB_OP_TRIAD:
        for (uint64_t i = 0; i < lanes; ++i)
            dst[i] = a[i] + op.scalar * b[i];
        break;
    case VRB_OP_STRIDED_READ: answer.checksum = strided_sum(op, a); break;
    case VRB_OP_GATHER: answer.checksum = gather_sum(op, args); break;
    case VRB_OP_CHASE: answer.checksum = chase(op, args); break;
    case VRB_OP_FILL:
        for (uint64_t i = 0; i < lanes; ++i)
            dst[i] = vrb_pattern(op.pattern, i, op.seed);
        break;
    case VRB_OP_CHECK: answer = check(op, a, lanes); break;
    default: fail(VRB_ERROR_UNSUPPORTED, "the template has no kernel for operation " + std::to_string(op.kind));
    }
    return answer;
}

} // namespace vrb::tpl
