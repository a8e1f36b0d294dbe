// The kernels: OpenCL C embedded at build time (kernels/*.cl, with pattern.h as it
// stands), built for one work-group width (LOCAL_SIZE), each kernel object created once.
#pragma once

#include "cl.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace vrb::opencl {

// The whole program text: pattern.h, common.cl, and width.cl for 1, 2 and 4 lanes.
std::string program_source();

class Program {
  public:
    // Throws Failure(VRB_ERROR_DEVICE) with the driver's build log when it refuses the source.
    Program(cl_context context, cl_device_id device, const std::string &device_name, uint32_t local_size, bool cpu);

    // The kernel of that name whose arguments in the mask `svm_arguments` (bit i for
    // argument i) are bound as SVM pointers and the rest as cl_mem; created on first use.
    // A kernel object keeps every argument bound one way: once an argument was set with
    // clSetKernelArgSVMPointer, NVIDIA's driver refuses launches (CL_INVALID_KERNEL_ARGS)
    // after it is set with clSetKernelArg, so each binding has an object of its own.
    cl_kernel kernel(const std::string &name, uint32_t svm_arguments = 0);

    // The most work-items a group of kernel `name` may have on the device
    // (CL_KERNEL_WORK_GROUP_SIZE: never more than the device's limit, fewer where the
    // kernel's registers or local memory say so).
    uint64_t most_work_items(const std::string &name);

    // Registers a work-item of kernel `name` takes, where the driver's build log says
    // (NVIDIA's, built with -cl-nv-verbose); 0 elsewhere.
    uint32_t registers(const std::string &name) const;
    const std::map<std::string, uint32_t> &registers() const { return registers_; }

  private:
    // most_work_items(name), asked of `kernel` (an object of it) only the first time.
    uint64_t most_work_items_of(const std::string &name, cl_kernel kernel);

    cl_device_id device_;
    uint32_t local_size_;
    ProgramHandle program_;
    std::map<std::string, uint32_t> registers_;
    std::map<std::pair<std::string, uint32_t>, KernelHandle> kernels_;
    std::map<std::string, uint64_t> most_work_items_;
};

} // namespace vrb::opencl
