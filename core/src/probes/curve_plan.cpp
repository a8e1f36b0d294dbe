#include "curve_plan.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/device_table.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vrb {

namespace {

uint64_t free_memory(const DeviceRecord &device)
{
    const auto &i = device.info;
    return (i.known & VRB_KNOWN_FREE_MEMORY)    ? i.free_memory_bytes
           : (i.known & VRB_KNOWN_TOTAL_MEMORY) ? i.total_memory_bytes
                                                : 0;
}

// A chain's links are 32-bit lane indices: 2^32 lanes of 4 bytes, less one line.
constexpr uint64_t most_chain_bytes = (4ull << 32) - 64;

void set_pace(CurvePlan &plan, const ProbeOptions &options)
{
    switch (options.suite) {
    case Suite::quick:
        plan.ratio = 2;
        plan.reps = 3;
        plan.target_seconds = 0.5e-3;
        break;
    case Suite::standard:
        plan.ratio = std::sqrt(2.0);
        plan.reps = 5;
        plan.target_seconds = 1e-3;
        break;
    case Suite::full:
        plan.ratio = std::pow(2.0, 0.25);
        plan.warmups = 2;
        plan.reps = 10;
        plan.target_seconds = 2e-3;
        break;
    }
    // Three runs still give a median that one stalled run cannot move.
    if (options.economy >= 1) plan.reps = std::min<uint32_t>(plan.reps, 3);
}

} // namespace

void cap_quick(const DeviceRecord &device, Suite suite, uint64_t &bytes, std::string &rule, std::string &reason)
{
    if (suite != Suite::quick || device.info.type != VRB_DEVICE_CPU || bytes <= quick_most_bytes) return;
    bytes = quick_most_bytes;
    rule += fmt::format("; capped to {}, the quick suite's largest", format_size(quick_most_bytes));
    reason = "cap";
}

void cap_to_budget(const ProbeOptions &options, uint64_t &bytes, std::string &rule, std::string &reason)
{
    if (!options.most_array_bytes || bytes <= *options.most_array_bytes) return;
    bytes = *options.most_array_bytes;
    rule += fmt::format("; capped to {} by the run's budgets", format_size(bytes));
    reason = "budget";
}

uint64_t last_cache_passed(const DeviceRecord &device, uint64_t to)
{
    const uint64_t llc = device.last_level_cache_bytes();
    uint64_t last = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(device.info.cache_count, VRB_MAX_CACHES); ++i) {
        const vrb_cache_info &c = device.info.caches[i];
        if (std::string_view(c.kind) == "instruction") continue;
        if (c.bytes <= to / 2 && (!llc || c.bytes <= llc)) last = std::max<uint64_t>(last, c.bytes);
    }
    if (llc && llc <= to / 2) last = std::max(last, llc);
    return last;
}

CurvePlan curve_pace(const ProbeOptions &options)
{
    CurvePlan plan;
    set_pace(plan, options);
    if (options.repetitions) plan.reps = *options.repetitions;
    return plan;
}

std::vector<uint64_t> geometric_sizes(uint64_t from, uint64_t to, double ratio, uint64_t granule)
{
    if (from == 0 || to < from) throw UsageError(fmt::format("an empty size range: from {} to {} bytes", from, to));
    if (!(ratio > 1)) throw UsageError(fmt::format("a size ratio of {} does not grow: it must be above 1", ratio));
    granule = std::max<uint64_t>(granule, 1);
    std::vector<uint64_t> out;
    for (double x = static_cast<double>(from); x < static_cast<double>(to) * (1 - 1e-9); x *= ratio) {
        const uint64_t size = std::max<uint64_t>(static_cast<uint64_t>(x) / granule * granule, granule);
        if (out.empty() || size > out.back()) out.push_back(size);
    }
    const uint64_t last = std::max<uint64_t>(to / granule * granule, granule);
    if (out.empty() || last > out.back()) out.push_back(last);
    return out;
}

CacheTarget plan_cache(const DeviceRecord &device, Suite suite, uint32_t threads)
{
    const LastLevelCache llc = device.last_level_cache();
    CacheTarget t;
    t.bytes = llc.bytes;
    if (!llc.bytes) return t;
    t.text = fmt::format("the {} last-level cache ({})", format_size(llc.bytes), llc.source);
    if (suite != Suite::quick || device.info.type != VRB_DEVICE_CPU || llc.source == "option") return t;
    threads = std::max<uint32_t>(threads, 1);
    uint32_t shared_by = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(device.info.cache_count, VRB_MAX_CACHES); ++i)
        if (device.info.caches[i].bytes == llc.bytes) shared_by = device.info.caches[i].shared_by;
    constexpr uint64_t most_per_thread = 16ull << 20;
    const uint64_t reach = shared_by ? llc.bytes / shared_by * threads : most_per_thread * threads;
    if (reach < llc.bytes) {
        t.bytes = reach;
        t.text = shared_by ? fmt::format("the {} that {} of the {} cores sharing the {} last-level cache reach",
                                         format_size(reach), threads, shared_by, format_size(llc.bytes))
                           : fmt::format("the {} that {} core{} reach at most (16 MiB each) of the {} last-level "
                                         "cache ({}), whose sharing the device does not tell",
                                         format_size(reach), threads, threads == 1 ? "" : "s", format_size(llc.bytes),
                                         llc.source);
    }
    return t;
}

std::vector<CacheReach> plan_caches(const DeviceRecord &device, uint32_t threads)
{
    std::vector<CacheReach> caches = cache_reach(device.info, threads);
    uint64_t largest = 0;
    uint32_t level = 0;
    for (const CacheReach &c : caches) {
        largest = std::max(largest, c.bytes * c.most);
        level = std::max(level, c.level);
    }
    // A compute unit's L1 the API does not report (Vulkan, OpenCL) but the device table
    // knows: kernels that re-read their items read them from it, and that plateau must
    // not take another level's name. It is level 1, so the caches past it are 2 and on.
    const CardMatch card = match_card(device.info);
    const bool table_l1 = card.card && card.card->unit_l1_bytes &&
                          std::none_of(caches.begin(), caches.end(), [](const CacheReach &c) { return c.level == 1; });
    if (table_l1) level = std::max(level, 1u);
    // The last-level cache where the API reports none as large (the table's, or --llc).
    if (const LastLevelCache llc = device.last_level_cache(); llc.bytes > largest)
        caches.push_back({level + 1, llc.bytes, 1, 1});
    if (table_l1) {
        vrb_device_info with_l1 = device.info;
        with_l1.cache_count = 1;
        with_l1.caches[0] = vrb_cache_info{1, 1, card.card->unit_l1_bytes, "data"};
        caches.insert(caches.begin(), cache_reach(with_l1, threads).front());
    }
    return caches;
}

std::vector<CacheReach> plan_sweep_caches(const DeviceRecord &device)
{
    std::vector<CacheReach> caches = plan_caches(device, std::max<uint32_t>(device.info.compute_units, 1));
    if (device.info.type != VRB_DEVICE_CPU)
        for (CacheReach &c : caches)
            if (c.level == 1) c.fewest = c.most = 1;
    return caches;
}

std::vector<PlannedPlateau> sweep_plateaus(const DeviceRecord &device, const std::vector<uint64_t> &sizes)
{
    std::vector<PlannedPlateau> out;
    uint64_t past = 0; // every size up to here belongs to a nearer level
    for (const CacheReach &c : plan_sweep_caches(device)) {
        PlannedPlateau p;
        p.name = fmt::format("L{}", c.level);
        p.from_bytes = past;
        p.to_bytes = c.bytes * c.fewest;
        past = std::max(past, c.bytes * c.most);
        if (p.to_bytes <= p.from_bytes) continue; // hidden by the level before it
        out.push_back(p);
    }
    if (past > 0) out.push_back({"memory", 2 * past, UINT64_MAX, 0});
    for (PlannedPlateau &p : out)
        p.points = static_cast<std::size_t>(
            std::count_if(sizes.begin(), sizes.end(), [&](uint64_t x) { return x > p.from_bytes && x <= p.to_bytes; }));
    return out;
}

namespace {

// A size `factor` x the cache a plan sizes from (at least `floor`, when one is given),
// or `fallback` when no cache size is known; with its rule and reason as plans give them.
struct PastCache {
    uint64_t bytes = 0;
    std::string rule, reason;
};
PastCache past_cache(const CacheTarget &cache, Suite suite, uint64_t factor, uint64_t floor, uint64_t fallback,
                     std::string_view prefix = "")
{
    if (!cache.bytes)
        return {fallback, fmt::format("{}{}: no cache size is known", prefix, format_size(fallback)), "default"};
    PastCache p{std::max(factor * cache.bytes, floor), fmt::format("{}{} x {}", prefix, factor, cache.text),
                suite == Suite::quick ? "cache" : "memory"};
    if (floor) p.rule += fmt::format(", at least {}", format_size(floor));
    return p;
}

// The largest last-level cache of any card in the device table: a card the table lacks
// may have one as large, so a plan that knows no cache size measures that far before it
// grows (an MI300X's 256 MiB Infinity Cache).
uint64_t largest_table_cache()
{
    uint64_t most = 0;
    for (const CardSpec &card : card_table())
        most = std::max(most, card.last_level_bytes);
    return most;
}

// No cache size is known: plan to the table's largest cache, at most a quarter of `cap`
// (so two doublings fit), and grow past it up to `cap`.
void plan_growth(CurvePlan &plan, Suite suite, uint64_t cap, std::string cap_text)
{
    plan.grow = GrowthRule{cap, growth_seconds(suite), 0.05, std::move(cap_text)};
    const uint64_t table = largest_table_cache();
    plan.to = std::max<uint64_t>(std::min(table, cap / 4) / 4096 * 4096, plan.from);
    plan.reason = "grow";
    plan.size_rule = plan.to == table ? fmt::format("{}, the largest last-level cache the device table knows: this "
                                                    "device's is not known",
                                                    format_size(plan.to))
                                      : fmt::format("{}, a quarter of the cap below the {} largest last-level cache "
                                                    "the device table knows: this device's is not known",
                                                    format_size(plan.to), format_size(table));
}

// The cap of a grown curve: a quarter of the free memory, as the planned sizes keep to,
// or `fallback` when the device reports none.
std::pair<uint64_t, std::string> growth_cap(const DeviceRecord &device, uint64_t fallback)
{
    if (const uint64_t memory = free_memory(device))
        return {memory / 4, fmt::format("a quarter of the {} free", format_size(memory))};
    return {fallback, "the device reports no free memory"};
}

} // namespace

uint64_t first_grown(const CurvePlan &plan, uint64_t granule)
{
    if (!plan.grow) return 0;
    granule = std::max<uint64_t>(granule, 1);
    const uint64_t x = 2 * plan.to / granule * granule;
    return x <= plan.grow.most_bytes ? x : 0;
}

void add_growth_sizes(nlohmann::json &sizes, const CurvePlan &plan)
{
    if (!plan.grow) return;
    sizes["open_ended"] = true;
    sizes["grow_until"] = fmt::format("two points 2x apart agree within {:g} %", plan.grow.agree * 100);
    sizes["grow_most_bytes"] = plan.grow.most_bytes;
    sizes["grow_most_seconds"] = plan.grow.most_seconds;
}

CurvePlan plan_sweep(const DeviceRecord &device, const ProbeOptions &options)
{
    CurvePlan plan;
    set_pace(plan, options);
    if (options.repetitions) plan.reps = *options.repetitions;
    plan.from = 4 << 10;
    if (options.size) {
        if (*options.size < plan.from)
            throw UsageError(fmt::format("--size {} is below the sweep's start of 4 KiB", *options.size));
        plan.to = *options.size;
        plan.size_rule = "as given by --size";
        plan.reason = "option";
        return plan;
    }
    const bool quick = options.suite == Suite::quick;
    const CacheTarget cache = plan_cache(device, options.suite, std::max<uint32_t>(device.info.compute_units, 1));
    if (!cache.bytes && !(quick && device.info.type == VRB_DEVICE_CPU)) {
        // A copy's two buffers each hold the working set, each in a quarter of free memory.
        auto [cap, cap_text] = growth_cap(device, 4ull << 30);
        plan_growth(plan, options.suite, cap, std::move(cap_text));
        plan.size_rule += "; " + growth_text(plan.grow, plan.to);
        return plan;
    }
    const PastCache reach = past_cache(cache, options.suite, quick ? 2 : 8, quick ? 32ull << 20 : 64ull << 20,
                                       quick ? 256ull << 20 : 1ull << 30);
    plan.to = reach.bytes;
    plan.size_rule = reach.rule;
    plan.reason = reach.reason;
    cap_quick(device, options.suite, plan.to, plan.size_rule, plan.reason);
    // A copy's two buffers hold the working set, in at most a quarter of free memory.
    if (const uint64_t memory = free_memory(device); memory && plan.to > memory / 4) {
        plan.to = memory / 4;
        plan.size_rule += fmt::format("; capped to a quarter of the {} free", format_size(memory));
        plan.reason = "limit";
    }
    cap_to_budget(options, plan.to, plan.size_rule, plan.reason);
    if (options.economy >= 3) {
        if ((plan.coarse_from = last_cache_passed(device, plan.to)))
            plan.size_rule += fmt::format("; doubling past {}", format_size(plan.coarse_from));
    }
    return plan;
}

CurvePlan plan_chase(const DeviceRecord &device, const ProbeOptions &options)
{
    CurvePlan plan;
    set_pace(plan, options);
    plan.reps = options.suite == Suite::full ? 5 : 3;
    plan.warmups = 1;
    if (options.repetitions) plan.reps = *options.repetitions;
    plan.from = 4 << 10;
    const bool quick = options.suite == Suite::quick;
    plan.least_steps = quick ? 1u << 13 : options.suite == Suite::standard ? 1u << 17 : 1u << 18;
    const uint64_t llc = device.last_level_cache_bytes();
    plan.memory_reach = 4 * llc;
    // Every run loads at least 4 x the last-level cache in distinct lines, so a cache
    // cannot keep what the previous run loaded; quick stays within 2^16 loads a run.
    plan.most_steps = quick ? 1u << 16 : std::max<uint64_t>(plan.least_steps, llc ? 4 * llc / line_bytes : 1u << 20);
    if (options.size) {
        if (*options.size < plan.from)
            throw UsageError(fmt::format("--size {} is below the chase's start of 4 KiB", *options.size));
        if (*options.size > most_chain_bytes)
            throw UsageError(fmt::format("--size {} is past the chase's largest chain of {}: its links are 32-bit "
                                         "lane indices",
                                         format_size(*options.size), format_size(most_chain_bytes)));
        plan.to = *options.size;
        plan.size_rule = "as given by --size";
        plan.reason = "option";
        return plan;
    }
    const bool standard = options.suite == Suite::standard;
    if (!llc && !quick) {
        // Each point one lap of its whole span, as far as the cap: no cache can keep a
        // lap it cannot hold, whatever its size.
        auto [cap, cap_text] = growth_cap(device, 4ull << 30);
        if (cap > most_chain_bytes) {
            cap = most_chain_bytes;
            cap_text = "as far as the chain's 32-bit links reach";
        }
        plan_growth(plan, options.suite, cap, std::move(cap_text));
        plan.most_steps = std::max<uint64_t>(plan.least_steps, cap / line_bytes);
        plan.size_rule += "; each point one lap of its whole span";
        if (standard && !options.repetitions) {
            plan.coarse_from = 64ull << 20;
            plan.memory_reps = 2;
            plan.size_rule += fmt::format("; doubling past {}, two runs each", format_size(plan.coarse_from));
        }
        plan.size_rule += "; " + growth_text(plan.grow, plan.to);
        return plan;
    }
    const PastCache reach = past_cache(plan_cache(device, options.suite, 1), options.suite, standard ? 4 : 8, 0,
                                       quick ? 64ull << 20 : 1ull << 30);
    plan.to = reach.bytes;
    plan.size_rule = reach.rule;
    plan.reason = reach.reason;
    cap_quick(device, options.suite, plan.to, plan.size_rule, plan.reason);
    std::string limits;
    if (plan.to > most_chain_bytes) {
        plan.to = most_chain_bytes;
        limits += fmt::format("; capped to {}, as far as 32-bit links reach", format_size(most_chain_bytes));
        plan.reason = "limit";
    }
    if (const uint64_t memory = free_memory(device); memory && plan.to > memory / 4) {
        plan.to = memory / 4;
        limits += fmt::format("; capped to a quarter of the {} free", format_size(memory));
        plan.reason = "limit";
    }
    std::string reason = plan.reason;
    cap_to_budget(options, plan.to, limits, reason);
    plan.reason = reason;
    if (options.economy >= 3)
        plan.most_steps = std::max(plan.least_steps, std::min(plan.most_steps, economy_chase_steps));
    plan.size_rule += fmt::format("; at most {} dependent loads a run", plan.most_steps);
    if (standard && options.economy >= 3 && !options.repetitions) {
        if ((plan.coarse_from = last_cache_passed(device, plan.to))) {
            plan.memory_reps = 2;
            plan.size_rule += fmt::format("; doubling past {}, two runs each", format_size(plan.coarse_from));
        }
    } else if (standard && llc && !options.repetitions) {
        plan.coarse_from = llc;
        plan.memory_reps = 2;
        plan.size_rule += "; past the cache at 2 x and 4 x it, two runs each";
    }
    plan.size_rule += limits;
    return plan;
}

namespace {

// The grid of `ratio` to coarse_from, doubling past it to `to`.
std::vector<uint64_t> coarse_sizes(const CurvePlan &plan, uint64_t granule)
{
    if (!plan.coarse_from || plan.coarse_from >= plan.to)
        return geometric_sizes(plan.from, plan.to, plan.ratio, granule);
    std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.coarse_from, plan.ratio, granule);
    for (uint64_t x = 2 * plan.coarse_from; x < plan.to; x *= 2)
        sizes.push_back(x / granule * granule);
    if (plan.to / granule * granule > sizes.back()) sizes.push_back(plan.to / granule * granule);
    return sizes;
}

} // namespace

std::vector<uint64_t> chase_sizes(const CurvePlan &plan)
{
    return coarse_sizes(plan, 64); // one node a line
}

std::vector<uint64_t> sweep_sizes(const CurvePlan &plan)
{
    return coarse_sizes(plan, 4096);
}

FootprintPlan plan_footprint(const DeviceRecord &device, const ProbeOptions &options)
{
    FootprintPlan plan;
    const bool quick = options.suite == Suite::quick;
    const uint64_t memory = free_memory(device);
    plan.most_span = memory ? memory / 4 : 4ull << 30;
    // Writing a large array is most of a quick run on a slow device (a software driver
    // fills 256 MiB in a quarter of a second); the quick suite's spans stay at 64 MiB.
    if (quick) plan.most_span = std::min<uint64_t>(plan.most_span, 64ull << 20);
    if (options.size) {
        plan.bytes = std::max<uint64_t>(*options.size / 4096 * 4096, 4096);
        plan.most_span = std::max(plan.most_span, plan.bytes);
        plan.size_rule = "as given by --size";
        plan.reason = "option";
        return plan;
    }
    const PastCache reach = past_cache(
        plan_cache(device, options.suite, std::max<uint32_t>(device.info.compute_units, 1)), options.suite,
        quick ? 2 : 4, quick ? 32ull << 20 : 64ull << 20, quick ? 64ull << 20 : 1ull << 30, "a footprint of ");
    plan.bytes = reach.bytes;
    plan.size_rule = reach.rule;
    plan.reason = reach.reason;
    cap_quick(device, options.suite, plan.bytes, plan.size_rule, plan.reason);
    cap_to_budget(options, plan.bytes, plan.size_rule, plan.reason);
    if (options.most_array_bytes) plan.most_span = std::min(plan.most_span, *options.most_array_bytes);
    if (plan.bytes > plan.most_span) {
        plan.bytes = plan.most_span;
        plan.size_rule += fmt::format("; capped to {}", format_size(plan.most_span));
        plan.reason = "limit";
    }
    plan.bytes = std::max<uint64_t>(plan.bytes / 4096 * 4096, 4096);
    return plan;
}

uint64_t stride_footprint(uint64_t count, uint64_t stride, uint32_t element_bytes)
{
    const uint64_t step = stride * element_bytes;
    if (count == 0) return 0;
    if (step >= line_bytes) return count * line_bytes;
    const uint64_t span = (count - 1) * step + element_bytes;
    return (span + line_bytes - 1) / line_bytes * line_bytes;
}

uint64_t stride_count(uint64_t footprint, uint64_t stride, uint32_t element_bytes, uint64_t elements)
{
    const uint64_t step = stride * element_bytes;
    const uint64_t wanted = std::max<uint64_t>(footprint / std::min(step, line_bytes), 1);
    return std::min(wanted, (elements - 1) / stride + 1);
}

uint64_t stride_span(const FootprintPlan &footprint, uint64_t largest_stride, uint32_t element_bytes)
{
    const uint64_t step = largest_stride * element_bytes;
    const uint64_t wanted = step > line_bytes ? footprint.bytes / line_bytes * step : footprint.bytes;
    return std::max<uint64_t>(std::min(wanted, std::max(footprint.most_span, footprint.bytes)) / 4096 * 4096, 4096);
}

std::string share_note(Suite suite, std::string_view share)
{
    return suite == Suite::quick ? fmt::format("; {} of it in the quick suite", share) : std::string();
}

std::string gather_size_note(Suite suite)
{
    return suite == Suite::quick ? "; data and indices together a quarter of it in the quick suite"
                                 : "; the data array alone, the indices as many again";
}

uint64_t gather_elements(const FootprintPlan &footprint, Suite suite)
{
    // Random indices miss every cache only where the data alone is past them all: the
    // data array is the whole footprint, the indices as many again.
    if (suite != Suite::quick) return std::max<uint64_t>(footprint.bytes / gather_element_bytes, 1024);
    return std::max<uint64_t>(footprint.bytes / 4 / (2 * gather_element_bytes), 1024);
}

uint64_t alignment_bytes(const FootprintPlan &footprint, Suite suite)
{
    const uint64_t bytes = suite == Suite::quick ? footprint.bytes / 4 : footprint.bytes;
    return std::max<uint64_t>(bytes / 4096 * 4096, 4096);
}

std::vector<uint64_t> stride_plan(const ProbeOptions &options, uint32_t element_bytes, uint64_t page_bytes)
{
    const Suite suite = options.suite;
    const uint64_t last = std::max<uint64_t>(1, page_bytes / element_bytes) * (suite == Suite::full ? 4 : 1);
    std::vector<uint64_t> out;
    const uint64_t step = suite == Suite::quick || options.economy >= 2 ? 4 : 2;
    for (uint64_t s = 1; s < last; s *= step)
        out.push_back(s);
    out.push_back(last);
    return out;
}

std::vector<uint64_t> alignment_plan(const ProbeOptions &options, uint32_t element_bytes)
{
    std::vector<uint64_t> out;
    switch (options.suite) {
    case Suite::quick: out = {0, 4, 16, 64, 256}; break;
    case Suite::standard:
        if (options.economy >= 2) {
            // Within a line, at its end, across one and past a 128-byte sector pair.
            out = {0, 4, 8, 16, 32, 60, 64, 128, 256};
            break;
        }
        for (uint64_t o = 0; o <= 64; o += 4)
            out.push_back(o);
        out.insert(out.end(), {96, 128, 192, 256});
        break;
    case Suite::full:
        for (uint64_t o = 0; o <= 256; o += 4)
            out.push_back(o);
        break;
    }
    std::erase_if(out, [&](uint64_t o) { return o % element_bytes != 0; });
    return out;
}

void check_stride(uint64_t stride, uint64_t elements)
{
    if (stride == 0) throw UsageError("a stride of 0 elements reads one element over and over: it must be at least 1");
    if (stride >= elements)
        throw UsageError(fmt::format("a stride of {} elements leaves one element of a {}-element buffer: it must be "
                                     "below the buffer's length",
                                     stride, elements));
}

void check_offset(uint64_t offset, uint32_t element_bytes, uint64_t buffer_bytes)
{
    if (element_bytes == 0 || offset % element_bytes != 0)
        throw UsageError(fmt::format("offset {} is not a multiple of the {}-byte element", offset, element_bytes));
    if (offset + element_bytes > buffer_bytes)
        throw UsageError(fmt::format("offset {} is past the end of a {}-byte buffer", offset, buffer_bytes));
}

void check_kind(const DeviceRecord &device, uint32_t kind, uint32_t needed)
{
    if (kind >= device.kinds.size())
        throw RunError(fmt::format("{} has no memory kind {}: it offers {}", device.id, kind, device.kinds.size()));
    const auto &k = device.kinds[kind];
    if ((k.flags & needed) != needed)
        throw RunError(fmt::format("memory kind {} ({}) of {} is not {}", kind, module_text(k.name), device.id,
                                   memory_flags_text(needed & ~k.flags)));
}

CurvePlan plan_transfer(const DeviceRecord &device, const ProbeOptions &options)
{
    CurvePlan plan;
    plan.from = 4 << 10;
    plan.ratio = options.suite == Suite::full ? 2 : 4;
    plan.reps = options.suite == Suite::quick ? 3 : options.suite == Suite::standard ? 5 : 10;
    if (options.economy >= 1) plan.reps = std::min<uint32_t>(plan.reps, 3);
    plan.target_seconds = options.suite == Suite::quick ? 0.5e-3 : 1e-3;
    if (options.repetitions) plan.reps = *options.repetitions;
    if (options.size) {
        if (*options.size < plan.from)
            throw UsageError(fmt::format("--size {} is below the transfer sweep's start of 4 KiB", *options.size));
        plan.to = *options.size;
        plan.size_rule = "as given by --size";
        return plan;
    }
    // 64 MiB is past where a copy engine's rate levels off (a few MiB on PCIe and NVLink).
    plan.to = options.suite == Suite::quick ? 64ull << 20 : options.suite == Suite::standard ? 1ull << 30 : 4ull << 30;
    plan.size_rule = fmt::format("{} for the {} suite", format_size(plan.to), to_string(options.suite));
    const auto &i = device.info;
    const uint64_t memory = (i.known & VRB_KNOWN_FREE_MEMORY) ? i.free_memory_bytes : 0;
    // Four buffers (both directions at once), in at most half of the free memory.
    if (memory && plan.to > memory / 8) {
        plan.to = memory / 8;
        plan.size_rule += fmt::format("; capped to an eighth of the {} free", format_size(memory));
    }
    cap_to_budget(options, plan.to, plan.size_rule, plan.reason);
    return plan;
}

} // namespace vrb
