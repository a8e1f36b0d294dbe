// The interop probes: one allocation seen through two APIs (docs/interop.md).
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <memory>

namespace vrb {

std::unique_ptr<Probe> make_interop_handoff_probe();
std::unique_ptr<Probe> make_interop_bandwidth_probe();
std::unique_ptr<Probe> make_interop_import_probe();
std::unique_ptr<Probe> make_interop_sync_probe();

} // namespace vrb
