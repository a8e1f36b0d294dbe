// A device's description from the OpenCL queries, the PCI ids from sysfs, and for a
// device that runs on the host CPU (PoCL) that CPU's caches.
#pragma once

#include "platforms.hpp"

#include <vrambench/plugin.h>

namespace vrb::opencl {

void describe_device(const DeviceEntry &entry, vrb_device_info &info);

// CL_DEVICE_TYPE_CPU, or a GPU sharing the host's memory.
bool uses_host_memory(cl_device_id device);

} // namespace vrb::opencl
