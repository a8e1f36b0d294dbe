// The operations that run as kernels: every piece of an operation (segments.hpp) is one
// launch, all pieces of a timed run on one queue between the first launch's start and
// the last one's end. Sums come back as one slot per work-group and are added here.
#include "device.hpp"
#include "segments.hpp"
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <bit>
#include <limits>

namespace vrb::opencl {

namespace {

enum Role { kDst = 0, kSrc1 = 1, kSrc2 = 2 };

// The stream kernels' `flags` (kernels/common.cl and width.cl): every group walks the
// whole set; a CPU's elementwise kernel stores with streaming stores.
constexpr cl_uint kWalkWholeSet = 1;
constexpr cl_uint kStreamingStores = 2;

struct Shape {
    const char *kernel = nullptr;
    bool uses[3] = {false, false, false};
    bool reduction = false; // slots carry sums
    bool check = false;     // slots carry (mismatches, first lane)
};

Shape shape_of(uint32_t kind)
{
    switch (kind) {
    case VRB_OP_READ: return {"read", {false, true, false}, true};
    case VRB_OP_DOT: return {"product_sum", {false, true, true}, true};
    case VRB_OP_STRIDED_READ: return {"strided", {false, true, false}, true};
    case VRB_OP_WRITE:
    case VRB_OP_FILL: return {"fill", {true, false, false}};
    case VRB_OP_CHECK: return {"check", {false, true, false}, false, true};
    case VRB_OP_COPY: return {"copy", {true, true, false}};
    case VRB_OP_SCALE: return {"scale", {true, true, false}};
    case VRB_OP_ADD: return {"add", {true, true, true}};
    case VRB_OP_TRIAD: return {"triad", {true, true, true}};
    default: plugin::fail(VRB_ERROR_UNSUPPORTED, "OpenCL: no kernel for operation " + std::to_string(kind));
    }
}

template <typename T> void arg(cl_kernel kernel, cl_uint index, const T &value)
{
    check(clSetKernelArg(kernel, index, sizeof value, &value), "clSetKernelArg");
}

void bind_mem(cl_kernel kernel, cl_uint index, cl_mem mem)
{
    check(clSetKernelArg(kernel, index, sizeof mem, &mem), "clSetKernelArg");
}

// Pieces of an operation over `walks`; an empty operation is still one launch, so even
// it has a duration the device measured.
std::vector<Piece> pieces_of(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                             const std::vector<Access> &walks, const std::vector<const Buffer *> &buffers)
{
    if (count > 0) return split_pieces(count, element_bytes, segment_bytes, walks);
    Piece empty;
    for (std::size_t a = 0; a < walks.size(); ++a)
        empty.access[a] = {std::min<uint64_t>(walks[a].offset / segment_bytes, buffers[a]->segments().size() - 1), 0};
    return {empty};
}

// Bits for the arguments `first` .. `first + count - 1` where they bind `buffer`'s
// segments as SVM pointers (Program::kernel keeps those bindings apart).
uint32_t svm_arguments(const Buffer &buffer, cl_uint first, cl_uint count = 1)
{
    return !buffer.segments().empty() && buffer.segments().front().svm ? ((1u << count) - 1u) << first : 0u;
}

std::string run_name(const vrb_operation &op, std::size_t r)
{
    return "OpenCL operation " + std::to_string(op.kind) + ", run " + std::to_string(r);
}

} // namespace

void Device::run_kernels(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    const Shape shape = shape_of(op.kind);
    const uint32_t e = op.element_bytes, lanes = e / 4;
    const vrb_operand *operands[3] = {&op.dst, &op.src1, &op.src2};
    std::vector<Access> walks;
    std::vector<const Buffer *> buffers;
    int walk_of[3] = {-1, -1, -1};
    for (int role = 0; role < 3; ++role) {
        if (!shape.uses[role]) continue;
        const uint64_t step = role == kSrc1 && op.kind == VRB_OP_STRIDED_READ ? plugin::checked_mul(op.stride, e) : e;
        walk_of[role] = static_cast<int>(walks.size());
        walks.push_back({operands[role]->offset, step});
        buffers.push_back(&buffer_of(*operands[role]));
    }
    const std::vector<Piece> pieces = pieces_of(op.count, e, segment_bytes_, walks, buffers);

    uint32_t svm = 0;
    for (int role = 0; role < 3; ++role)
        if (walk_of[role] >= 0) svm |= svm_arguments(*buffers[walk_of[role]], role);
    const std::string kernel_name = std::string(shape.kernel) + "_w" + std::to_string(lanes);
    const Geometry geometry = this->geometry(kernel_name);
    // A sweep's stream operation on a set below one wave of a GPU: one group on every
    // unit walks it whole (plan_sweep_walk), so a pass moves it once per group (the
    // passes made say so) and group 0's sum is the answer. A READ asked as one read
    // (VRB_OPERATION_ONE_READ) is shared out at every size.
    const bool one_read = op.kind == VRB_OP_READ && (plugin::operation_flags(op) & VRB_OPERATION_ONE_READ);
    const bool sweep_op =
        op.kind != VRB_OP_FILL && op.kind != VRB_OP_CHECK && op.kind != VRB_OP_STRIDED_READ && !one_read;
    const SweepWalk walk =
        sweep_op && pieces.size() == 1 ? sweep_walk(kernel_name, geometry, pieces[0].count) : SweepWalk{};
    const uint64_t whole = walk.groups;
    const uint32_t local_size = whole ? walk.local_size : local_size_;
    cl_kernel kernel = program_of_width(local_size).kernel(kernel_name, svm);
    const cl_uint asked = plugin::operation_passes(op);
    const cl_uint passes = whole ? std::max<cl_uint>(1, std::min<uint64_t>(asked, UINT32_MAX / whole)) : asked;
    out.passes = whole ? static_cast<uint32_t>(passes * whole) : passes;
    if (whole) out.flags |= VRB_OUTPUT_WHOLE_SET_PER_UNIT;
    std::vector<uint64_t> groups(pieces.size()), slots(pieces.size());
    uint64_t total_slots = 0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        groups[p] = whole ? whole : launch_groups(geometry, pieces[p].count, passes);
        slots[p] = total_slots;
        total_slots += groups[p];
    }
    if (total_slots > std::numeric_limits<cl_uint>::max())
        plugin::fail(VRB_ERROR_UNSUPPORTED, "OpenCL: an operation of " + std::to_string(pieces.size()) + " pieces");
    cl_mem result_mem = results(total_slots);
    const bool elementwise =
        op.kind == VRB_OP_COPY || op.kind == VRB_OP_SCALE || op.kind == VRB_OP_ADD || op.kind == VRB_OP_TRIAD;
    const cl_uint flags =
        (whole ? kWalkWholeSet : 0u) |
        (elementwise && streaming_stores(geometry, op.count * e, cache_bytes_) ? kStreamingStores : 0u);
    const cl_uint pattern = op.kind == VRB_OP_WRITE ? cl_uint(VRB_PATTERN_RANDOM) : op.pattern;

    for (std::size_t r = 0; r < seconds.size(); ++r) {
        check_cancelled();
        std::vector<EventHandle> events;
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            const Piece &piece = pieces[p];
            cl_ulong bases[3] = {0, 0, 0};
            for (int role = 0; role < 3; ++role) {
                if (walk_of[role] < 0) {
                    bind_mem(kernel, role, result_mem); // never touched by the kernel
                    continue;
                }
                const PieceAccess &place = piece.access[walk_of[role]];
                buffers[walk_of[role]]->segments()[place.segment].bind(kernel, role);
                bases[role] = place.offset / e;
            }
            bind_mem(kernel, 3, result_mem);
            arg<cl_ulong>(kernel, 4, piece.count);
            arg<cl_ulong>(kernel, 5, bases[kDst]);
            arg<cl_ulong>(kernel, 6, bases[kSrc1]);
            arg<cl_ulong>(kernel, 7, bases[kSrc2]);
            arg<cl_ulong>(kernel, 8, piece.first * lanes);
            arg<cl_ulong>(kernel, 9, op.stride);
            arg<cl_uint>(kernel, 10, op.scalar);
            arg<cl_uint>(kernel, 11, op.seed);
            arg<cl_uint>(kernel, 12, pattern);
            arg<cl_uint>(kernel, 13, passes);
            arg<cl_uint>(kernel, 14, static_cast<cl_uint>(slots[p]));
            arg<cl_uint>(kernel, 15, flags);
            const size_t global = groups[p] * local_size, local = local_size;
            cl_event event = nullptr;
            check(clEnqueueNDRangeKernel(queue_.get(), kernel, 1, nullptr, &global, &local, 0, nullptr, &event),
                  std::string("clEnqueueNDRangeKernel(") + shape.kernel + ")");
            events.emplace_back(event);
        }
        check(clFlush(queue_.get()), "clFlush");
        seconds[r] = span_seconds(event_times(events), run_name(op, r));
    }

    if (!shape.reduction && !shape.check) return;
    const std::vector<cl_ulong> words = read_results(total_slots);
    if (shape.reduction) {
        uint64_t sum = 0;
        for (uint64_t s = 0; s < (whole ? 1 : total_slots); ++s)
            sum += words[2 * s];
        out.checksum = sum;
        return;
    }
    uint64_t mismatches = 0, first = std::numeric_limits<uint64_t>::max();
    for (uint64_t s = 0; s < total_slots; ++s) {
        mismatches += words[2 * s];
        if (words[2 * s]) first = std::min<uint64_t>(first, words[2 * s + 1]);
    }
    out.mismatches = mismatches;
    out.first_mismatch = mismatches ? first : 0;
}

void Device::run_gather_or_chase(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    const bool chase = op.kind == VRB_OP_CHASE;
    const uint32_t unit = chase ? 4 : op.element_bytes;
    const Buffer &chain = buffer_of(op.src1);
    const uint64_t first_segment = op.src1.offset / segment_bytes_;
    const uint64_t bound = chain.segments().size() - first_segment;
    if (bound > 8)
        plugin::fail(VRB_ERROR_UNSUPPORTED, "OpenCL: " + std::string(chase ? "chase" : "gather") + " reads src1 over " +
                                                std::to_string(bound) + " segments, more than the kernels' 8");
    const cl_ulong chain_base = (op.src1.offset % segment_bytes_) / unit;
    const uint64_t elements = (chain.size() - op.src1.offset) / unit;
    const cl_ulong chain_limit = chain_base + elements;
    const cl_uint shift =
        chain.segments().size() == 1 ? 62u : static_cast<cl_uint>(std::countr_zero(segment_bytes_ / unit));
    const cl_uint passes = plugin::operation_passes(op);
    auto bind_chain = [&](cl_kernel kernel, cl_uint first_arg) {
        for (cl_uint c = 0; c < 8; ++c)
            chain.segments()[first_segment + std::min<uint64_t>(c, bound - 1)].bind(kernel, first_arg + c);
    };

    if (chase) {
        cl_kernel kernel = program_->kernel("chase", svm_arguments(chain, 1, 8));
        cl_mem result_mem = results(1);
        bind_mem(kernel, 0, result_mem);
        bind_chain(kernel, 1);
        arg<cl_ulong>(kernel, 9, op.count);
        arg<cl_ulong>(kernel, 10, chain_base);
        arg<cl_ulong>(kernel, 11, chain_limit);
        arg<cl_uint>(kernel, 12, shift);
        arg<cl_uint>(kernel, 13, passes);
        for (std::size_t r = 0; r < seconds.size(); ++r) {
            check_cancelled();
            const size_t one = 1;
            cl_event event = nullptr;
            check(clEnqueueNDRangeKernel(queue_.get(), kernel, 1, nullptr, &one, &one, 0, nullptr, &event),
                  "clEnqueueNDRangeKernel(chase)");
            std::vector<EventHandle> events;
            events.emplace_back(event);
            seconds[r] = span_seconds(event_times(events), run_name(op, r));
        }
        const std::vector<cl_ulong> words = read_results(1);
        if (words[1])
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "chase index " + std::to_string(words[0]) + " is past the " +
                                                         std::to_string(elements) + " entries of src1");
        out.checksum = words[0];
        return;
    }

    const Buffer &index = buffer_of(op.src2);
    const std::vector<Access> walks{{op.src2.offset, 4}};
    const std::vector<Piece> pieces = pieces_of(op.count, 4, segment_bytes_, walks, {&index});
    const std::string kernel_name = "gather_w" + std::to_string(op.element_bytes / 4);
    cl_kernel kernel = program_->kernel(kernel_name, svm_arguments(index, 0) | svm_arguments(chain, 2, 8));
    const Geometry geometry = this->geometry(kernel_name);
    std::vector<uint64_t> groups(pieces.size()), slots(pieces.size());
    uint64_t total_slots = 0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        groups[p] = launch_groups(geometry, pieces[p].count, passes);
        slots[p] = total_slots;
        total_slots += groups[p];
    }
    cl_mem result_mem = results(total_slots);
    for (std::size_t r = 0; r < seconds.size(); ++r) {
        check_cancelled();
        std::vector<EventHandle> events;
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            const Piece &piece = pieces[p];
            index.segments()[piece.access[0].segment].bind(kernel, 0);
            bind_mem(kernel, 1, result_mem);
            bind_chain(kernel, 2);
            arg<cl_ulong>(kernel, 10, piece.count);
            arg<cl_ulong>(kernel, 11, piece.access[0].offset / 4);
            arg<cl_ulong>(kernel, 12, chain_base);
            arg<cl_ulong>(kernel, 13, chain_limit);
            arg<cl_uint>(kernel, 14, shift);
            arg<cl_uint>(kernel, 15, passes);
            arg<cl_uint>(kernel, 16, static_cast<cl_uint>(slots[p]));
            const size_t global = groups[p] * local_size_, local = local_size_;
            cl_event event = nullptr;
            check(clEnqueueNDRangeKernel(queue_.get(), kernel, 1, nullptr, &global, &local, 0, nullptr, &event),
                  "clEnqueueNDRangeKernel(gather)");
            events.emplace_back(event);
        }
        check(clFlush(queue_.get()), "clFlush");
        seconds[r] = span_seconds(event_times(events), run_name(op, r));
    }
    const std::vector<cl_ulong> words = read_results(total_slots);
    uint64_t sum = 0, faults = 0;
    for (uint64_t s = 0; s < total_slots; ++s) {
        sum += words[2 * s];
        faults += words[2 * s + 1];
    }
    if (faults) {
        // Which index it was: read back outside the timed runs, only on this path.
        std::vector<uint32_t> indices(op.count);
        const_cast<Buffer &>(index).download(op.src2.offset, indices.data(), op.count * 4);
        const auto bad = std::find_if(indices.begin(), indices.end(), [&](uint32_t i) { return i >= elements; });
        const uint64_t at = static_cast<uint64_t>(bad - indices.begin());
        plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "gather index " + std::to_string(bad != indices.end() ? *bad : 0) +
                                                     " at position " + std::to_string(at) + " is past the " +
                                                     std::to_string(elements) + " elements of src1");
    }
    out.checksum = sum;
}

} // namespace vrb::opencl
