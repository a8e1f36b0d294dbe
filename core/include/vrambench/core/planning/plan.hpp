// What a run will do, before it does it: every probe's sizes, the rule that chose them,
// the peak and the last-level cache with their sources, and what it should cost in time.
//
// The estimate is a function of the plan: each probe lists the runs it will make (bytes
// moved, dependent loads, the shortest a run may be) and the host's own work (filling,
// writing chains, checking), and a throughput (the peak where one is known, else an
// assumed figure, both said) turns them into seconds. It is for deciding whether to
// start a run, not a measurement.
#pragma once

#include <vrambench/core/results/device_record.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vrb {

class Probe;
struct ProbeOptions;

// Runs of one operation that cost alike.
struct PlannedRuns {
    double runs = 0;          // timed, warm-up and calibration runs together
    double bytes = 0;         // moved by the device in one run
    double cache_loads = 0;   // dependent loads in one run that a cache serves
    double memory_loads = 0;  // dependent loads in one run that go to memory
    double floor_seconds = 0; // the shortest a run is made to last (passes grow to it)
    // Runs that find the passes (time_point()): this many when a run is short, one when
    // a single pass already lasts 10 x floor_seconds.
    double calibration = 0;
    // Bytes of one run a GPU moves over its host link rather than in its own memory (a
    // kind in host memory), at Throughput::link_gb_per_s.
    double link_bytes = 0;
};

struct Cost {
    std::vector<PlannedRuns> runs;
    double host_bytes = 0; // bytes the host writes, uploads, walks or checks
    // Memory a probe maps and touches for the first time, where that, not the runs, is
    // what takes the time (pattern.stride's array: 64 x the bytes it reads at a page's
    // stride).
    double first_touch_bytes = 0;
    // Seconds that are no device's or host's work by bytes: a partner module opened for
    // a pair (pair_plans.hpp).
    double fixed_seconds = 0;
    // Memory the run's pool holds idle and gives back before the probe (capacity.report).
    double released_bytes = 0;
};

// What a device does per second, by what its record says (kind, API, peak): each figure
// a physical cost the estimate counts, checked against recorded runs
// (tests/unit/estimator_recorded_sets_test.cpp holds every probe within 2 x of its wall time).
struct Throughput {
    double device_gb_per_s = 10; // what the device moves in memory
    double host_gb_per_s = 5;    // what the host fills, uploads and checks
    double seconds_per_run = 20e-6;
    double cache_load_ns = 5, memory_load_ns = 150;
    // Memory allocated and touched for the first time. A CPU's page faults: the host
    // module asks for transparent huge pages, whose faults zero 2 MiB at a time (a 2-vCPU
    // Xeon VM's host first-touched 6 GB of pattern.stride's array in under 4 s; where the
    // kernel must compact memory at the fault it is far slower: 0.28 GB/s on a Zen 4 VM);
    // an OpenCL or Vulkan driver on the CPU allocates 4 KiB pages (PoCL's capacity probes
    // wrote 2 GiB of fresh memory in 2.2-3.3 s). A GPU backs and maps its pages when it
    // allocates: an H200 took 0.7 s to allocate and free its 140 GB.
    double first_touch_gb_per_s = 0.5;
    // What the pool's idle buffers take to give back (unmapping what was faulted in 4 KiB
    // pages: PoCL took 0.68 s); 0: free.
    double release_gb_per_s = 0;
    // A GPU's reads and writes of host memory over its link (memory.kinds' pinned kinds).
    double link_gb_per_s = 25;
    // Back-to-back runs before a point's timed ones (time_point(), kGpuWarmSeconds on a
    // GPU), for each point whose passes are searched for (calibration > 0).
    double warm_seconds_per_point = 0;
    std::string source; // where device_gb_per_s comes from, in words
};

// How long a GPU runs a point's operation back to back before timing it: a GPU lowers
// its clocks when it finds itself idle (between points, while the host checks an
// answer), and a few runs of a millisecond do not bring them back up (an H200 under
// Vulkan timed points at 500-700 MHz of its 1980 without it).
inline constexpr double kGpuWarmSeconds = 0.05;

// 70 % of the device's peak when one is known, else an assumed figure for what the
// device is (a CPU through the host module, an OpenCL or a Vulkan driver on a CPU, a GPU);
// latencies, per-run overheads, first touches and the host link likewise.
Throughput assumed_throughput(const DeviceRecord &device);
double estimate_seconds(const Cost &cost, const Throughput &throughput);

struct ProbePlan {
    std::string probe;
    // "memory", "cache", "limit", "option", "default" (curve_plan.hpp), "budget" (the
    // capacity budget), or "run time" for a probe that decides as it goes.
    std::string reason;
    std::string size_rule;
    nlohmann::json sizes = nlohmann::json::object(); // from, to, points, steps, bytes ...
    Cost cost;
    // The most device memory the probe holds at once (its own buffers; a capacity probe's
    // budget): with the pool freeing what the next probe will not reuse, the run's peak is
    // the largest of these.
    uint64_t held_bytes = 0;
    bool estimated = true; // false: the probe gives no cost, and the estimate leaves it out
    double seconds = 0;    // filled by plan_device
};

struct DevicePlan {
    std::string device, name;
    LastLevelCache last_level_cache;
    PeakChoice peak;
    Throughput throughput;
    std::vector<ProbePlan> probes;
    double seconds = 0; // every estimated probe
    // The time budget the plan was made to keep (0: none), what it gave up for it
    // (ProbeOptions::economy) and the estimate before it gave anything up.
    double budget_seconds = 0;
    uint32_t economy = 0;
    double unbudgeted_seconds = 0;
    // Economy 3: the arrays' cap (ProbeOptions::most_array_bytes) and the seconds one run
    // over it takes at the plan's throughput; 0 where no cap was needed.
    uint64_t most_array_bytes = 0;
    double most_run_seconds = 0;
    // On a device whose memory is the machine's RAM (a CPU, or memory the API calls host
    // memory): what the whole run may hold of it (the capacity probes' budget, set by
    // --memory-limit) and how it was chosen; 0 elsewhere. planned_peak_bytes: the most any
    // probe holds at once (ProbePlan::held_bytes), which the plan keeps within it less
    // ram_reserve_bytes.
    uint64_t ram_budget_bytes = 0;
    std::string ram_budget_rule;
    uint64_t planned_peak_bytes = 0;
    // Of ram_budget_bytes, what is kept for what the run holds beside its buffers
    // (capacity::CapacityBudget::host_reserve): planned_peak_bytes + this <= the budget.
    uint64_t ram_reserve_bytes = 0;
};

// Whether the device's memory is the machine's RAM: a CPU device, or one whose memory
// for capacity is host memory.
bool memory_is_system_ram(const DeviceRecord &device);

// Plans every probe on the device without touching it.
DevicePlan plan_device(const DeviceRecord &device, std::span<const Probe *const> probes, const ProbeOptions &options);

// The standard suite keeps each device within this many seconds by its plan's estimate,
// so a default run on three CPU backends measures in five minutes, and a GPU's first run
// fits a short lease; the quick suite caps its sizes instead, the full suite spends what
// its sizes need.
inline constexpr double standard_budget_seconds = 90;
// The budget options ask for: --budget (0: none), else the suite's (standard only).
double device_budget_seconds(const ProbeOptions &options);
// What an economy level gives up, in words: "nothing", "fewer repetitions", ...
std::string economy_text(uint32_t economy);
inline constexpr uint32_t most_economy = 3;
// Economy 3's chase: at most this many dependent loads a run (64 MiB of distinct lines,
// past any one core complex's cache), however large the chain: a run of 4 x a reported
// 480 MiB L3 in lines is 31 M loads, 5 s each on a VM.
inline constexpr uint64_t economy_chase_steps = 1u << 20;
// Economy 3's arrays: what the device moves at the plan's throughput in one run of
// first_run_seconds, halved until the estimate keeps the budget, never below
// least_capped_array_bytes (the quick suite's smallest memory footprint).
inline constexpr double first_run_seconds = 0.1;
inline constexpr uint64_t least_capped_array_bytes = 32ull << 20;
// plan_device at the least economy whose estimate keeps the budget: fewer repetitions,
// then fewer points, then sizes (economy 3, its arrays capped smaller and smaller), the
// most when none does. The standard suite only: the full suite keeps every rule.
// Without a budget, plan_device.
DevicePlan plan_within_budget(const DeviceRecord &device, std::span<const Probe *const> probes,
                              const ProbeOptions &options);
// Economy 3's sizes in words: the grids, the chase's loads, the arrays' cap and why.
std::string sizes_given_up_text(const DevicePlan &plan);
// The budget as a result set records it on the device (absent without a budget).
std::optional<nlohmann::json> budget_json(const DevicePlan &plan);
// The RAM budget as a result set records it on the device (absent where the device's
// memory is not the machine's RAM).
std::optional<nlohmann::json> ram_budget_json(const DevicePlan &plan);
// One line: "RAM budget 2 GiB (...): planned peak 1.5 GiB".
std::string ram_budget_text(const DevicePlan &plan);
// One line: "time budget 90 s: estimated 84.2 s with fewer repetitions (all of them: 130.5 s)".
std::string budget_text(const DevicePlan &plan);

nlohmann::json to_json(const DevicePlan &plan);
std::string plan_text(const DevicePlan &plan);

} // namespace vrb
