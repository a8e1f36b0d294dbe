// A probe: one experiment, written once against the operation vocabulary, run the
// same way on every backend.
#pragma once

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/measurement/statistics.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/result.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrb {

enum class Suite { quick, standard, full };
std::string_view to_string(Suite suite);

struct ProbeOptions {
    Suite suite = Suite::standard;
    std::optional<uint64_t> size;        // --size: bytes per buffer
    std::optional<uint32_t> repetitions; // --reps
    Estimator estimator = Estimator::median;
    std::optional<MemoryLimit> memory_limit; // --memory-limit, for probes that allocate much
    std::optional<uint64_t> llc;             // --llc: the last-level cache, over the API and the table
    // What is left of the run's --max-seconds when this device starts: a probe that
    // would start past it is reported as skipped; one that started finishes.
    std::optional<double> time_budget_seconds;
    // --probe-max-seconds: a probe whose plan estimates more is reported as skipped
    // before it starts, so one slow probe cannot take the time of those after it.
    std::optional<double> probe_budget_seconds;
    // The standard suite's time budget per device, in seconds: nothing, the suite's own
    // (standard_budget_seconds); 0, none. A plan estimated past it gives up repetitions,
    // then points, then sizes (`economy`, most_array_bytes: plan_within_budget).
    std::optional<double> device_budget_seconds;
    // How much the plan gave up to keep the budget: 0 nothing, 1 fewer repetitions,
    // 2 fewer points as well, 3 sizes too: grids that double past the last cache the
    // curve passes, a chase of at most economy_chase_steps loads a run, and arrays of at
    // most most_array_bytes (economy_text). Set per device by plan_within_budget.
    uint32_t economy = 0;
    // Economy 3: the largest array or working set any probe takes, what the device moves
    // in the time one run may take (plan_within_budget), whatever the size rules ask.
    std::optional<uint64_t> most_array_bytes;
    // Module files of the run's other available backends: the interop probes load them
    // beside the device's own module, so both sides of a pair share one process.
    std::vector<std::string> partner_modules;
    // How many other devices the backend offers this device as peers (the run sets it
    // from the backend's device count); the peer probes' plans are costed for them.
    uint32_t peer_devices = 0;
};

// Where a probe reports progress: "what it does now" and how far it is.
struct Progress {
    std::function<void(std::string_view step, double fraction)> update;
    void operator()(std::string_view step, double fraction) const
    {
        if (update) update(step, fraction);
    }
};

struct ProbeContext {
    Device &device;
    const DeviceRecord &record;
    const ProbeOptions &options;
    std::function<void(ProbeResult)> emit; // called once per finished result
    Progress progress;
};

class Probe {
  public:
    virtual ~Probe() = default;
    virtual std::string_view id() const = 0;      // "bandwidth.stream"
    virtual std::string_view summary() const = 0; // one line for --help and list
    // What run() would do on this device, without touching it (plan.hpp). The default
    // says the probe decides its sizes as it runs and gives no cost.
    virtual ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const;
    // Runs the probe; reports each result through ctx.emit as soon as it is known.
    // An exception means the whole probe failed on this device.
    virtual void run(ProbeContext &ctx) const = 0;
};

// Every probe, in the order a run executes them.
const std::vector<std::unique_ptr<Probe>> &all_probes();

// "bandwidth.*", "bandwidth.stream", "*": shell-style patterns, '*' only.
bool probe_matches(std::string_view id, std::string_view pattern);

} // namespace vrb
