// The figures of a memory level as every reader takes them from a stored result: a named
// plateau's value, and the memory latency. report (its "VRAM against RAM" table and
// under-load section too), index, fleet and health call these, so that no two of them can
// print different figures for one set; compare and export carry the plateaus by name.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace vrb::analysis {

// The plateau of a curve result (extra.curve.plateaus) named `name`, if it has one.
const nlohmann::json *level_plateau(const nlohmann::json &result, std::string_view name);

// The value of the plateau named `name` ("L2", "memory"); none where the curve has no
// such level.
std::optional<double> level_figure(const nlohmann::json &result, std::string_view name);

// A chase's memory latency and where it begins.
struct MemoryLatency {
    double ns = 0;
    double from_bytes = 0; // the memory plateau's first working set
};

// The memory latency of one latency.chase result: its plateau named memory, the level the
// chase holds out to its largest footprints, not the last point (that adds the page walks
// of working sets past the TLB's reach). None where the chase stayed inside the caches:
// a last plateau inside a cache is that cache's latency.
std::optional<MemoryLatency> memory_latency(const nlohmann::json &result);

// The same for a set's device: its first chase whose status is ok or suspect and that
// reached memory.
std::optional<MemoryLatency> memory_latency(const nlohmann::json &set, const std::string &device);

} // namespace vrb::analysis
