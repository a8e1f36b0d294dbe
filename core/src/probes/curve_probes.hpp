// The probes that measure curves and access patterns, registered in all_probes.cpp.
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <memory>

namespace vrb {

std::unique_ptr<Probe> make_sweep_probe();     // bandwidth.sweep
std::unique_ptr<Probe> make_chase_probe();     // latency.chase
std::unique_ptr<Probe> make_stride_probe();    // pattern.stride
std::unique_ptr<Probe> make_alignment_probe(); // pattern.alignment
std::unique_ptr<Probe> make_gather_probe();    // pattern.gather
std::unique_ptr<Probe> make_vector_probe();    // pattern.vector
std::unique_ptr<Probe> make_kinds_probe();     // memory.kinds
std::unique_ptr<Probe> make_transfer_probe();  // bandwidth.transfer

} // namespace vrb
