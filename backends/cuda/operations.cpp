// run(): hands an operation the adapter checked to the kernels or the copy engine,
// times every run and turns the kernels' partial results into the answer.
#include "backend.hpp"

#include "pass_sums.hpp"
#include "timing.hpp"
#include "transfer.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

const char *operation_name(uint32_t kind)
{
    switch (kind) {
    case VRB_OP_READ: return "READ";
    case VRB_OP_WRITE: return "WRITE";
    case VRB_OP_COPY: return "COPY";
    case VRB_OP_SCALE: return "SCALE";
    case VRB_OP_ADD: return "ADD";
    case VRB_OP_TRIAD: return "TRIAD";
    case VRB_OP_DOT: return "DOT";
    case VRB_OP_STRIDED_READ: return "STRIDED_READ";
    case VRB_OP_GATHER: return "GATHER";
    case VRB_OP_CHASE: return "CHASE";
    case VRB_OP_TRANSFER: return "TRANSFER";
    case VRB_OP_FILL: return "FILL";
    case VRB_OP_CHECK: return "CHECK";
    default: return "unknown operation";
    }
}

using Preparer = PreparedKernel (*)(const KernelOp &, const Scratch &, const DeviceShape &);

Preparer preparer_for(uint32_t kind)
{
    switch (kind) {
    case VRB_OP_READ:
    case VRB_OP_WRITE:
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_ADD:
    case VRB_OP_TRIAD:
    case VRB_OP_DOT: return prepare_stream_op;
    case VRB_OP_STRIDED_READ:
    case VRB_OP_GATHER: return prepare_access_op;
    case VRB_OP_FILL:
    case VRB_OP_CHECK: return prepare_pattern_op;
    default: fail(VRB_ERROR_UNSUPPORTED, "unknown operation kind " + std::to_string(kind));
    }
}

// The address a kernel uses for an operand, or UNSUPPORTED when the operand's memory
// is out of the device's reach (pageable memory on most systems).
void *kernel_address(const vrb_operation &op, const vrb_operand &operand, const char *role)
{
    const vrb_buffer &b = *operand.buffer;
    if (!b.device_address)
        fail(VRB_ERROR_UNSUPPORTED, std::string(operation_name(op.kind)) + " runs a kernel on " + role +
                                        ", but memory of kind '" + b.owner->kinds[b.kind].name +
                                        "' is not accessible to " + kApiName +
                                        " kernels on this device; TRANSFER can still copy it");
    return static_cast<char *>(b.device_address) + operand.offset;
}

// GATHER and CHASE index into src1 as far as its buffer goes, which check_operation
// cannot size beforehand: the limit is what lies between src1.offset and the end.
uint64_t index_limit(const vrb_operation &op, uint64_t unit)
{
    const vrb_buffer &b = *op.src1.buffer;
    if (op.src1.offset % unit != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string("operand src1 offset ") + std::to_string(op.src1.offset) +
                                             " is not a multiple of " + std::to_string(unit));
    if (op.src1.offset > b.bytes)
        fail(VRB_ERROR_INVALID_ARGUMENT, "operand src1 offset " + std::to_string(op.src1.offset) +
                                             " lies past its buffer of " + std::to_string(b.bytes) + " bytes");
    return (b.bytes - op.src1.offset) / unit;
}

// The chase's links go in memory of the chain's kind on the chain's device (a peer's,
// read in place), so a step costs what a step through the chain itself would. Memory
// the module cannot allocate again (imported from another API) leaves none: the chase
// then walks the indices.
ChaseMemory memory_like(const vrb_buffer &chain, uint64_t bytes)
{
    ChaseMemory memory;
    const bool allocatable = chain.device_memory || chain.pinned_memory || chain.pageable_memory;
    if (!allocatable) return memory;
    try {
        std::shared_ptr<vrb_buffer> links = chain.owner->alloc(chain.kind, bytes);
        memory.address = links->device_address;
        memory.owner = std::move(links);
    } catch (const plugin::Failure &f) {
        if (f.status() != VRB_ERROR_OUT_OF_MEMORY) throw;
        memory = {}; // too little memory for the links: the indices will do
    }
    return memory;
}

KernelOp resolve(const vrb_operation &op)
{
    const plugin::OperandSpans spans = plugin::operand_spans(op);
    KernelOp k;
    k.kind = op.kind;
    k.lanes = op.element_bytes / 4;
    k.count = op.count;
    k.stride = op.stride;
    k.scalar = op.scalar;
    k.seed = op.seed;
    k.pattern = op.pattern;
    k.shared_out = op.kind == VRB_OP_READ && (plugin::operation_flags(op) & VRB_OPERATION_ONE_READ);
    if (spans.dst) k.dst = kernel_address(op, op.dst, "dst");
    if (spans.src1) k.src1 = kernel_address(op, op.src1, "src1");
    if (spans.src2) k.src2 = kernel_address(op, op.src2, "src2");
    if (op.kind == VRB_OP_GATHER) {
        k.src1 = kernel_address(op, op.src1, "src1");
        k.src1_limit = index_limit(op, op.element_bytes);
    } else if (op.kind == VRB_OP_CHASE) {
        k.src1 = kernel_address(op, op.src1, "src1");
        k.src1_limit = index_limit(op, 4);
        if (op.count > 0 && k.src1_limit == 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, "CHASE starts at index 0, but src1 holds no index from its offset");
    }
    return k;
}

// On the stream the kernels ran on, as every copy of the module is: the legacy stream
// does not order itself after a non-blocking one.
std::vector<uint64_t> download_words(const uint64_t *device_words, std::size_t count, StreamHandle stream)
{
    std::vector<uint64_t> words(count);
    if (count > 0) {
        check(copy_async(words.data(), device_words, count * sizeof(uint64_t), CopyKind::device_to_host, stream),
              "reading the kernels' results");
        check(stream_synchronize(stream), "waiting for the kernels' results");
    }
    return words;
}

// Out-of-range indices were reported by the kernels instead of being followed.
void check_faults(const vrb_operation &op, const KernelOp &k, const std::array<uint64_t, kScratchWords> &words)
{
    if (words[0] == 0) return;
    if (op.kind == VRB_OP_GATHER)
        fail(VRB_ERROR_INVALID_ARGUMENT, "GATHER index " + std::to_string(words[2]) + " at position " +
                                             std::to_string(words[1]) + " is outside src1, which holds " +
                                             std::to_string(k.src1_limit) + " elements from its offset");
    fail(VRB_ERROR_INVALID_ARGUMENT, "CHASE reached index " + std::to_string(words[2]) + " at step " +
                                         std::to_string(words[1]) + ", outside src1, which holds " +
                                         std::to_string(k.src1_limit) + " indices from its offset");
}

// CHASE's links for this chain as it stands: those kept with it where they were made of
// what it holds now, at the same offset and limit, else made now (`made_now`) and kept.
// Memory whose contents are not tracked (another API's) keeps none.
ChaseLinksMade chase_links_of(vrb_buffer &chain, const KernelOp &k, vrb_device &device, StreamHandle stream,
                              bool &made_now)
{
    if (const ChaseLinksKept *kept = chain.chase_links.get();
        kept && kept->contents == chain.contents && kept->chain == k.src1 && kept->limit == k.src1_limit)
        return kept->made;
    chain.chase_links.reset(); // the old links go before new ones take their memory
    ChaseLinksMade made = make_chase_links(k, device.scratch, device.shape, stream);
    made_now = made.memory.address != nullptr;
    if (made_now && chain.contents)
        chain.chase_links =
            std::make_shared<ChaseLinksKept>(ChaseLinksKept{chain.contents, k.src1, k.src1_limit, made});
    return made;
}

void run_kernels(vrb_device &device, const vrb_operation &op, uint32_t passes, uint32_t repetitions, double *seconds,
                 vrb_op_output &out, bool shared_out = false)
{
    KernelOp k = resolve(op);
    k.shared_out = k.shared_out || shared_out;
    if (op.kind == VRB_OP_CHASE)
        k.chase_memory = [&op, &device](uint64_t bytes) {
            ChaseMemory memory = memory_like(*op.src1.buffer, bytes);
            make_current(device.ordinal); // a peer's chain: its links were allocated there
            return memory;
        };
    StreamHandle stream = device.stream.get();
    const Scratch &scratch = device.scratch;
    bool links_made_now = false;
    const PreparedKernel kernel =
        op.kind == VRB_OP_CHASE
            ? prepare_chase_op(k, chase_links_of(*op.src1.buffer, k, device, stream, links_made_now), scratch)
            : preparer_for(op.kind)(k, scratch, device.shape);
    const bool faults = op.kind == VRB_OP_GATHER || op.kind == VRB_OP_CHASE;
    if (faults)
        check(memset_async(scratch.words, 0, kScratchWords * sizeof(uint64_t), stream), "clearing the fault record");

    // One launch per run: the kernels loop over the passes, each thread walking its
    // items `passes` times, and answer with the last pass's result. Where every block
    // walked the whole set, a pass moved it once per block: the passes made say so, so
    // the core counts the bytes that moved.
    uint32_t kernel_passes = std::max(1u, std::min(passes, UINT32_MAX / kernel.copies));
    if (kernel.sums_every_pass) kernel_passes = odd_passes(kernel_passes);
    out.passes = kernel_passes * kernel.copies;
    if (kernel.copies > 1) out.flags |= VRB_OUTPUT_WHOLE_SET_PER_UNIT;
    // Making the links wrote the whole chain's worth of them, which left the caches
    // holding links, not the chain's walk: one lap, untimed, puts the walk back.
    if (links_made_now) kernel.launch(stream, kernel_passes);
    time_runs(device, repetitions, seconds, [&](RunEvents &) { kernel.launch(stream, kernel_passes); });

    if (faults) {
        std::array<uint64_t, kScratchWords> words{};
        const std::vector<uint64_t> read = download_words(scratch.words, kScratchWords, stream);
        std::copy(read.begin(), read.end(), words.begin());
        check_faults(op, k, words);
        if (op.kind == VRB_OP_CHASE) out.checksum = op.count > 0 ? words[3] : 0;
    }
    const uint32_t blocks = kernel.partial_blocks;
    if (blocks == 0) return;
    const std::vector<uint64_t> partials = download_words(scratch.partial_a, blocks, stream);
    uint64_t total = 0; // modulo 2^64, as the ABI defines every sum
    for (uint64_t p : partials)
        total += p;
    if (op.kind == VRB_OP_CHECK) {
        const std::vector<uint64_t> firsts = download_words(scratch.partial_b, blocks, stream);
        out.mismatches = total;
        out.first_mismatch = total > 0 ? *std::min_element(firsts.begin(), firsts.end()) : 0;
    } else {
        out.checksum = kernel.sums_every_pass ? one_pass_sum(total, kernel_passes) : total;
    }
}

// TRANSFER by the SMs (VRB_OPERATION_ENGINE_SM): the same bytes copied by the COPY
// kernel, in the widest lanes the addresses and count allow, the set shared out over
// the device once a pass as a copy engine moves it. Both ends must be memory kernels
// reach: device memory, mapped pinned memory, a peer's memory with access on.
void run_sm_transfer(vrb_device &device, const vrb_operation &op, uint32_t passes, uint32_t repetitions,
                     double *seconds, vrb_op_output &out)
{
    if (op.src2.buffer)
        fail(VRB_ERROR_UNSUPPORTED, std::string("TRANSFER by the ") + kApiName +
                                        " kernels copies one way; both ways at once go through the copy engines");
    const auto dst = reinterpret_cast<uintptr_t>(kernel_address(op, op.dst, "dst"));
    const auto src = reinterpret_cast<uintptr_t>(kernel_address(op, op.src1, "src1"));
    const uint64_t alignment = dst | src | op.count;
    const uint32_t width = alignment % 16 == 0 ? 16 : alignment % 4 == 0 ? 4 : 0;
    if (width == 0)
        fail(VRB_ERROR_UNSUPPORTED, "TRANSFER by the kernels copies whole 4-byte lanes: " + std::to_string(op.count) +
                                        " bytes between these addresses are not");
    vrb_operation copy = op;
    copy.kind = VRB_OP_COPY;
    copy.element_bytes = width;
    copy.count = op.count / width;
    run_kernels(device, copy, passes, repetitions, seconds, out, true);
    out.flags |= VRB_OUTPUT_ENGINE_SM;
}

} // namespace

} // namespace vrb::gpu

// The adapter checked the operation against its buffers and their device.
void vrb_device::run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    using namespace vrb::gpu;
    out.timer = VRB_TIMER_DEVICE_EVENTS;
    const uint32_t passes = vrb::plugin::operation_passes(op);
    out.passes = passes;
    make_current(ordinal);
    const auto repetitions = static_cast<uint32_t>(seconds.size());
    // What the operation writes changes, whether or not it runs to the end.
    struct Written {
        const vrb_operation &op;
        ~Written()
        {
            if (op.dst.buffer) op.dst.buffer->changed();
            if (op.dst2.buffer) op.dst2.buffer->changed();
        }
    } written{op};
    if (op.kind == VRB_OP_TRANSFER && (vrb::plugin::operation_flags(op) & VRB_OPERATION_ENGINE_SM))
        run_sm_transfer(*this, op, passes, repetitions, seconds.data(), out);
    else if (op.kind == VRB_OP_TRANSFER)
        out.timer = run_transfer(*this, op, passes, repetitions, seconds.data(), out.flags);
    else
        run_kernels(*this, op, passes, repetitions, seconds.data(), out);
}
