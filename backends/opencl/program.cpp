#include "program.hpp"

#include "ptxas_log.hpp"

#include "generated/opencl_common.hpp"
#include "generated/opencl_pattern.hpp"
#include "generated/opencl_width.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::opencl {

namespace {

template <std::size_t N> std::string joined(const char *const (&chunks)[N])
{
    std::string text;
    for (const char *chunk : chunks)
        text += chunk;
    return text;
}

std::string build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return "(the driver gave no build log)";
    std::string log(size, '\0');
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS)
        return "(the driver gave no build log)";
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' '))
        log.pop_back();
    return log.empty() ? "(the build log is empty)" : log;
}

uint64_t work_group_size(cl_kernel kernel, cl_device_id device)
{
    size_t most = 0;
    check(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, nullptr),
          "clGetKernelWorkGroupInfo");
    return most;
}

} // namespace

std::string program_source()
{
    // pattern.h is C99 on <stdint.h>'s names, which OpenCL C lacks.
    std::string source = "typedef uint uint32_t;\ntypedef ulong uint64_t;\n#define VRB_PATTERN_FN static inline\n";
    source += joined(opencl_pattern_text);
    source += joined(opencl_common_text);
    const std::string width = joined(opencl_width_text);
    for (const char *lanes : {"1", "2", "4"}) {
        const std::string element = lanes[0] == '1' ? "uint" : std::string("uint") + lanes;
        source += "\n#define WIDTH " + std::string(lanes) + "\n#define ELEM " + element +
                  "\n#define FN(name) name##_w" + lanes + "\n";
        source += width;
        source += "\n#undef WIDTH\n#undef ELEM\n#undef FN\n";
    }
    return source;
}

Program::Program(cl_context context, cl_device_id device, const std::string &device_name, uint32_t local_size, bool cpu)
    : device_(device), local_size_(local_size)
{
    const std::string source = program_source();
    const char *text = source.c_str();
    const size_t length = source.size();
    cl_int status = CL_SUCCESS;
    program_.reset(clCreateProgramWithSource(context, 1, &text, &length, &status));
    check(status, "clCreateProgramWithSource");
    // -w: some drivers (PoCL) print their compiler's warnings to stderr; errors still reach the log.
    std::string options = "-cl-std=CL1.2 -w -DLOCAL_SIZE=" + std::to_string(local_size);
    if (cpu) options += " -DCPU_TUNED";
    // NVIDIA's driver then logs each kernel's registers, which bound the groups a unit
    // keeps resident (geometry.hpp's gpu_groups_per_unit).
    if (has_extension(device, "cl_nv_compiler_options")) options += " -cl-nv-verbose";
    status = clBuildProgram(program_.get(), 1, &device, options.c_str(), nullptr, nullptr);
    if (status != CL_SUCCESS)
        plugin::fail(VRB_ERROR_DEVICE, "OpenCL: the driver of " + device_name + " refused the kernels (" +
                                           error_name(status) + "); its build log:\n" +
                                           build_log(program_.get(), device));
    registers_ = ptxas_registers(build_log(program_.get(), device));
}

uint32_t Program::registers(const std::string &name) const
{
    const auto found = registers_.find(name);
    return found == registers_.end() ? 0 : found->second;
}

cl_kernel Program::kernel(const std::string &name, uint32_t svm_arguments)
{
    auto found = kernels_.find({name, svm_arguments});
    if (found != kernels_.end()) return found->second.get();
    cl_int status = CL_SUCCESS;
    KernelHandle made(clCreateKernel(program_.get(), name.c_str(), &status));
    check(status, "clCreateKernel(" + name + ")");
    const uint64_t most = most_work_items_of(name, made.get());
    if (most < local_size_)
        plugin::fail(VRB_ERROR_DEVICE, "OpenCL: kernel " + name + " runs at most " + std::to_string(most) +
                                           " work-items per group, fewer than the " + std::to_string(local_size_) +
                                           " chosen (set VRAMBENCH_OPENCL_LOCAL_SIZE lower)");
    return kernels_.emplace(std::pair(name, svm_arguments), std::move(made)).first->second.get();
}

uint64_t Program::most_work_items(const std::string &name)
{
    if (const auto found = most_work_items_.find(name); found != most_work_items_.end()) return found->second;
    cl_int status = CL_SUCCESS;
    const KernelHandle asked(clCreateKernel(program_.get(), name.c_str(), &status));
    check(status, "clCreateKernel(" + name + ")");
    return most_work_items_of(name, asked.get());
}

uint64_t Program::most_work_items_of(const std::string &name, cl_kernel kernel)
{
    if (const auto found = most_work_items_.find(name); found != most_work_items_.end()) return found->second;
    return most_work_items_.emplace(name, work_group_size(kernel, device_)).first->second;
}

} // namespace vrb::opencl
