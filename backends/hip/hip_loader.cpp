// vrambench-hip: the HIP backend as the host sees it. The backend proper (backends/cuda's
// sources built as HIP) needs libamdhip64, which most machines lack; it lives beside
// this module and is loaded here, so that a machine without the HIP runtime gets a
// backend that says "unavailable" and why, instead of a module that cannot be loaded.
#include <vrambench/plugin_support.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <string>

#ifndef VRB_HIP_RUNTIME_MODULE
#define VRB_HIP_RUNTIME_MODULE "vrambench-hip.d/vrambench-hip-runtime.so"
#endif
#ifndef VRB_MODULE_VERSION
#define VRB_MODULE_VERSION "0.0.0"
#endif

namespace {

struct Runtime {
    vrb_plugin_entry_fn entry = nullptr;
    std::string reason; // why entry is null
};

// The backend proper sits at a fixed place relative to this module's own file.
std::string runtime_path()
{
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&runtime_path), &info) || !info.dli_fname) return VRB_HIP_RUNTIME_MODULE;
    std::string self = info.dli_fname;
    const auto slash = self.rfind('/');
    return (slash == std::string::npos ? std::string() : self.substr(0, slash + 1)) + VRB_HIP_RUNTIME_MODULE;
}

Runtime load_runtime()
{
    Runtime runtime;
    const std::string path = runtime_path();
    // Never unloaded: the HIP runtime keeps process-wide state that outlives a dlclose.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        const char *why = dlerror();
        runtime.reason = "HIP is unavailable: the HIP backend could not be loaded (" + std::string(why ? why : path) +
                         "); is the ROCm HIP runtime (libamdhip64) installed?";
        return runtime;
    }
    runtime.entry = reinterpret_cast<vrb_plugin_entry_fn>(dlsym(handle, "vrb_hip_runtime_entry"));
    if (!runtime.entry) runtime.reason = "HIP is unavailable: " + path + " has no entry point";
    return runtime;
}

const Runtime &runtime()
{
    static const Runtime loaded = load_runtime();
    return loaded;
}

// Without the runtime every call answers "unavailable" with the loader's reason.
template <typename... Args> vrb_status unavailable(Args...)
{
    return vrb::plugin::set_error(VRB_ERROR_UNAVAILABLE, runtime().reason);
}
vrb_status init_unavailable(const vrb_host_table *, vrb_context **out)
{
    if (out) *out = nullptr;
    return unavailable();
}
template <typename... Args> void ignore(Args...) {}
const char *last_error()
{
    return vrb::plugin::last_error();
}

const vrb_plugin_table unavailable_table = {
    sizeof(vrb_plugin_table), VRB_ABI_VERSION, "hip", "AMD GPUs through HIP (the HIP runtime is not available here)",
    VRB_MODULE_VERSION, last_error, init_unavailable, ignore<vrb_context *>, unavailable<vrb_context *, uint32_t *>,
    unavailable<vrb_context *, uint32_t, vrb_device_info *>, unavailable<vrb_context *, uint32_t, vrb_device **>,
    ignore<vrb_device *>, unavailable<vrb_device *, uint32_t *>,
    unavailable<vrb_device *, uint32_t, vrb_memory_kind_info *>,
    unavailable<vrb_device *, uint32_t, uint64_t, vrb_buffer **>, ignore<vrb_buffer *>,
    unavailable<vrb_buffer *, uint64_t, const void *, uint64_t>, unavailable<vrb_buffer *, uint64_t, void *, uint64_t>,
    unavailable<vrb_device *, const vrb_operation *, uint32_t, double *, vrb_op_output *>,
    // Every optional slot empty: without its runtime the module shares and offers nothing.
    nullptr, // buffer_export
    nullptr, // buffer_import
    nullptr, // buffer_alloc_exportable
    nullptr, // op_supported
    nullptr, // semaphore_create_exportable
    nullptr, // semaphore_export
    nullptr, // semaphore_import
    nullptr, // semaphore_free
    nullptr, // semaphore_signal
    nullptr, // semaphore_device_wait
    nullptr, // semaphore_host_wait
    nullptr, // peer_query
};

} // namespace

// The loader is the file vrambench reads: it carries the build note (plugin.h).
VRB_DEFINE_BUILD_NOTE();

extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)
{
    if (const vrb_plugin_entry_fn entry = runtime().entry) return entry(negotiation);
    // The same negotiation the backend proper does, answered with the stand-in table.
    if (!negotiation || negotiation->struct_size < sizeof(vrb_negotiation)) return VRB_ERROR_INVALID_ARGUMENT;
    negotiation->module_version = VRB_ABI_VERSION;
    if (VRB_VERSION_MAJOR(negotiation->host_version) != VRB_ABI_VERSION_MAJOR) {
        std::snprintf(negotiation->message, sizeof negotiation->message, "module speaks ABI %u.%u, host offers %u.%u",
                      VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR, VRB_VERSION_MAJOR(negotiation->host_version),
                      VRB_VERSION_MINOR(negotiation->host_version));
        return VRB_ERROR_VERSION;
    }
    negotiation->table = &unavailable_table;
    return VRB_OK;
}
