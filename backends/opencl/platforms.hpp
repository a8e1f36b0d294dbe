// Every device of every OpenCL platform the ICD loader finds, numbered across
// platforms in the loader's order: opencl:0, opencl:1, ...
#pragma once

#include "cl.hpp"

#include <string>
#include <vector>

namespace vrb::opencl {

struct DeviceEntry {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string platform_name;
};

struct Enumeration {
    std::vector<DeviceEntry> devices;
    // Platforms that offered no device, each as "NAME: why", for the log and for the
    // message when no platform offers one.
    std::vector<std::string> empty_platforms;
};

// Throws Failure(VRB_ERROR_UNAVAILABLE) when the loader finds no platform at all.
Enumeration enumerate_devices();

} // namespace vrb::opencl
