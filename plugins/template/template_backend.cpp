// The template backend: a complete module for one "device", the host CPU, driven as a
// GPU backend drives its device. Copy it to start a backend for a new API; every
// "GPU:" comment names what goes in its place and why (README.md gives the order).
//
// Only the ABI's entry points live here: init and devices, memory kinds, buffers, and
// run() with its timer. The arithmetic is in template_kernels.cpp.
#include "template_kernels.hpp"

#include <vrambench/plugin_support.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>

using vrb::plugin::fail;
using vrb::plugin::guard;

// The opaque handles of plugin.h are ours to define. Each is created by a
// std::unique_ptr and released across the ABI; the matching close/free call takes
// ownership back, so no path leaks and nothing is deleted by hand.
struct vrb_context {
    const vrb_host_table *host = nullptr;
    uint32_t device_count = 0;
    uint64_t physical_memory_bytes = 0; // 0 when the OS does not say
    // GPU: the loaded runtime (a dlopen()ed libcuda, a VkInstance) and what was
    // enumerated once at init, so device_describe never goes back to the driver.
};

struct vrb_device {
    vrb_context *ctx = nullptr;
    uint32_t index = 0;
    // GPU: the API's device and the queue/stream every operation is submitted to,
    // plus the timer events (cudaEvent, a VkQueryPool) reused by every run.
};

struct FreeMemory {
    void operator()(void *memory) const noexcept { std::free(memory); }
};

struct vrb_buffer {
    uint32_t kind = 0;
    uint64_t bytes = 0;
    // GPU: the API's allocation (a device pointer, a VkBuffer and its VkDeviceMemory)
    // released by its own deleter, and for host kinds the mapped or pinned pointer.
    std::unique_ptr<void, FreeMemory> memory;

    std::byte *at(uint64_t offset) const { return static_cast<std::byte *>(memory.get()) + offset; }
};

namespace vrb::tpl {
namespace {

using Clock = std::chrono::steady_clock;

// ------------------------------------------------------------ memory kinds

// One entry per kind of memory the API offers, in a fixed order: the index is the
// kind's number for the whole session.
struct Kind {
    const char *name;
    uint32_t flags;
};

// "device" is what kernels run on; on a discrete GPU it is VRAM and drops
// HOST_MEMORY (here it honestly is system RAM). "pageable" is ordinary host memory
// that only TRANSFER and upload/download touch: a GPU reads it through its copy
// engine, so it lacks DEVICE_ACCESS. A GPU backend adds "pinned" (cudaHostAlloc,
// HOST_VISIBLE memory types) when the API offers it.
constexpr Kind kinds[] = {
    {"device", VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY},
    {"pageable", VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_HOST_CACHED | VRB_MEMORY_PAGEABLE |
                     VRB_MEMORY_HOST_MEMORY},
};
constexpr uint32_t kind_count = sizeof kinds / sizeof kinds[0];

// The host sizes the struct it hands us; a newer module copies only what fits, so an
// older core with a shorter struct is never written past.
template <typename Info> void copy_fitting(Info *out, const Info &filled)
{
    const uint32_t size = out->struct_size < sizeof filled ? out->struct_size : sizeof filled;
    std::memcpy(out, &filled, size);
    out->struct_size = size;
}

bool cancelled(const vrb_context *ctx)
{
    const vrb_host_table *host = ctx->host;
    return host && host->struct_size >= offsetof(vrb_host_table, is_cancelled) + sizeof host->is_cancelled &&
           host->is_cancelled && host->is_cancelled(host->user);
}

// GPU: cuDeviceGetCount, vkEnumeratePhysicalDevices filtered to devices with a compute
// queue, clGetDeviceIDs. The template's one device is the CPU this process runs on.
uint32_t enumerate_devices()
{
    return 1;
}

uint64_t physical_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// ------------------------------------------------------------ operations

// The operands as a kernel receives them. GPU: device addresses (pointer + offset) or
// descriptor bindings with the offset as a push constant.
KernelArgs kernel_args(const vrb_operation &op)
{
    // Only operands the operation uses are resolved: a caller may leave others set.
    auto lanes = [&](const vrb_operand &operand, bool used) -> uint32_t * {
        if (!used || !operand.buffer || operand.offset > operand.buffer->bytes) return nullptr;
        if (!(kinds[operand.buffer->kind].flags & VRB_MEMORY_DEVICE_ACCESS))
            fail(VRB_ERROR_UNSUPPORTED, std::string("kernels cannot use memory kind ") +
                                            kinds[operand.buffer->kind].name + "; only TRANSFER can");
        return reinterpret_cast<uint32_t *>(operand.buffer->at(operand.offset));
    };
    const plugin::OperandSpans spans = plugin::operand_spans(op);
    const bool indexed = op.kind == VRB_OP_GATHER || op.kind == VRB_OP_CHASE;
    KernelArgs args;
    args.dst = lanes(op.dst, spans.dst > 0);
    args.src1 = lanes(op.src1, spans.src1 > 0 || indexed);
    args.src2 = lanes(op.src2, spans.src2 > 0);
    if (indexed) {
        // How far these read src1 depends on indices only the kernel sees, so the kernel
        // bounds each one by src1_lanes; check_operation() has made sure the offset leaves
        // at least one element.
        args.src1_lanes = (op.src1.buffer->bytes - op.src1.offset) / 4;
    }
    return args;
}

// TRANSFER is not a kernel: GPU APIs move bytes between memory kinds with a copy
// engine (cudaMemcpyAsync, vkCmdCopyBuffer on a transfer queue). With both pairs set,
// the two copies go to two engines or streams so they overlap, between one pair of
// timer events.
void copy_engine(const vrb_operation &op)
{
    if (op.count == 0) return;
    std::memcpy(op.dst.buffer->at(op.dst.offset), op.src1.buffer->at(op.src1.offset), op.count);
    if (op.src2.buffer && op.dst2.buffer)
        std::memcpy(op.dst2.buffer->at(op.dst2.offset), op.src2.buffer->at(op.src2.offset), op.count);
}

// ------------------------------------------------------------ ABI entry points

const char *last_error()
{
    return plugin::last_error();
}

vrb_status init(const vrb_host_table *host, vrb_context **out)
{
    return guard([&] {
        auto ctx = std::make_unique<vrb_context>();
        ctx->host = host;
        // GPU: load the runtime here (dlopen the driver library rather than link it, so
        // the module loads on machines without it), initialise it and enumerate the
        // devices. A missing library, a driver too old, or zero devices is
        // VRB_ERROR_UNAVAILABLE with the reason, never a crash or a print: the core
        // lists the backend as unavailable and goes on.
        ctx->device_count = enumerate_devices();
        if (ctx->device_count == 0) fail(VRB_ERROR_UNAVAILABLE, "template: no device found");
        ctx->physical_memory_bytes = physical_memory_bytes();
        *out = ctx.release();
    });
}

void shutdown(vrb_context *ctx)
{
    std::unique_ptr<vrb_context> owned(ctx); // GPU: destroy the context, unload the runtime
}

vrb_status device_count(vrb_context *ctx, uint32_t *out)
{
    *out = ctx->device_count;
    return VRB_OK;
}

vrb_status device_describe(vrb_context *ctx, uint32_t index, vrb_device_info *out)
{
    return guard([&] {
        if (index >= ctx->device_count) fail(VRB_ERROR_INVALID_ARGUMENT, "no device template:" + std::to_string(index));
        // GPU: fill this from the API's own queries (cudaGetDeviceProperties,
        // vkGetPhysicalDeviceProperties2 with its PCI-bus and ID chains). Set a
        // VRB_KNOWN_* bit only for what the API really reported: the core writes every
        // other field as null with a reason. The PCI address is how the core sees that
        // two APIs show the same card, so report it whenever the API gives it.
        vrb_device_info info{};
        info.struct_size = sizeof info;
        info.type = VRB_DEVICE_CPU;
        plugin::copy_string(info.name, "template device (the host CPU, one thread)");
        plugin::copy_string(info.vendor, "vrambench");
        plugin::copy_string(info.api, "template");
        info.compute_units = 1;
        info.known = VRB_KNOWN_COMPUTE_UNITS;
        if (ctx->physical_memory_bytes) {
            info.total_memory_bytes = ctx->physical_memory_bytes;
            info.known |= VRB_KNOWN_TOTAL_MEMORY;
        }
        plugin::add_property(info, "kernels", "single-threaded loops");
        copy_fitting(out, info);
    });
}

vrb_status device_open(vrb_context *ctx, uint32_t index, vrb_device **out)
{
    return guard([&] {
        if (index >= ctx->device_count) fail(VRB_ERROR_INVALID_ARGUMENT, "no device template:" + std::to_string(index));
        // GPU: create the device, its queue or stream, and the timer events here, once,
        // so run() measures operations rather than setup.
        auto device = std::make_unique<vrb_device>();
        device->ctx = ctx;
        device->index = index;
        *out = device.release();
    });
}

void device_close(vrb_device *device)
{
    std::unique_ptr<vrb_device> owned(device);
}

vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
    *out = kind_count;
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t kind, vrb_memory_kind_info *out)
{
    return guard([&] {
        if (kind >= kind_count) fail(VRB_ERROR_INVALID_ARGUMENT, "no memory kind " + std::to_string(kind));
        vrb_memory_kind_info info{};
        info.struct_size = sizeof info;
        info.flags = kinds[kind].flags;
        plugin::copy_string(info.name, kinds[kind].name);
        info.heap_index = UINT32_MAX; // GPU: the heap this kind allocates from
        copy_fitting(out, info);
    });
}

vrb_status buffer_alloc(vrb_device *device, uint32_t kind, uint64_t bytes, vrb_buffer **out)
{
    return guard([&] {
        if (kind >= kind_count) fail(VRB_ERROR_INVALID_ARGUMENT, "no memory kind " + std::to_string(kind));
        if (bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer needs at least one byte");
        // Linux overcommits: malloc would succeed and the OOM killer would end the run
        // later. A GPU API refuses at once (cudaErrorMemoryAllocation,
        // VK_ERROR_OUT_OF_DEVICE_MEMORY); whatever the API, report OUT_OF_MEMORY and
        // leak nothing, since the capacity probes allocate until this happens.
        const uint64_t limit = device->ctx->physical_memory_bytes;
        if ((limit && bytes > limit) || static_cast<size_t>(bytes) != bytes)
            fail(VRB_ERROR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes");
        auto buffer = std::make_unique<vrb_buffer>();
        buffer->kind = kind;
        buffer->bytes = bytes;
        // GPU: cudaMalloc / vkAllocateMemory for "device", cudaHostAlloc or a
        // HOST_VISIBLE memory type for host kinds.
        buffer->memory.reset(std::malloc(static_cast<size_t>(bytes)));
        if (!buffer->memory) fail(VRB_ERROR_OUT_OF_MEMORY, "malloc of " + std::to_string(bytes) + " bytes failed");
        *out = buffer.release();
    });
}

void buffer_free(vrb_buffer *buffer)
{
    std::unique_ptr<vrb_buffer> owned(buffer);
}

// Upload and download are how the core seeds inputs and reads answers back to verify
// them; they are never timed. GPU: cudaMemcpy, or a copy through a staging buffer
// when the memory is not host-visible.
vrb_status buffer_upload(vrb_buffer *buffer, uint64_t offset, const void *src, uint64_t bytes)
{
    return guard([&] {
        if (offset > buffer->bytes || bytes > buffer->bytes - offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, "upload past the end of the buffer");
        if (bytes) std::memcpy(buffer->at(offset), src, bytes);
    });
}

vrb_status buffer_download(vrb_buffer *buffer, uint64_t offset, void *dst, uint64_t bytes)
{
    return guard([&] {
        if (offset > buffer->bytes || bytes > buffer->bytes - offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, "download past the end of the buffer");
        if (bytes) std::memcpy(dst, buffer->at(offset), bytes);
    });
}

vrb_status run(vrb_device *device, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    return guard([&] {
        if (!op || !seconds || !out) fail(VRB_ERROR_INVALID_ARGUMENT, "run needs an operation, seconds and output");
        if (repetitions == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "repetitions must be at least 1");
        // Before any memory is touched: counts past a buffer's end, bad widths, stride 0.
        plugin::check_operation(*op, [](vrb_buffer *b) { return b->bytes; });
        const bool transfer = op->kind == VRB_OP_TRANSFER;
        const KernelArgs args = transfer ? KernelArgs{} : kernel_args(*op);
        // Small working sets are timed over many passes, not over one launch's overhead.
        const uint32_t passes = plugin::operation_passes(*op);
        KernelAnswer answer;
        for (uint32_t r = 0; r < repetitions; ++r) {
            if (cancelled(device->ctx)) fail(VRB_ERROR_CANCELLED, "cancelled by the host");
            // GPU: record a start event / write a timestamp on the queue, enqueue all
            // the passes as one launch whose threads loop over them (a launch per pass
            // costs microseconds, a pass over an L1-sized working set nanoseconds: the
            // figure would be the launch rate), record the stop event, wait, and read
            // the elapsed device time. A reduction keeps its total running over the
            // passes and answers with the last pass's share, so the compiler can neither
            // drop nor hoist a pass. The device's own
            // clock leaves out launch latency and host scheduling noise; that is why
            // the host's clock is only for backends without one.
            const auto start = Clock::now();
            for (uint32_t p = 0; p < passes; ++p) {
                if (transfer)
                    copy_engine(*op);
                else
                    answer = launch_kernel(*op, args);
                // Keeps the optimiser from proving a repeated pass redundant.
                std::atomic_signal_fence(std::memory_order_seq_cst);
            }
            const auto stop = Clock::now();
            seconds[r] = std::chrono::duration<double>(stop - start).count();
            // A zero, negative or wrapped duration is an error, never a number: the core
            // would turn it into an infinite bandwidth. GPU: check the event's status and
            // mask a timestamp to the queue's valid bits before subtracting.
            if (!(seconds[r] > 0)) fail(VRB_ERROR_TIMER, "the clock did not advance over a run");
        }
        // GPU: download the answer buffer the kernel wrote, outside the timed region.
        out->timer = VRB_TIMER_HOST_MONOTONIC; // GPU: VRB_TIMER_DEVICE_EVENTS or _TIMESTAMPS
        out->checksum = answer.checksum;
        out->mismatches = answer.mismatches;
        out->first_mismatch = answer.first_mismatch;
        if (VRB_FITS(*out, passes)) out->passes = passes;
    });
}

// The name is the backend's for good: devices are "template:0", files vrambench-template.so.
const vrb_plugin_table table = {
    sizeof(vrb_plugin_table),
    VRB_ABI_VERSION,
    "template",
    "the backend skeleton: the host CPU through single-threaded loops",
    "1.0",
    last_error,
    init,
    shutdown,
    device_count,
    device_describe,
    device_open,
    device_close,
    memory_kind_count,
    memory_kind_describe,
    buffer_alloc,
    buffer_free,
    buffer_upload,
    buffer_download,
    run,
    nullptr, // buffer_export: GPU: cudaIpc / VK_KHR_external_memory_fd, when offered
    nullptr, // buffer_import
    nullptr, // buffer_alloc_exportable (ABI 1.2)
};

} // namespace
} // namespace vrb::tpl

VRB_DEFINE_PLUGIN_ENTRY(vrb::tpl::table)
