// A run: which backends, devices and probes; running them; the result set it makes.
#pragma once

#include <vrambench/core/probe.hpp>
#include <vrambench/core/registry.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace vrb {

struct RunRequest {
    std::vector<std::string> backends; // empty: every available backend
    std::vector<std::string> devices;  // "backend:index"; empty: every device
    std::vector<std::string> probes;   // patterns; empty: every probe
    ProbeOptions options;
    std::vector<std::string> command_line;
};

// What a run reports while it goes, for the console.
struct RunObserver {
    std::function<void(const DeviceRecord &)> device_started;
    std::function<void(const ProbeResult &)> result;
    std::function<void(std::string_view what, double fraction)> progress;
};

struct RunOutcome {
    nlohmann::json document; // the result set, schema v1
    ExitCode exit = ExitCode::ok;
};

// One device as the user names it: backend:index.
struct DeviceTarget {
    std::shared_ptr<Backend> backend;
    uint32_t index = 0;
};

// Resolves "host:0" against what was found. Throws UsageError for a malformed name,
// an unknown backend or an index out of range, and RunError for a backend that is
// unavailable or failed to load (with its reason).
DeviceTarget resolve_device(const std::vector<BackendEntry> &entries, std::string_view name);

// Checks the request against what was found (unknown backend, device, probe: UsageError;
// an asked-for backend that is unavailable: RunError), then runs it.
RunOutcome run_benchmarks(const RunRequest &request, const std::vector<BackendEntry> &entries,
                          const RunObserver &observer);

DeviceRecord describe_device(const Backend &backend, Device *open_device, uint32_t index);

nlohmann::json host_json();
nlohmann::json backends_json(const std::vector<BackendEntry> &entries);
std::string utc_now();

} // namespace vrb
