// Starting the backend: whether the runtime and its driver are there, how many devices
// they offer, and the host's logging and cancellation.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <cstring>

using vrb::plugin::fail;

vrb_context::vrb_context(const vrb_host_table *table)
{
    if (table) {
        // An older host's table is shorter: take only the fields it has.
        const std::size_t size = std::min<std::size_t>(table->struct_size, sizeof(vrb_host_table));
        std::memcpy(&host, table, size);
        host.struct_size = static_cast<uint32_t>(size);
    }

    // The first runtime call loads the driver; without one, or without a device, the
    // runtime says so here and the backend is unavailable, not broken.
    int count = 0;
    const vrb::gpu::Error error = vrb::gpu::device_count(&count);
    if (error != vrb::gpu::kSuccess) {
        (void)vrb::gpu::take_last_error();
        fail(VRB_ERROR_UNAVAILABLE, std::string(vrb::gpu::kApiName) + " is unavailable: " +
                                        vrb::gpu::describe_error(error) + vrb::gpu::missing_driver_hint());
    }
    if (count <= 0)
        fail(VRB_ERROR_UNAVAILABLE, std::string(vrb::gpu::kApiName) + " is unavailable: the runtime found no device");
    devices = static_cast<uint32_t>(count);
}

void vrb_context::describe(uint32_t index, vrb_device_info &info)
{
    vrb::gpu::describe_device(static_cast<int>(index), info);
}

bool vrb_context::cancelled() const
{
    return host.is_cancelled && host.is_cancelled(host.user) != 0;
}

void vrb_context::log(vrb_log_level level, const std::string &message) const
{
    if (host.log) host.log(host.user, level, message.c_str());
}

namespace vrb::gpu {

void make_current(int ordinal)
{
    check(set_device(ordinal), "selecting the device");
}

} // namespace vrb::gpu
