#include "cl.hpp"

#include <vrambench/plugin_support.hpp>

#include <sstream>

namespace vrb::opencl {

namespace {

const char *code_name(cl_int code)
{
    switch (code) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_QUEUE_PROPERTIES: return "CL_INVALID_QUEUE_PROPERTIES";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: break;
    }
    return "an unknown OpenCL error";
}

} // namespace

std::string error_name(cl_int code)
{
    return std::string(code_name(code)) + " (" + std::to_string(code) + ")";
}

void check(cl_int code, const std::string &what)
{
    if (code == CL_SUCCESS) return;
    const bool memory =
        code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY || code == CL_INVALID_BUFFER_SIZE;
    plugin::fail(memory ? VRB_ERROR_OUT_OF_MEMORY : VRB_ERROR_DEVICE, what + " failed: " + error_name(code));
}

std::string device_string(cl_device_id device, cl_device_info param)
{
    size_t size = 0;
    check(clGetDeviceInfo(device, param, 0, nullptr, &size), "clGetDeviceInfo");
    std::string text(size, '\0');
    if (size) check(clGetDeviceInfo(device, param, size, text.data(), nullptr), "clGetDeviceInfo");
    while (!text.empty() && (text.back() == '\0' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::string platform_string(cl_platform_id platform, cl_platform_info param)
{
    size_t size = 0;
    check(clGetPlatformInfo(platform, param, 0, nullptr, &size), "clGetPlatformInfo");
    std::string text(size, '\0');
    if (size) check(clGetPlatformInfo(platform, param, size, text.data(), nullptr), "clGetPlatformInfo");
    while (!text.empty() && (text.back() == '\0' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::optional<std::vector<unsigned char>> device_bytes_or(cl_device_id device, cl_device_info param)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS) return std::nullopt;
    std::vector<unsigned char> bytes(size);
    if (size && clGetDeviceInfo(device, param, size, bytes.data(), nullptr) != CL_SUCCESS) return std::nullopt;
    return bytes;
}

std::vector<unsigned char> device_bytes(cl_device_id device, cl_device_info param)
{
    auto bytes = device_bytes_or(device, param);
    if (!bytes) plugin::fail(VRB_ERROR_DEVICE, "clGetDeviceInfo failed for parameter " + std::to_string(param));
    return *bytes;
}

bool has_extension(cl_device_id device, const std::string &extension)
{
    std::istringstream words(device_string(device, CL_DEVICE_EXTENSIONS));
    for (std::string word; words >> word;)
        if (word == extension) return true;
    return false;
}

} // namespace vrb::opencl
