#include "platforms.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::opencl {

Enumeration enumerate_devices()
{
    cl_uint count = 0;
    const cl_int status = clGetPlatformIDs(0, nullptr, &count);
    if (status == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (status == CL_SUCCESS && count == 0))
        plugin::fail(VRB_ERROR_UNAVAILABLE, "OpenCL: the ICD loader found no platform (no driver is listed in "
                                            "/etc/OpenCL/vendors or in OCL_ICD_VENDORS)");
    if (status != CL_SUCCESS)
        plugin::fail(VRB_ERROR_UNAVAILABLE, "OpenCL: clGetPlatformIDs failed: " + error_name(status));
    std::vector<cl_platform_id> platforms(count);
    check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");

    Enumeration found;
    for (cl_platform_id platform : platforms) {
        std::string name;
        try {
            name = platform_string(platform, CL_PLATFORM_NAME);
        } catch (const plugin::Failure &failure) {
            found.empty_platforms.push_back(std::string("a platform whose name cannot be read: ") + failure.what());
            continue;
        }
        cl_uint devices = 0;
        const cl_int listed = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices);
        if (listed != CL_SUCCESS || devices == 0) {
            found.empty_platforms.push_back(name + ": no device (" +
                                            (listed == CL_SUCCESS ? std::string("none listed") : error_name(listed)) +
                                            ")");
            continue;
        }
        std::vector<cl_device_id> ids(devices);
        check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices, ids.data(), nullptr), "clGetDeviceIDs");
        for (cl_device_id id : ids)
            found.devices.push_back({platform, id, name});
    }
    if (found.devices.empty()) {
        std::string why = "OpenCL: no platform offers a device";
        for (const std::string &p : found.empty_platforms)
            why += "; " + p;
        plugin::fail(VRB_ERROR_UNAVAILABLE, why);
    }
    return found;
}

} // namespace vrb::opencl
