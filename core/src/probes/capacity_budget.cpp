#include "capacity_budget.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/plan.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb::capacity {

namespace {

// The quick suite checks that the capacity probes work, in seconds; measuring what a
// device holds is the standard suite's job (first touch of fresh memory alone runs at a
// few GB/s on many machines, so 2 GiB cost seconds per probe).
constexpr uint64_t quick_cap = 32ull << 20;
constexpr uint64_t least_margin = 512ull << 20;
// Memory in system RAM is everyone's: filling it pushes other programs into swap or the
// OOM killer's hands, and pinned RAM can stall the whole machine. Without
// --memory-limit the capacity probes take at most a quarter of it, and never past 8 GiB
// (the full suite) or 2 GiB (the standard suite: its budget is a minute per CPU backend,
// and a VM clears fresh pages at a few GB/s).
constexpr double system_ram_share = 0.25;
uint64_t system_ram_cap(Suite suite)
{
    return suite == Suite::full ? 8ull << 30 : 2ull << 30;
}

bool has(uint32_t flags, uint32_t wanted)
{
    return (flags & wanted) == wanted;
}

struct Reported {
    uint64_t bytes = 0;
    std::string source;
};

// Free memory as the API reports it; failing that the heap's budget, then its size.
Reported reported_free(const DeviceRecord &device, uint32_t kind)
{
    const auto &info = device.info;
    if ((info.known & VRB_KNOWN_FREE_MEMORY) && info.free_memory_bytes)
        return {info.free_memory_bytes, "free memory reported by the API"};
    const uint32_t heap = kind < device.kinds.size() ? device.kinds[kind].heap_index : UINT32_MAX;
    if (heap < info.heap_count && heap < VRB_MAX_HEAPS && info.heaps[heap].budget_bytes)
        return {info.heaps[heap].budget_bytes, "budget of the memory heap reported by the API"};
    if ((info.known & VRB_KNOWN_TOTAL_MEMORY) && info.total_memory_bytes)
        return {info.total_memory_bytes, "total memory reported by the API (it reports nothing free)"};
    if (heap < info.heap_count && heap < VRB_MAX_HEAPS && info.heaps[heap].bytes)
        return {info.heaps[heap].bytes, "size of the memory heap reported by the API"};
    return {};
}

} // namespace

uint32_t capacity_memory_kind(const DeviceRecord &device)
{
    const auto &kinds = device.kinds;
    const uint32_t local = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
    for (uint32_t i = 0; i < kinds.size(); ++i)
        if (has(kinds[i].flags, local) && !(kinds[i].flags & VRB_MEMORY_HOST_VISIBLE)) return i;
    for (uint32_t i = 0; i < kinds.size(); ++i)
        if (has(kinds[i].flags, local)) return i;
    for (uint32_t i = 0; i < kinds.size(); ++i)
        if (has(kinds[i].flags, VRB_MEMORY_DEVICE_ACCESS)) return i;
    throw RunError(fmt::format("{} offers no memory kind that device operations can reach", device.id));
}

CapacityBudget plan_capacity_budget(const DeviceRecord &device, const ProbeOptions &options)
{
    CapacityBudget budget;
    budget.kind = capacity_memory_kind(device);
    budget.kind_name = module_string(device.kinds.at(budget.kind).name);
    const Reported free = reported_free(device, budget.kind);
    if (free.bytes) {
        budget.reported_free = free.bytes;
        budget.free_source = free.source;
    }
    budget.margin = std::max<uint64_t>(free.bytes / 20, least_margin);

    uint64_t bytes = 0;
    if (options.memory_limit) {
        const MemoryLimit &limit = *options.memory_limit;
        if (limit.fraction > 0) {
            if (!free.bytes)
                throw RunError(fmt::format("{} reports no memory size, so --memory-limit cannot be a percentage: "
                                           "give it in bytes (e.g. 4G)",
                                           device.id));
            bytes = limit.resolve(free.bytes);
            budget.rule = fmt::format("--memory-limit {:g}% of the {} {}", limit.fraction * 100,
                                      format_size(free.bytes), free.source);
        } else {
            bytes = limit.bytes;
            budget.rule = fmt::format("--memory-limit {}", format_size(limit.bytes));
        }
    } else {
        if (!free.bytes)
            throw RunError(fmt::format("{} reports no memory size: give --memory-limit in bytes (e.g. 4G) to bound "
                                       "the capacity probes",
                                       device.id));
        bytes = free.bytes > budget.margin ? free.bytes - budget.margin : 0;
        budget.rule = fmt::format("the {} {} less a margin of {} (max of 5% and 512 MiB)", format_size(free.bytes),
                                  free.source, format_size(budget.margin));
        if (device.kinds.at(budget.kind).flags & VRB_MEMORY_HOST_MEMORY) {
            const uint64_t ram_cap =
                std::min<uint64_t>(static_cast<uint64_t>(static_cast<double>(free.bytes) * system_ram_share),
                                   system_ram_cap(options.suite));
            if (bytes > ram_cap) {
                bytes = ram_cap;
                budget.rule += fmt::format(", capped at {} as the memory is system RAM (the smaller of 25% of the "
                                           "free and {} in the {} suite; --memory-limit 100% takes it all)",
                                           format_size(ram_cap), format_size(system_ram_cap(options.suite)),
                                           to_string(options.suite));
            }
        }
        if (options.suite == Suite::quick && bytes > quick_cap) {
            bytes = quick_cap;
            budget.rule += fmt::format(", capped at {} in the quick suite", format_size(quick_cap));
        }
    }
    budget.bytes = round_to_granule(bytes);
    // The default share only: a --memory-limit is what the capacity probes allocate, as
    // asked (100% reaches every byte).
    if (memory_is_system_ram(device) && !options.memory_limit) {
        const uint64_t share = budget.bytes;
        budget.host_reserve = host_reserve_of(share);
        budget.bytes = share - budget.host_reserve;
        budget.rule += fmt::format(", of which {} is kept for what the run holds beside its buffers",
                                   format_size(budget.host_reserve));
    }
    return budget;
}

nlohmann::json CapacityBudget::parameters() const
{
    return {{"budget_bytes", bytes}, {"budget_rule", rule}, {"memory_kind", kind_name}};
}

ProbePlan plan_capacity(const DeviceRecord &device, const ProbeOptions &options, double touches, double allocations,
                        std::string_view what)
{
    ProbePlan p;
    p.reason = "budget";
    try {
        const CapacityBudget budget = plan_capacity_budget(device, options);
        const double bytes = static_cast<double>(budget.bytes);
        p.size_rule = fmt::format("{}; {}", budget.rule, what);
        p.sizes = {{"budget_bytes", budget.bytes}, {"memory_kind", budget.kind_name}};
        p.held_bytes = budget.bytes;
        if (touches > 0) p.cost.runs.push_back({touches, bytes, 0, 0, 0});
        // Each allocation is fresh memory: a CPU faults its pages in, a GPU backs and maps
        // them (an H200 took 0.66-0.77 s for its 140 GB where writing it took 0.09 s).
        p.cost.first_touch_bytes += allocations * bytes;
    } catch (const Error &e) {
        p.size_rule = e.what();
        p.estimated = false;
    }
    return p;
}

} // namespace vrb::capacity
