// How many NUMA nodes this machine has, as sysfs lists them (node0, node1, ...): what the
// NUMA tests compare the host backend's devices with, read without libnuma.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace vrb::test {

inline int machine_numa_nodes()
{
    int nodes = 0;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/sys/devices/system/node", error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 4 && name.rfind("node", 0) == 0 &&
            name.find_first_not_of("0123456789", 4) == std::string::npos)
            ++nodes;
    }
    return nodes;
}

} // namespace vrb::test
