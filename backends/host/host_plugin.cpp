// The host module's table: the three classes of host_module.hpp, guarded by make_table().
// Host memory is imported by the GPU APIs, not the other way, and every host buffer is
// exportable by pointer: no import or exportable-allocation slot. NUMA node devices are
// each other's peers (HostDevice::peer), so the table has a peer_query slot.
#include "host_module.hpp"

#include <vrambench/plugin_table.hpp>

namespace {

const vrb_plugin_table table =
    vrb::plugin::make_table<vrb::host::HostContext, vrb::host::HostDevice, vrb::host::HostBuffer>(
        {"host", "the host CPU and its RAM, the reference for every GPU backend", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
