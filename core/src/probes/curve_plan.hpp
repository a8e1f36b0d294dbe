// How far and how finely the curve probes go, derived from the device and the suite,
// and the checks that refuse a malformed plan before anything is allocated.
#pragma once

#include "growth.hpp"

#include <vrambench/core/measurement/plateaus.hpp>
#include <vrambench/core/probes/probe.hpp>

namespace vrb {

// Why a plan's largest size is what it is, in one word the plan output shows:
// "memory" (a multiple of the last-level cache, to reach device memory), "cache" (a
// multiple of what the measured cores reach, for a suite that stays quick), "limit"
// (cut to what memory allows), "cap" (the quick suite's quick_most_bytes), "option"
// (--size), "default" (nothing says how large the caches are), "grow" (nothing says how
// large the caches are, and the curve grows past its planned sizes until its figure
// settles: growth.hpp).
// The quick suite's largest working set on a CPU device (the host, lavapipe, PoCL),
// whatever its caches: the suite stays quick (a socket's 480 MiB L3 reported to a VM took
// its sweeps and chase to 960 MiB and its time to 11 s; capped, every CPU runs the sizes
// a 32 MiB L3 gives, 3-4 s). The standard suite is where sizes follow the caches; a GPU's
// quick sizes follow its cache, which it passes in milliseconds.
inline constexpr uint64_t quick_most_bytes = 64ull << 20;

// Cuts `bytes` to quick_most_bytes in the quick suite on a CPU device, saying so in
// `rule`, with the reason "cap"; other suites and devices are left as they are.
void cap_quick(const DeviceRecord &device, Suite suite, uint64_t &bytes, std::string &rule, std::string &reason);

// Cuts `bytes` to the run's cap on arrays (ProbeOptions::most_array_bytes: the RAM
// budget's, or the time budget's at economy 3), saying so in `rule`, with the reason
// "budget"; nothing without a cap.
void cap_to_budget(const ProbeOptions &options, uint64_t &bytes, std::string &rule, std::string &reason);

// Economy 3's grids: the largest data cache the device reports that a curve to `to`
// passes (below to / 2, at most the last level), past which its sizes double; 0 for none.
uint64_t last_cache_passed(const DeviceRecord &device, uint64_t to);

struct SizeRule {
    std::string reason;
    std::string text; // the rule in words, kept with the result as size_rule
};

// The cache a plan must outgrow. Standard and full suites: the last-level cache (--llc,
// the API, the device table). Quick: on a CPU, only what `threads` cores reach of it:
// its size / the cores sharing one instance x threads, or at most 16 MiB per thread when
// the device does not say how many share it (a package total such as a 508 MiB L3 is
// many core complexes' caches, of which two cores reach one); on a GPU, all of it.
struct CacheTarget {
    uint64_t bytes = 0; // 0: unknown
    std::string text;   // "the 50 MiB last-level cache (api)"
};
CacheTarget plan_cache(const DeviceRecord &device, Suite suite, uint32_t threads);

struct CurvePlan {
    uint64_t from = 0, to = 0; // working-set bytes, both ends included
    double ratio = 2;          // between neighbouring sizes
    uint32_t warmups = 1;
    uint32_t reps = 3;
    double target_seconds = 1e-3; // one timed run lasts at least about this long
    std::string size_rule;        // how `to` was chosen, kept with the result
    std::string reason;           // SizeRule::reason
    // latency.chase: at most this many dependent loads per run, so a run's time is
    // bounded however large the chain; its nodes are that many lines spread over the span.
    uint64_t most_steps = 0, least_steps = 0;
    uint64_t memory_reach = 0; // latency.chase: footprint past which the last plateau is memory (4 x the cache)
    // latency.chase, standard suite: past this size the grid doubles instead of stepping
    // by `ratio`, and a point takes `memory_reps` runs (0: the grid and reps go on as below).
    uint64_t coarse_from = 0;
    uint32_t memory_reps = 0;
    // bandwidth.sweep and latency.chase where no cache size is known: past `to` the
    // working set doubles until the figure settles or a cap ends it (growth.hpp).
    GrowthRule grow;
};

// The first size a growing plan measures past its planned ones (2 x `to`, a multiple of
// `granule`), or 0 when the plan does not grow or the cap leaves no room: the one doubling
// a plan's estimate counts.
uint64_t first_grown(const CurvePlan &plan, uint64_t granule);

// The growth rule as a plan lists it among its sizes: open_ended, grow_most_bytes,
// grow_most_seconds, grow_until. Nothing for a plan that does not grow.
void add_growth_sizes(nlohmann::json &sizes, const CurvePlan &plan);

// The pace every curve's points share (sweep, chase, stride, alignment, gather):
// warm-ups, timed runs (--reps overrides them), the length runs are stretched to, the
// grid ratio. Quick 1 + 3 runs of 0.5 ms, standard 1 + 5 of 1 ms (1 + 3 where a time
// budget gave up repetitions), full 2 + 10 of 2 ms.
CurvePlan curve_pace(const ProbeOptions &options);

// The distinct bytes the pattern probes touch (cache lines of the stride probe, buffer
// bytes of alignment and gather), and the largest buffer they may take for it.
struct FootprintPlan {
    uint64_t bytes = 0;     // the footprint to reach
    uint64_t most_span = 0; // the largest buffer span
    std::string size_rule;
    std::string reason;
};
// standard and full: 4 x the last-level cache, at least 64 MiB (1 GiB when no cache size
// is known); quick: 2 x what the cores reach, at least 32 MiB. Spans: a quarter of free
// memory (quick: at most 64 MiB). --size sets the footprint.
FootprintPlan plan_footprint(const DeviceRecord &device, const ProbeOptions &options);

// pattern.stride: the distinct bytes `count` reads of every `stride`-th element touch
// (whole lines), the reads that touch `footprint` bytes (at most `elements` / stride of
// the buffer), and the buffer span that lets the largest stride reach the footprint.
uint64_t stride_footprint(uint64_t count, uint64_t stride, uint32_t element_bytes);
uint64_t stride_count(uint64_t footprint, uint64_t stride, uint32_t element_bytes, uint64_t elements);
uint64_t stride_span(const FootprintPlan &footprint, uint64_t largest_stride, uint32_t element_bytes);

// pattern.gather's 4-byte elements: standard and full, the data array alone is the
// footprint (4 x the last-level cache), so random indices miss every cache, and the
// indices as many again; quick, data and indices together a quarter of the footprint,
// since each random load waits on memory and a CPU core overlaps few.
inline constexpr uint32_t gather_element_bytes = 4;
uint64_t gather_elements(const FootprintPlan &footprint, Suite suite);
// The words pattern.gather's size rule adds to the footprint's.
std::string gather_size_note(Suite suite);
// pattern.alignment's bytes per buffer: the footprint (quick: a quarter of it, ten points of
// read and copy over misaligned lanes, which a software driver reads at a fraction of a GB/s).
uint64_t alignment_bytes(const FootprintPlan &footprint, Suite suite);

// "; a quarter of it in the quick suite" for quick, "" otherwise: the size rule of a
// probe that takes a share of the footprint.
std::string share_note(Suite suite, std::string_view share);

// Bytes of one line in the footprint rule: a CPU's line, two of a GPU's 32-byte sectors.
inline constexpr uint64_t line_bytes = 64;

// Sizes from `from` to `to` on a geometric grid of `ratio`, each a multiple of
// `granule`, `to` always included. Throws UsageError for an empty range (from 0, to
// below from) or a ratio not above 1.
std::vector<uint64_t> geometric_sizes(uint64_t from, uint64_t to, double ratio, uint64_t granule);

// bandwidth.sweep: 4 KiB to 8 x the last-level cache, at least 64 MiB; quick: 2 x what
// the cores reach, at least 32 MiB. Two buffers of up to `to` bytes in a quarter of the
// free memory. --size sets the largest working set. Where no cache size is known (no
// --llc, no size from the API, no table entry): planned to the largest last-level cache
// the device table knows (at most a quarter of the cap, so two doublings fit), then grown
// (`grow`) up to a quarter of the free memory (4 GiB when none is reported); a CPU in the
// quick suite keeps quick_most_bytes instead.
CurvePlan plan_sweep(const DeviceRecord &device, const ProbeOptions &options);
// latency.chase: a chain spanning 4 KiB to 8 x the last-level cache (standard: 4 x;
// quick: 4 x what one core reaches), in a quarter of free memory; --size sets the
// largest span. Each run makes max(least_steps, min(nodes, most_steps)) dependent loads,
// most_steps covering 4 x the last-level cache in lines (quick: 2^16), so a chain of GiBs
// costs no full lap. Past the cache every load goes to memory and one run lasts as long as
// a lap of millions of them: the standard suite steps past the cache by doubling, to
// 2 x and 4 x it, two runs each (an MI300X's lap of 1 GiB is 16 M loads, over 10 s).
// Where no cache size is known, the standard and full suites plan as the sweep does and
// grow past it, each point one lap of its whole span (no cache can keep a lap it cannot
// hold); the quick suite, 2^16 loads a run, stays at 64 MiB and measures no memory.
CurvePlan plan_chase(const DeviceRecord &device, const ProbeOptions &options);
// The chase's working sets: the grid of `ratio` to coarse_from, doubling past it.
std::vector<uint64_t> chase_sizes(const CurvePlan &plan);
// The sweep's: the grid of `ratio`, doubling past coarse_from where economy 3 set it.
std::vector<uint64_t> sweep_sizes(const CurvePlan &plan);
// The chase's warm-up runs at a point of `footprint` bytes: none past the last-level cache
// (or past coarse_from, or at a grown point), where a run's lap leaves nothing a cache
// could keep.
inline uint32_t chase_warmups(const CurvePlan &plan, uint64_t footprint, uint64_t last_level)
{
    return (last_level && footprint > last_level) || (plan.coarse_from && footprint > plan.coarse_from) ||
                   (plan.grow && footprint > plan.to)
               ? 0
               : plan.warmups;
}
// Its timed runs: memory_reps past coarse_from, where it is set.
inline uint32_t chase_reps(const CurvePlan &plan, uint64_t footprint)
{
    return plan.memory_reps && plan.coarse_from && footprint > plan.coarse_from ? plan.memory_reps : plan.reps;
}
// The caches a curve is named against: those the API reports, and the last-level
// cache of plan_cache() when the API stops short of it.
std::vector<CacheReach> plan_caches(const DeviceRecord &device, uint32_t threads);

// The caches a working-set sweep's plateaus are named after. On a GPU a compute unit's
// L1 reaches that one L1, however many units there are: below one wave of the device
// every unit walks the whole set, and past it the GPU modules keep the shares out of
// the units' L1s (loads past L1 on CUDA and HIP, a share moved on every pass in Vulkan),
// so the L1s never add up to pass for an L2. On a CPU each core's share stays its own.
std::vector<CacheReach> plan_sweep_caches(const DeviceRecord &device);

// The plateaus a sweep over `sizes` should find: each cache level's (L1, L2 ...: the
// sizes past every reach of the level before it and within the least reach of its own)
// and memory's (from twice the largest reach of the last cache on), with the points
// of the sweep that fall inside each.
struct PlannedPlateau {
    std::string name;
    uint64_t from_bytes = 0, to_bytes = 0;
    std::size_t points = 0;
};
std::vector<PlannedPlateau> sweep_plateaus(const DeviceRecord &device, const std::vector<uint64_t> &sizes);

// Strides 1, 2, 4 ... elements of `element_bytes` up to at least `page_bytes` (1, 4,
// 16 ... in the quick suite and where a time budget gave up points: options.economy).
std::vector<uint64_t> stride_plan(const ProbeOptions &options, uint32_t element_bytes, uint64_t page_bytes = 4096);
// Byte offsets 0 ... at least 256, multiples of element_bytes; fewer of them in the
// quick suite and where a time budget gave up points.
std::vector<uint64_t> alignment_plan(const ProbeOptions &options, uint32_t element_bytes);

// Refusals with a message saying what is wrong and what is allowed.
void check_stride(uint64_t stride, uint64_t elements);                             // UsageError
void check_offset(uint64_t offset, uint32_t element_bytes, uint64_t buffer_bytes); // UsageError
// The kind must exist on the device and have every flag in `needed`; RunError otherwise.
void check_kind(const DeviceRecord &device, uint32_t kind, uint32_t needed);

// The copy-engine sweep of bandwidth.transfer and bandwidth.peer: 4 KiB up by fours (by
// twos in the full suite) to 64 MiB quick, 1 GiB standard, 4 GiB full, or --size; at
// most an eighth of the free memory (four buffers, both directions at once).
CurvePlan plan_transfer(const DeviceRecord &device, const ProbeOptions &options);

// Times one point of a copy-engine sweep (bandwidth.transfer, bandwidth.peer): a
// Which part of the device copies a TRANSFER: its copy engine (the API's copy call, "ce")
// or its compute units (a kernel, "sm"; VRB_OPERATION_ENGINE_SM).
enum class CopyEngine { copy_engine, compute_units };
std::string_view engine_name(CopyEngine engine);

// TRANSFER of `bytes` from src to dst, and from src2 to dst2 at once when they are given,
// run on ctx.device, into `point`'s bandwidth: count bytes per direction, each once.
// By the compute units, a module that copied with its copy engine all the same (it does
// not know the flag) is BackendError(VRB_ERROR_UNSUPPORTED): its figure is not the one asked.
void time_transfer(ProbeResult &point, const ProbeContext &ctx, const CurvePlan &plan, uint64_t bytes, Buffer &src,
                   Buffer &dst, Buffer *src2 = nullptr, Buffer *dst2 = nullptr,
                   CopyEngine engine = CopyEngine::copy_engine);

} // namespace vrb
