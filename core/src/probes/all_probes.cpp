#include "capacity_probes.hpp"
#include "curve_probes.hpp"
#include "interop_probes.hpp"
#include "peer_probes.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/probes/probe.hpp>

namespace vrb {

std::string_view to_string(Suite suite)
{
    switch (suite) {
    case Suite::quick: return "quick";
    case Suite::standard: return "standard";
    case Suite::full: return "full";
    }
    return "standard";
}

const std::vector<std::unique_ptr<Probe>> &all_probes()
{
    static const std::vector<std::unique_ptr<Probe>> probes = [] {
        std::vector<std::unique_ptr<Probe>> list;
        list.push_back(make_stream_probe());
        list.push_back(make_sweep_probe());
        list.push_back(make_chase_probe());
        list.push_back(make_stride_probe());
        list.push_back(make_alignment_probe());
        list.push_back(make_gather_probe());
        list.push_back(make_vector_probe());
        list.push_back(make_kinds_probe());
        list.push_back(make_transfer_probe());
        list.push_back(make_peer_bandwidth_probe());
        list.push_back(make_peer_latency_probe());
        list.push_back(make_capacity_report_probe());
        list.push_back(make_capacity_max_alloc_probe());
        list.push_back(make_capacity_total_probe());
        list.push_back(make_capacity_alloc_latency_probe());
        list.push_back(make_capacity_fragmentation_probe());
        list.push_back(make_integrity_pattern_probe());
        list.push_back(make_interop_handoff_probe());
        list.push_back(make_interop_bandwidth_probe());
        list.push_back(make_interop_import_probe());
        list.push_back(make_interop_sync_probe());
        return list;
    }();
    return probes;
}

ProbePlan Probe::plan(const DeviceRecord &, const ProbeOptions &) const
{
    ProbePlan p;
    p.reason = "run time";
    p.size_rule = "sizes decided as it runs";
    p.estimated = false;
    return p;
}

bool probe_matches(std::string_view id, std::string_view pattern)
{
    // Iterative glob with '*' only: remembers the last star to backtrack to.
    std::size_t i = 0, p = 0, star = std::string_view::npos, mark = 0;
    while (i < id.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = i;
        } else if (p < pattern.size() && pattern[p] == id[i]) {
            ++p;
            ++i;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            i = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

} // namespace vrb
