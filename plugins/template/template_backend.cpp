// The template backend: a complete module for one "device", the host CPU, driven as a
// GPU backend drives its device. Copy it to start a backend for a new API; every
// "GPU:" comment names what goes in its place and why (README.md gives the order).
//
// A module is three classes, Context, Device and Buffer, which make_table() at the end
// turns into the C table plugin.h asks for (plugin_table.hpp lists what each class
// provides). The adapter does the ABI's chores once, for every module: no exception
// crosses the boundary, the message of a failed call is kept per thread, NULL
// pointers, device indices, memory kinds, buffer ranges and operations are checked
// before these classes see them, and info structs are copied back only as far as the
// host's struct has room. So the code below is only what is particular to the API:
// fail() with a status and a message wherever something goes wrong. The arithmetic of
// the operations is in template_kernels.cpp.
#include "template_kernels.hpp"

#include <vrambench/plugin_table.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>

namespace vrb::tpl {
namespace {

using plugin::fail;
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

struct FreeMemory {
    void operator()(void *memory) const noexcept { std::free(memory); }
};

// ------------------------------------------------------------ Buffer

// Memory of one kind. The adapter has checked every upload and download against size().
class TemplateBuffer {
  public:
    TemplateBuffer(uint32_t kind, uint64_t bytes, std::unique_ptr<void, FreeMemory> memory)
        : kind_(kind), bytes_(bytes), memory_(std::move(memory))
    {
    }

    uint64_t size() const { return bytes_; }
    uint32_t kind() const { return kind_; }
    std::byte *at(uint64_t offset) const { return static_cast<std::byte *>(memory_.get()) + offset; }

    // Upload and download are how the core seeds inputs and reads answers back to verify
    // them; they are never timed. GPU: cudaMemcpy, or a copy through a staging buffer
    // when the memory is not host-visible.
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, at(offset), bytes); }

  private:
    uint32_t kind_;
    uint64_t bytes_;
    // GPU: the API's allocation (a device pointer, a VkBuffer and its VkDeviceMemory)
    // released by its own deleter, and for host kinds the mapped or pinned pointer.
    std::unique_ptr<void, FreeMemory> memory_;
};

// An operand's buffer: the adapter hands the ABI's handles through as these.
TemplateBuffer &buffer_of(const vrb_operand &operand)
{
    return *reinterpret_cast<TemplateBuffer *>(operand.buffer);
}

// ------------------------------------------------------------ operations

// The operands as a kernel receives them. GPU: device addresses (pointer + offset) or
// descriptor bindings with the offset as a push constant.
KernelArgs kernel_args(const vrb_operation &op)
{
    // Only operands the operation uses are resolved: a caller may leave others set.
    // Kernels run only on memory they can address: a kind without DEVICE_ACCESS is for
    // TRANSFER and upload/download alone, and supports() says so.
    auto lanes = [&](const vrb_operand &operand, bool used) -> uint32_t * {
        if (!used || !operand.buffer) return nullptr;
        const TemplateBuffer &buffer = buffer_of(operand);
        if (!(kinds[buffer.kind()].flags & VRB_MEMORY_DEVICE_ACCESS))
            fail(VRB_ERROR_UNSUPPORTED,
                 std::string("kernels cannot use memory kind ") + kinds[buffer.kind()].name + "; only TRANSFER can");
        return reinterpret_cast<uint32_t *>(buffer.at(operand.offset));
    };
    const plugin::OperandSpans spans = plugin::operand_spans(op);
    const bool indexed = op.kind == VRB_OP_GATHER || op.kind == VRB_OP_CHASE;
    KernelArgs args;
    args.dst = lanes(op.dst, spans.dst > 0);
    args.src1 = lanes(op.src1, spans.src1 > 0 || indexed);
    args.src2 = lanes(op.src2, spans.src2 > 0);
    if (indexed) {
        // How far these read src1 depends on indices only the kernel sees, so the kernel
        // bounds each one by src1_lanes; the adapter has made sure the offset leaves at
        // least one element.
        args.src1_lanes = (buffer_of(op.src1).size() - op.src1.offset) / 4;
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
    std::memcpy(buffer_of(op.dst).at(op.dst.offset), buffer_of(op.src1).at(op.src1.offset), op.count);
    if (op.src2.buffer && op.dst2.buffer)
        std::memcpy(buffer_of(op.dst2).at(op.dst2.offset), buffer_of(op.src2).at(op.src2.offset), op.count);
}

// ------------------------------------------------------------ Context and Device

class TemplateContext;

class TemplateDevice {
  public:
    TemplateDevice(const TemplateContext &ctx, uint32_t index) : ctx_(ctx), index_(index) {}

    // GPU: the API's ordinal of this device, which every call for it names
    // (cudaSetDevice(index()), the VkPhysicalDevice the context listed at index()).
    uint32_t index() const { return index_; }

    uint32_t memory_kind_count() { return kind_count; }

    void describe(uint32_t kind, vrb_memory_kind_info &info)
    {
        info.flags = kinds[kind].flags;
        plugin::copy_string(info.name, kinds[kind].name);
        info.heap_index = UINT32_MAX; // GPU: the heap this kind allocates from
    }

    std::unique_ptr<TemplateBuffer> alloc(uint32_t kind, uint64_t bytes);

    // The capability query: the core asks it before it plans an operation, and skips
    // what is not offered with the reason instead of running it to learn
    // VRB_ERROR_UNSUPPORTED. GPU: say no to what the API cannot do, e.g. 16-byte
    // loads a shader language has no type for, or kernels on a memory kind the device
    // cannot map.
    bool supports(uint32_t op_kind, uint32_t, uint32_t kind)
    {
        return op_kind == VRB_OP_TRANSFER || (kinds[kind].flags & VRB_MEMORY_DEVICE_ACCESS);
    }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);

  private:
    const TemplateContext &ctx_;
    uint32_t index_;
    // GPU: the API's device and the queue/stream every operation is submitted to,
    // plus the timer events (cudaEvent, a VkQueryPool) reused by every run.
};

class TemplateContext {
  public:
    // GPU: load the runtime here (dlopen the driver library rather than link it, so the
    // module loads on machines without it), initialise it and enumerate the devices. A
    // missing library, a driver too old, or zero devices is VRB_ERROR_UNAVAILABLE with
    // the reason, never a crash or a print: the core lists the backend as unavailable
    // and goes on. The destructor (here implicit) destroys the context and unloads the
    // runtime.
    explicit TemplateContext(const vrb_host_table *host)
        : host_(host), device_count_(enumerate_devices()), physical_memory_bytes_(physical_memory_bytes())
    {
        if (device_count_ == 0) fail(VRB_ERROR_UNAVAILABLE, "template: no device found");
    }

    uint32_t device_count() { return device_count_; }

    void describe(uint32_t, vrb_device_info &info)
    {
        // GPU: fill this from the API's own queries (cudaGetDeviceProperties,
        // vkGetPhysicalDeviceProperties2 with its PCI-bus and ID chains). Set a
        // VRB_KNOWN_* bit only for what the API really reported: the core writes every
        // other field as null with a reason. The PCI address is how the core sees that
        // two APIs show the same card, so report it whenever the API gives it.
        info.type = VRB_DEVICE_CPU;
        plugin::copy_string(info.name, "template device (the host CPU, one thread)");
        plugin::copy_string(info.vendor, "vrambench");
        plugin::copy_string(info.api, "template");
        info.compute_units = 1;
        info.known = VRB_KNOWN_COMPUTE_UNITS;
        if (physical_memory_bytes_) {
            info.total_memory_bytes = physical_memory_bytes_;
            info.known |= VRB_KNOWN_TOTAL_MEMORY;
        }
        plugin::add_property(info, "kernels", "single-threaded loops");
    }

    // GPU: create the device, its queue or stream, and the timer events here, once, so
    // run() measures operations rather than setup.
    std::unique_ptr<TemplateDevice> open(uint32_t index) { return std::make_unique<TemplateDevice>(*this, index); }

    uint64_t physical_memory() const { return physical_memory_bytes_; }

    bool cancelled() const
    {
        return host_ && VRB_FITS(*host_, is_cancelled) && host_->is_cancelled && host_->is_cancelled(host_->user);
    }

  private:
    const vrb_host_table *host_;
    uint32_t device_count_;
    uint64_t physical_memory_bytes_; // 0 when the OS does not say
};

std::unique_ptr<TemplateBuffer> TemplateDevice::alloc(uint32_t kind, uint64_t bytes)
{
    // Linux overcommits: malloc would succeed and the OOM killer would end the run
    // later. A GPU API refuses at once (cudaErrorMemoryAllocation,
    // VK_ERROR_OUT_OF_DEVICE_MEMORY); whatever the API, report OUT_OF_MEMORY and leak
    // nothing, since the capacity probes allocate until this happens.
    const uint64_t limit = ctx_.physical_memory();
    if ((limit && bytes > limit) || static_cast<size_t>(bytes) != bytes)
        fail(VRB_ERROR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes");
    // GPU: cudaMalloc / vkAllocateMemory for "device", cudaHostAlloc or a HOST_VISIBLE
    // memory type for host kinds.
    std::unique_ptr<void, FreeMemory> memory(std::malloc(static_cast<size_t>(bytes)));
    if (!memory) fail(VRB_ERROR_OUT_OF_MEMORY, "malloc of " + std::to_string(bytes) + " bytes failed");
    return std::make_unique<TemplateBuffer>(kind, bytes, std::move(memory));
}

// The adapter has checked the operation against its buffers (counts past a buffer's
// end, bad widths, stride 0) and zeroed `seconds`, one per repetition.
void TemplateDevice::run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    const bool transfer = op.kind == VRB_OP_TRANSFER;
    const KernelArgs args = transfer ? KernelArgs{} : kernel_args(op);
    // Small working sets are timed over many passes, not over one launch's overhead.
    const uint32_t passes = plugin::operation_passes(op);
    KernelAnswer answer;
    for (double &s : seconds) {
        if (ctx_.cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled by the host");
        // GPU: record a start event / write a timestamp on the queue, enqueue all the
        // passes as one launch whose threads loop over them (a launch per pass costs
        // microseconds, a pass over an L1-sized working set nanoseconds: the figure
        // would be the launch rate), record the stop event, wait, and read the elapsed
        // device time. A reduction keeps its total running over the passes and answers
        // with the last pass's share, so the compiler can neither drop nor hoist a
        // pass. The device's own clock leaves out launch latency and host scheduling
        // noise; that is why the host's clock is only for backends without one.
        const auto start = Clock::now();
        for (uint32_t p = 0; p < passes; ++p) {
            if (transfer)
                copy_engine(op);
            else
                answer = launch_kernel(op, args);
            // Keeps the optimiser from proving a repeated pass redundant.
            std::atomic_signal_fence(std::memory_order_seq_cst);
        }
        // A zero, negative or wrapped duration is refused by the adapter as
        // VRB_ERROR_TIMER, never passed on as a number. GPU: check the event's status
        // and mask a timestamp to the queue's valid bits before subtracting.
        s = std::chrono::duration<double>(Clock::now() - start).count();
    }
    // GPU: download the answer buffer the kernel wrote, outside the timed region.
    out.timer = VRB_TIMER_HOST_MONOTONIC; // GPU: VRB_TIMER_DEVICE_EVENTS or _TIMESTAMPS
    out.checksum = answer.checksum;
    out.mismatches = answer.mismatches;
    out.first_mismatch = answer.first_mismatch;
    out.passes = passes;
}

// The name is the backend's for good: devices are "template:0", files
// vrambench-template.so. GPU: a Buffer with export_handle() and a Device with
// import_buffer() / alloc_exportable() fill the external-memory slots (cudaIpc,
// VK_KHR_external_memory_fd); without them the slots stay NULL.
const vrb_plugin_table table = plugin::make_table<TemplateContext, TemplateDevice, TemplateBuffer>(
    {"template", "the backend skeleton: the host CPU through single-threaded loops", "1.0"});

} // namespace
} // namespace vrb::tpl

VRB_DEFINE_PLUGIN_ENTRY(vrb::tpl::table)
