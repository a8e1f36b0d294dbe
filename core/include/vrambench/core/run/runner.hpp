// A run: which backends, devices and probes; running them; the result set it makes.
//
// `vrambench run` supervises: it finds module files, has each described by a worker
// process, checks the request against what they found, then runs each backend in a
// worker of its own and merges what streams back (supervisor.cpp). Inside a worker,
// run_device() does the measuring.
#pragma once

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrb {

struct RunRequest {
    std::vector<std::string> backends; // empty: every available backend
    std::vector<std::string> devices;  // "backend:index"; empty: every device
    std::vector<std::string> probes;   // patterns; empty: every probe
    ProbeOptions options;
    std::vector<std::string> command_line;
    double timeout_seconds = 600;      // longest a worker may stay silent
    std::optional<double> max_seconds; // --max-seconds: the whole run's time budget
    std::filesystem::path journal;     // when set: one JSON line per finished result
    DiscoveryOptions discovery;
    bool fail_on_suspect = false; // --fail-on-suspect: a suspect figure makes the run exit 4
    // --concurrent: one worker per device, all started together, instead of one worker
    // per backend measuring its devices one after another. Each result records the
    // devices that ran alongside it ("ran_alongside").
    bool concurrent = false;
};

// What a run reports while it goes, for the console.
struct RunObserver {
    std::function<void(const DeviceRecord &)> device_started;
    std::function<void(const nlohmann::json &device)> device_json; // the same, as recorded
    std::function<void(const ProbeResult &)> result;
    std::function<void(const nlohmann::json &result)> result_json; // the same, as recorded
    std::function<void(std::string_view what, double fraction)> progress;
};

struct RunOutcome {
    nlohmann::json document; // the result set, schema v1
    ExitCode exit = ExitCode::ok;
    std::size_t suspect_results = 0; // figures above the peak past the cache, or above the link
};

// The probes the patterns select, in run order; UsageError for a pattern matching none.
std::vector<const Probe *> select_probes(const std::vector<std::string> &patterns);

struct DeviceRunStatus {
    bool failed = false;
    bool verification_failed = false;
};

// Opens one device and runs the probes on it, reporting as it goes.
DeviceRunStatus run_device(const Backend &backend, uint32_t index, const std::vector<const Probe *> &probes,
                           const ProbeOptions &options, const RunObserver &observer);

// --device as given, with "all" (alone) meaning every device: an empty selection.
// Throws UsageError for "all" beside another device.
std::vector<std::string> device_selection(const std::vector<std::string> &names);

// The whole run, supervised: every backend in its own worker process.
RunOutcome supervise_run(const RunRequest &request, const RunObserver &observer);

// What the modules found say about themselves, each described by a worker process:
// the "backends" entries of a result set, each with its devices' descriptions under
// "devices" (not part of the schema; stripped before writing).
nlohmann::json describe_backends_in_workers(const DiscoveryOptions &discovery, double timeout_seconds);

// The modules an interop probe of backend `name` loads beside its own: every other
// backend of `backends` (describe_backends_in_workers' entries) that is available. The
// run gives them to each worker (ProbeOptions::partner_modules), and `run --plan` costs
// the interop probes for them.
std::vector<std::string> partner_modules_of(const nlohmann::json &backends, std::string_view name);

DeviceRecord describe_device(const Backend &backend, Device *open_device, uint32_t index);

nlohmann::json host_json();
nlohmann::json backends_json(const std::vector<BackendEntry> &entries);
std::string utc_now();

// Options as they travel to a worker and back.
nlohmann::json to_json(const ProbeOptions &options);
ProbeOptions probe_options_from_json(const nlohmann::json &j);

} // namespace vrb
