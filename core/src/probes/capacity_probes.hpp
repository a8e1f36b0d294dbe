// The capacity and integrity probes: how much memory a program really gets, in one
// block and in total, how long getting it takes, what fragmentation does to it, and
// whether every byte of it holds what was written. docs/capacity.md defines each figure.
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <memory>

namespace vrb {

std::unique_ptr<Probe> make_capacity_report_probe();
std::unique_ptr<Probe> make_capacity_max_alloc_probe();
std::unique_ptr<Probe> make_capacity_total_probe();
std::unique_ptr<Probe> make_capacity_alloc_latency_probe();
std::unique_ptr<Probe> make_capacity_fragmentation_probe();
std::unique_ptr<Probe> make_integrity_pattern_probe();

} // namespace vrb
