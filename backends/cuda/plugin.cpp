// The C boundary: the backend's classes (backend.hpp) as plugin.h's table, and the
// negotiating entry point.
#include "backend.hpp"

#include <vrambench/plugin_table.hpp>

#ifndef VRB_MODULE_VERSION
#define VRB_MODULE_VERSION "0.0.0"
#endif

namespace {

const vrb_plugin_table table = vrb::plugin::make_table<vrb_context, vrb_device, vrb_buffer, vrb_semaphore>(
    {vrb::gpu::kBackendName, vrb::gpu::kDescription, VRB_MODULE_VERSION});

} // namespace

// The HIP build names this entry vrb_hip_runtime_entry (backends/hip/CMakeLists.txt).
VRB_DEFINE_PLUGIN_ENTRY(table)
