// What the plan tests share: every probe, a probe's plan found by id, and the CPU
// devices of the recorded sets described as the host backend describes them.
#pragma once

#include "../unit/described_device.hpp"

#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vrb::test {

inline std::vector<const Probe *> every_probe()
{
    std::vector<const Probe *> out;
    for (const auto &p : all_probes())
        out.push_back(p.get());
    return out;
}

inline const ProbePlan &planned(const DevicePlan &plan, std::string_view probe)
{
    for (const ProbePlan &p : plan.probes)
        if (p.probe == probe) return p;
    throw std::runtime_error("no plan for " + std::string(probe));
}

// The 2-vCPU Intel Xeon VM of the recorded sets: L1d 48 KiB and L2 2 MiB a core, the
// socket's 480 MiB L3 reported as shared by the two vCPUs; no peak is known.
inline DeviceRecord intel_two_vcpu_vm()
{
    Description d;
    d.api = "host";
    d.type = VRB_DEVICE_CPU;
    d.compute_units = 2;
    d.memory_gib = 8;
    d.llc_bytes = 480ull << 20;
    d.llc_level = 3;
    DeviceRecord r = describe(d);
    r.info.caches[0].shared_by = 2;
    auto add = [&](uint32_t level, uint64_t bytes) {
        vrb_cache_info &c = r.info.caches[r.info.cache_count++];
        c.level = level;
        c.bytes = bytes;
        c.shared_by = 1;
        std::snprintf(c.kind, sizeof c.kind, level == 1 ? "data" : "unified");
    };
    add(1, 48 << 10);
    add(2, 2ull << 20);
    r.kinds[0].flags = VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PAGEABLE;
    return r;
}

} // namespace vrb::test
