// One opened OpenCL device: its context, two in-order profiling queues (transfers both
// ways at once use both), the program built once (and once more at a sweep's per-unit
// width, when one asks for it), and the memory kinds it offers.
#pragma once

#include "buffer.hpp"
#include "cl.hpp"
#include "geometry.hpp"
#include "memory_kinds.hpp"
#include "options.hpp"
#include "platforms.hpp"
#include "program.hpp"

#include <vrambench/plugin.h>

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vrb::opencl {

// A message to the host's log, where the host offers one.
void log(const vrb_host_table *host, int32_t level, const std::string &message);

class Device {
  public:
    Device(const DeviceEntry &entry, const std::string &id, const vrb_host_table *host);

    uint32_t memory_kind_count() const { return static_cast<uint32_t>(kinds_.size()); }
    void describe(uint32_t kind, vrb_memory_kind_info &info) const;
    std::unique_ptr<Buffer> alloc(uint32_t kind, uint64_t bytes);
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    // Whether run() can do `op_kind` at `element_bytes` on buffers of `memory_kind`.
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind) const;

    const MemoryKind &kind(uint32_t index) const { return kinds_.at(index); }
    cl_context context() const { return context_.get(); }
    cl_command_queue queue(int which) const { return which == 0 ? queue_.get() : second_queue_.get(); }
    uint64_t segment_bytes() const { return segment_bytes_; }
    uint64_t global_memory_bytes() const { return global_memory_bytes_; }

  private:
    struct Launch;
    // Sets out.passes (times the groups, where each walked the whole set) and out.flags.
    void run_kernels(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    void run_gather_or_chase(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    void run_transfer(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    void check_cancelled() const;
    // A results buffer of at least `slots` two-word slots.
    cl_mem results(uint64_t slots);
    std::vector<cl_ulong> read_results(uint64_t slots);
    // The launch geometry of `kernel`: the device's shape, with the groups a unit keeps
    // resident of that kernel.
    Geometry geometry(const std::string &kernel) const;
    // How a sweep's stream operation of `kernel` walks `items` (geometry.hpp's
    // plan_sweep_walk), at a width the kernel runs once built for it.
    SweepWalk sweep_walk(const std::string &kernel, const Geometry &g, uint64_t items);
    // The program built for groups of `local_size` work-items: program_ at the device's
    // own width, otherwise one built the first time it is asked for.
    Program &program_of_width(uint32_t local_size);

    const vrb_host_table *host_;
    std::string id_;
    cl_device_id device_;
    Options options_;
    bool cpu_ = false; // the CPU-tuned kernels and geometry (options.hpp's Kernels)
    uint64_t global_memory_bytes_ = 0;
    uint64_t segment_bytes_ = 0;
    uint32_t local_size_ = 1;
    uint64_t max_groups_ = 1;
    uint64_t compute_units_ = 1;
    uint64_t cache_bytes_ = 0; // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
    std::vector<MemoryKind> kinds_;
    ContextHandle context_;
    QueueHandle queue_;
    QueueHandle second_queue_;
    std::string name_; // the device as a build failure names it
    std::unique_ptr<Program> program_;
    std::map<uint32_t, std::unique_ptr<Program>> wider_programs_;
    MemHandle results_;
    uint64_t result_slots_ = 0;
};

} // namespace vrb::opencl
