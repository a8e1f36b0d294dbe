#include "device.hpp"

#include "device_info.hpp"
#include "geometry.hpp"
#include "segments.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <bit>

namespace vrb::opencl {

namespace {

QueueHandle make_queue(cl_context context, cl_device_id device)
{
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int status = CL_SUCCESS;
    QueueHandle queue(clCreateCommandQueueWithProperties(context, device, properties, &status));
    if (status == CL_SUCCESS) return queue;
        // An OpenCL 1.x platform has only the older entry point.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    queue.reset(clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status));
#pragma GCC diagnostic pop
    check(status, "clCreateCommandQueue with profiling");
    return queue;
}

} // namespace

Device::Device(const DeviceEntry &entry, const std::string &id, const vrb_host_table *host)
    : host_(host), id_(id), device_(entry.device), options_(read_options())
{
    // A CPU driver gets the kernels and geometry tuned for CPUs, unless asked otherwise:
    // the GPU kernels then run on it, their answers checked as on any device.
    const bool cpu_device = (device_value<cl_device_type>(device_, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
    cpu_ = options_.kernels == Kernels::ByDeviceType ? cpu_device : options_.kernels == Kernels::Cpu;
    global_memory_bytes_ = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE);
    segment_bytes_ =
        choose_segment_bytes(device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE), options_.segment_bytes);
    const cl_uint units = std::max<cl_uint>(device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS), 1);
    const size_t most = std::max<size_t>(device_value<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE), 1);
    // A CPU driver runs a work-group as a loop on one core: one work-item per group,
    // walking a contiguous block, is a plain vectorisable loop there. A GPU wants wide
    // groups, enough of them for a single pass to fill every compute unit several times
    // over (launch_groups keeps several passes to one wave).
    local_size_ = options_.local_size ? options_.local_size
                                      : static_cast<uint32_t>(cpu_ ? 1 : std::bit_floor(std::min<size_t>(most, 256)));
    if (local_size_ > most)
        plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_OPENCL_LOCAL_SIZE=" + std::to_string(local_size_) +
                                                     " is more than the " + std::to_string(most) +
                                                     " work-items per group " + id_ + " runs");
    // A CPU driver hands work-groups to its threads as they come free: many small
    // blocks keep every core busy to the end even when another process takes one away.
    max_groups_ = options_.max_groups ? options_.max_groups : uint64_t(units) * (cpu_ ? 256 : 32);
    compute_units_ = units;
    cache_bytes_ = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    const auto svm = device_value_or<cl_device_svm_capabilities>(device_, CL_DEVICE_SVM_CAPABILITIES).value_or(0);
    kinds_ = memory_kinds(uses_host_memory(device_), svm);

    cl_int status = CL_SUCCESS;
    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                reinterpret_cast<cl_context_properties>(entry.platform), 0};
    context_.reset(clCreateContext(properties, 1, &device_, nullptr, nullptr, &status));
    check(status, "clCreateContext");
    queue_ = make_queue(context_.get(), device_);
    second_queue_ = make_queue(context_.get(), device_);
    name_ = id_ + " (" + device_string(device_, CL_DEVICE_NAME) + ")";
    program_ = std::make_unique<Program>(context_.get(), device_, name_, local_size_, cpu_);
    if (!program_->registers().empty()) {
        std::string said = id_ + ": registers a work-item, from the driver's build log:";
        for (const auto &[kernel, registers] : program_->registers())
            said += " " + kernel + " " + std::to_string(registers) + " (" +
                    std::to_string(gpu_groups_per_unit(registers, local_size_)) + " groups a unit)";
        log(host_, VRB_LOG_DEBUG, said);
    }
}

void Device::describe(uint32_t kind, vrb_memory_kind_info &info) const
{
    const MemoryKind &k = kinds_.at(kind);
    info.flags = k.flags;
    plugin::copy_string(info.name, k.name);
    // The device's memory is heap 0; host kinds allocate from the host's RAM, which no
    // heap of the description stands for unless the device's memory is the host's.
    const bool on_device = k.allocation == Allocation::Buffer || !(k.flags & VRB_MEMORY_HOST_MEMORY) ||
                           (kinds_[0].flags & VRB_MEMORY_HOST_MEMORY);
    info.heap_index = on_device ? 0 : UINT32_MAX;
    // Splitting lifts CL_DEVICE_MAX_MEM_ALLOC_SIZE (the device description lists it as
    // max_mem_alloc_size); what bounds one buffer is the device's memory.
    info.max_allocation_bytes = global_memory_bytes_;
}

std::unique_ptr<Buffer> Device::alloc(uint32_t kind, uint64_t bytes)
{
    return std::make_unique<Buffer>(*this, kind, bytes);
}

bool Device::supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind) const
{
    if (memory_kind >= kinds_.size()) return false;
    if (op_kind == VRB_OP_TRANSFER) return element_bytes == 1;
    if (op_kind < VRB_OP_READ || op_kind > VRB_OP_CHECK) return false;
    if (element_bytes != 4 && element_bytes != 8 && element_bytes != 16) return false;
    return (kinds_[memory_kind].flags & VRB_MEMORY_DEVICE_ACCESS) != 0;
}

void Device::check_cancelled() const
{
    if (host_ && host_->struct_size >= offsetof(vrb_host_table, is_cancelled) + sizeof host_->is_cancelled &&
        host_->is_cancelled && host_->is_cancelled(host_->user))
        plugin::fail(VRB_ERROR_CANCELLED, "cancelled by the host");
}

Geometry Device::geometry(const std::string &kernel) const
{
    Geometry g{cpu_, local_size_, max_groups_, compute_units_, options_.max_groups != 0};
    g.groups_per_unit = gpu_groups_per_unit(program_->registers(kernel), local_size_);
    g.local_size_chosen = options_.local_size != 0;
    return g;
}

SweepWalk Device::sweep_walk(const std::string &kernel, const Geometry &g, uint64_t items)
{
    SweepWalk walk = plan_sweep_walk(g, items, program_->most_work_items(kernel));
    // The wider build's kernel could need more of a unit than the device's width's (its
    // local scratch is wider); where it cannot run so wide, the groups keep that width.
    if (walk.per_unit() && program_of_width(walk.local_size).most_work_items(kernel) < walk.local_size)
        walk.local_size = local_size_;
    return walk;
}

Program &Device::program_of_width(uint32_t local_size)
{
    if (local_size == local_size_) return *program_;
    // The kernels' width is fixed when they are built: their local scratch arrays, the
    // group reductions' trees and the whole-set walk's step are LOCAL_SIZE. A build of
    // its own leaves every other launch's kernels as they are, where building them all
    // at the per-unit width would give each shared-out group 8 KiB of local scratch,
    // which bounds the groups a unit keeps resident, and a width passed at launch would
    // take a local-memory argument on every stream kernel. Only a GPU's sweep below one
    // wave asks for it, so a CPU driver never builds it.
    std::unique_ptr<Program> &wider = wider_programs_[local_size];
    if (!wider) wider = std::make_unique<Program>(context_.get(), device_, name_, local_size, cpu_);
    return *wider;
}

void log(const vrb_host_table *host, int32_t level, const std::string &message)
{
    if (host && host->struct_size >= offsetof(vrb_host_table, log) + sizeof host->log && host->log)
        host->log(host->user, level, message.c_str());
}

cl_mem Device::results(uint64_t slots)
{
    if (slots > result_slots_) {
        cl_int status = CL_SUCCESS;
        const uint64_t grown = std::max<uint64_t>(slots, 1024);
        results_.reset(
            clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, grown * 2 * sizeof(cl_ulong), nullptr, &status));
        check(status, "clCreateBuffer (the results)");
        result_slots_ = grown;
    }
    return results_.get();
}

std::vector<cl_ulong> Device::read_results(uint64_t slots)
{
    std::vector<cl_ulong> words(slots * 2);
    if (slots)
        check(clEnqueueReadBuffer(queue_.get(), results_.get(), CL_TRUE, 0, words.size() * sizeof(cl_ulong),
                                  words.data(), 0, nullptr, nullptr),
              "clEnqueueReadBuffer (the results)");
    return words;
}

void Device::run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    for (const vrb_operand *operand : {&op.dst, &op.src1, &op.src2, &op.dst2}) {
        const auto *buffer = reinterpret_cast<const Buffer *>(operand->buffer);
        if (buffer && op.kind != VRB_OP_TRANSFER && !(buffer->kind().flags & VRB_MEMORY_DEVICE_ACCESS))
            plugin::fail(VRB_ERROR_UNSUPPORTED,
                         "kernels cannot use memory kind \"" + buffer->kind().name + "\"; only TRANSFER can");
    }
    out.passes = plugin::operation_passes(op);
    switch (op.kind) {
    case VRB_OP_TRANSFER: run_transfer(op, seconds, out); break;
    case VRB_OP_GATHER:
    case VRB_OP_CHASE: run_gather_or_chase(op, seconds, out); break;
    default: run_kernels(op, seconds, out); break;
    }
    out.timer = VRB_TIMER_PROFILING_EVENTS;
}

} // namespace vrb::opencl
