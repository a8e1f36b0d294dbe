// Starting the backend: whether the runtime and its driver are there, how many devices
// they offer, and the host's logging and cancellation.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

using vrb::plugin::fail;

bool vrb_context::cancelled() const
{
    return host.is_cancelled && host.is_cancelled(host.user) != 0;
}

void vrb_context::log(vrb_log_level level, const std::string &message) const
{
    if (host.log) host.log(host.user, level, message.c_str());
}

namespace vrb::gpu {
namespace {

// The runtimes' words for "no driver" can mislead (CUDA says the driver is too old when
// there is none at all); say what is actually missing where that can be seen.
std::string missing_driver_hint()
{
#if defined(VRB_GPU_HIP)
    if (access("/dev/kfd", F_OK) != 0)
        return "; there is no /dev/kfd, so the amdgpu kernel driver is not loaded or not visible here";
#else
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver) return "; the NVIDIA driver library libcuda.so.1 is not installed or not on the library path";
    dlclose(driver);
#endif
    return {};
}

} // namespace

std::unique_ptr<vrb_context> create_context(const vrb_host_table *host)
{
    auto context = std::make_unique<vrb_context>();
    if (host) {
        // An older host's table is shorter: take only the fields it has.
        const std::size_t size = std::min<std::size_t>(host->struct_size, sizeof(vrb_host_table));
        std::memcpy(&context->host, host, size);
        context->host.struct_size = static_cast<uint32_t>(size);
    }

    // The first runtime call loads the driver; without one, or without a device, the
    // runtime says so here and the backend is unavailable, not broken.
    int count = 0;
    const Error error = device_count(&count);
    if (error != kSuccess) {
        (void)take_last_error();
        fail(VRB_ERROR_UNAVAILABLE,
             std::string(kApiName) + " is unavailable: " + describe_error(error) + missing_driver_hint());
    }
    if (count <= 0) fail(VRB_ERROR_UNAVAILABLE, std::string(kApiName) + " is unavailable: the runtime found no device");
    context->device_count = count;
    return context;
}

void make_current(int ordinal)
{
    check(set_device(ordinal), "selecting the device");
}

} // namespace vrb::gpu
