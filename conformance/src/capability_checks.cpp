// The capability query (op_supported, ABI 1.3) against run(): the core plans from the
// query's answers, so a combination it calls supported must run and give the host's
// answer, and one it calls unsupported must be refused by run() as VRB_ERROR_UNSUPPORTED.
#include "checks.hpp"
#include "lanes.hpp"

#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <algorithm>

namespace vrb::conformance {

namespace {

constexpr uint64_t count = 64;          // elements: small, every operand fits in 1 KiB
constexpr uint64_t buffer_lanes = 1024; // 4 KiB: room for count 16-byte elements and more

struct Operands {
    std::unique_ptr<Buffer> a, b, c, zeros; // zeros: gather's indices, all in range
    std::vector<uint32_t> vb, vc;
};

Operands operands(Device &device, const Kind &kind)
{
    Operands o;
    o.a = device.allocate(kind.index, buffer_lanes * 4);
    o.b = device.allocate(kind.index, buffer_lanes * 4);
    o.c = device.allocate(kind.index, buffer_lanes * 4);
    o.zeros = device.allocate(kind.index, buffer_lanes * 4);
    o.vb = random_lanes(buffer_lanes, 71);
    o.vc = random_lanes(buffer_lanes, 72);
    // Lane 0 of b is where a chase starts and goes next: 0 keeps it in range.
    o.vb[0] = 0;
    upload(*o.b, o.vb);
    upload(*o.c, o.vc);
    upload(*o.a, random_lanes(buffer_lanes, 73));
    upload(*o.zeros, std::vector<uint32_t>(buffer_lanes, 0));
    return o;
}

// The operation as run() expects it, with every operand it reads or writes set.
vrb_operation operation(uint32_t op_kind, uint32_t width, const Operands &o)
{
    vrb_operation op = make_op(op_kind, width, op_kind == VRB_OP_TRANSFER ? count * 4 : count);
    op.dst = {o.a->handle(), 0};
    op.src1 = {o.b->handle(), 0};
    op.src2 = {o.c->handle(), 0};
    switch (op_kind) {
    case VRB_OP_READ:
    case VRB_OP_STRIDED_READ:
    case VRB_OP_CHASE:
    case VRB_OP_CHECK:
        op.dst = {};
        op.src2 = {};
        break;
    case VRB_OP_WRITE:
    case VRB_OP_FILL:
        op.src1 = {};
        op.src2 = {};
        break;
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_TRANSFER: op.src2 = {}; break;
    case VRB_OP_DOT: op.dst = {}; break;
    case VRB_OP_GATHER:
        op.dst = {};
        op.src2 = {o.zeros->handle(), 0};
        break;
    default: break;
    }
    op.pattern = VRB_PATTERN_ADDRESS;
    return op;
}

// What the host says the operation leaves behind; empty when the other checks hold
// the operation to its answer and running cleanly is all that is asked here.
std::string wrong_answer(uint32_t op_kind, uint32_t width, const vrb_operation &op, const Operands &o,
                         const Device::RunOutput &out)
{
    const uint64_t lanes = count * width / 4;
    std::vector<uint32_t> want(lanes);
    switch (op_kind) {
    case VRB_OP_READ:
    case VRB_OP_DOT: {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < lanes; ++i)
            sum += op_kind == VRB_OP_READ ? o.vb[i] : static_cast<uint32_t>(o.vb[i] * o.vc[i]);
        return out.output.checksum == sum ? "" : "checksum " + value_difference(sum, out.output.checksum);
    }
    case VRB_OP_WRITE:
        for (uint64_t i = 0; i < lanes; ++i)
            want[i] = vrb_pattern_random(i, op.seed);
        break;
    case VRB_OP_COPY: std::copy_n(o.vb.begin(), lanes, want.begin()); break;
    case VRB_OP_SCALE:
        for (uint64_t i = 0; i < lanes; ++i)
            want[i] = op.scalar * o.vb[i];
        break;
    case VRB_OP_ADD:
        for (uint64_t i = 0; i < lanes; ++i)
            want[i] = o.vb[i] + o.vc[i];
        break;
    case VRB_OP_TRIAD:
        for (uint64_t i = 0; i < lanes; ++i)
            want[i] = o.vb[i] + op.scalar * o.vc[i];
        break;
    case VRB_OP_TRANSFER: std::copy_n(o.vb.begin(), lanes, want.begin()); break; // count * 4 bytes: `lanes` at width 4
    case VRB_OP_FILL:
        for (uint64_t i = 0; i < lanes; ++i)
            want[i] = vrb_pattern(VRB_PATTERN_ADDRESS, i, op.seed);
        break;
    default: return {};
    }
    return lane_difference(download(*o.a, lanes), want);
}

} // namespace

void check_capabilities(const Target &target, Findings &findings)
{
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        if (!device->module().slot(&vrb_plugin_table::op_supported)) return; // asked by running, as before 1.3
        for (const Kind &kind : all_kinds(*device))
            for (uint32_t op_kind = VRB_OP_READ; op_kind <= VRB_OP_CHECK; ++op_kind)
                for (uint32_t width : {4u, 8u, 16u}) {
                    if (op_kind == VRB_OP_TRANSFER && width != 4) continue; // bytes: one width is enough
                    const std::string at = where(op_kind, width, kind, count);
                    attempt(findings, at, [&] {
                        const std::optional<bool> offered = device->supports(op_kind, width, kind.index);
                        const Operands o = operands(*device, kind);
                        const vrb_operation op = operation(op_kind, width, o);
                        if (*offered) {
                            Device::RunOutput out;
                            try {
                                out = device->run(op, 1);
                            } catch (const BackendError &e) {
                                findings.fail(fmt::format("{}: op_supported says supported, but run() answers {}: {}",
                                                          at, to_string(e.status()), e.what()));
                                return;
                            }
                            if (const std::string d = wrong_answer(op_kind, width, op, o, out); !d.empty())
                                findings.fail(at + ": supported, and " + d);
                            return;
                        }
                        try {
                            device->run(op, 1);
                            findings.fail(at + ": op_supported says unsupported, but run() did it");
                        } catch (const BackendError &e) {
                            if (e.status() != VRB_ERROR_UNSUPPORTED)
                                findings.fail(fmt::format("{}: op_supported says unsupported, so run() must answer "
                                                          "unsupported, not {}: {}",
                                                          at, to_string(e.status()), e.what()));
                        }
                    });
                }
    });
}

} // namespace vrb::conformance
