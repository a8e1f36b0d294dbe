// The OpenCL API as the backend uses it: the headers at the version it targets, each
// error code as a Failure naming the call, every object released by RAII, and the
// clGet*Info queries as typed functions.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace vrb::opencl {

// "CL_OUT_OF_RESOURCES (-5)".
std::string error_name(cl_int code);

// Throws vrb::plugin::Failure when code is not CL_SUCCESS: VRB_ERROR_OUT_OF_MEMORY for
// the allocation failures (the capacity probes allocate until one happens),
// VRB_ERROR_DEVICE otherwise; the message names `what` and the code.
void check(cl_int code, const std::string &what);

template <typename T, cl_int (*Release)(T)> struct Releaser {
    void operator()(T object) const noexcept { Release(object); }
};

template <typename T, cl_int (*Release)(T)>
using Handle = std::unique_ptr<std::remove_pointer_t<T>, Releaser<T, Release>>;

using ContextHandle = Handle<cl_context, clReleaseContext>;
using QueueHandle = Handle<cl_command_queue, clReleaseCommandQueue>;
using ProgramHandle = Handle<cl_program, clReleaseProgram>;
using KernelHandle = Handle<cl_kernel, clReleaseKernel>;
using MemHandle = Handle<cl_mem, clReleaseMemObject>;
using EventHandle = Handle<cl_event, clReleaseEvent>;

// Device queries. The *_or forms answer std::nullopt where the device does not know
// the parameter (an extension's query on a device without it).
std::string device_string(cl_device_id device, cl_device_info param);
std::string platform_string(cl_platform_id platform, cl_platform_info param);
std::vector<unsigned char> device_bytes(cl_device_id device, cl_device_info param);
std::optional<std::vector<unsigned char>> device_bytes_or(cl_device_id device, cl_device_info param);

template <typename T> T device_value(cl_device_id device, cl_device_info param)
{
    T value{};
    check(clGetDeviceInfo(device, param, sizeof value, &value, nullptr), "clGetDeviceInfo");
    return value;
}

template <typename T> std::optional<T> device_value_or(cl_device_id device, cl_device_info param)
{
    T value{};
    size_t size = 0;
    if (clGetDeviceInfo(device, param, sizeof value, &value, &size) != CL_SUCCESS || size != sizeof value)
        return std::nullopt;
    return value;
}

// Whether the space-separated CL_DEVICE_EXTENSIONS names `extension`.
bool has_extension(cl_device_id device, const std::string &extension);

} // namespace vrb::opencl
