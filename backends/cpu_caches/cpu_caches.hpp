// The caches of the CPU this runs on, written into a device description: for the host
// backend, and for a Vulkan or OpenCL device that is a software driver running on this
// CPU (lavapipe, PoCL), whose own API reports no cache at all although every load it
// makes goes through these.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <string>

namespace vrb::cpu {

// Appends the CPU's caches to info.caches (sysfs first, exact and with sharing; where a
// VM hides it, CPUID's deterministic cache parameters; glibc's package totals last) and
// a "cache_source" property naming where they came from, after `prefix` (the property's
// value holds 79 characters), and the data TLBs CPUID reports as VRB_PROPERTY_DATA_TLB.
void describe_cpu_caches(vrb_device_info &info, const std::string &prefix = {});

// The first line of a file such as a sysfs attribute; empty when it cannot be read.
std::string read_first_line(const std::string &path);
// "48K", "1024K", "32M" as sysfs writes cache sizes; 0 for an empty text.
uint64_t parse_cache_size(const std::string &text);
// The number of CPUs in a sysfs list such as "0-3,8-11".
unsigned count_cpu_list(const std::string &list);

} // namespace vrb::cpu
