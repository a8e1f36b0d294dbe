// The host CPU and its memory as the OS describes them.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>

namespace vrb::host {

void describe_host(vrb_device_info &info, unsigned workers);

// MemAvailable from /proc/meminfo: what can be allocated without pushing others out.
uint64_t available_memory_bytes();

} // namespace vrb::host
