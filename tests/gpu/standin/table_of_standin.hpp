// The CUDA/HIP module's own table, built against the recording stand-in: what the host
// would get from the module's entry point.
#pragma once

#include <vrambench/plugin.h>

extern "C" vrb_status vrb_plugin_entry(vrb_negotiation *negotiation);

namespace vrb::test {

inline const vrb_plugin_table &standin_table()
{
    static const vrb_plugin_table *table = [] {
        vrb_negotiation n{};
        n.struct_size = sizeof n;
        n.host_version = VRB_ABI_VERSION;
        return vrb_plugin_entry(&n) == VRB_OK ? n.table : nullptr;
    }();
    return *table;
}

} // namespace vrb::test
