#include "curve_plan.hpp"

#include <vrambench/core/device_record.hpp>
#include <vrambench/core/error.hpp>
#include <vrambench/core/sizes.hpp>

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

void set_pace(CurvePlan &plan, Suite suite)
{
    switch (suite) {
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
}

} // namespace

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

CurvePlan plan_sweep(const DeviceRecord &device, const ProbeOptions &options)
{
    CurvePlan plan;
    set_pace(plan, options.suite);
    if (options.repetitions) plan.reps = *options.repetitions;
    plan.from = 4 << 10;
    if (options.size) {
        if (*options.size < plan.from)
            throw UsageError(fmt::format("--size {} is below the sweep's start of 4 KiB", *options.size));
        plan.to = *options.size;
        plan.size_rule = "as given by --size";
        return plan;
    }
    const uint64_t llc = device.last_level_cache_bytes();
    plan.to = std::max<uint64_t>(llc ? 8 * llc : 1ull << 30, 64ull << 20);
    plan.size_rule =
        llc ? fmt::format("8 x the {} largest cache", format_size(llc)) : "1 GiB: the device reports no cache sizes";
    // A copy's two buffers hold the working set, in at most a quarter of free memory.
    if (const uint64_t memory = free_memory(device); memory && plan.to > memory / 4) {
        plan.to = memory / 4;
        plan.size_rule += fmt::format("; capped to a quarter of the {} free", format_size(memory));
    }
    return plan;
}

CurvePlan plan_chase(const DeviceRecord &device, const ProbeOptions &options)
{
    CurvePlan plan;
    set_pace(plan, options.suite);
    plan.reps = options.suite == Suite::full ? 5 : 3;
    plan.warmups = 1;
    if (options.repetitions) plan.reps = *options.repetitions;
    plan.from = 4 << 10;
    if (options.size) {
        if (*options.size < plan.from)
            throw UsageError(fmt::format("--size {} is below the chase's start of 4 KiB", *options.size));
        plan.to = *options.size;
        plan.size_rule = "as given by --size";
        return plan;
    }
    const uint64_t llc = device.last_level_cache_bytes();
    const uint64_t cap = options.suite == Suite::quick      ? 64ull << 20
                         : options.suite == Suite::standard ? 128ull << 20
                                                            : 1ull << 30;
    plan.to = llc ? 8 * llc : 1ull << 30;
    plan.size_rule =
        llc ? fmt::format("8 x the {} largest cache", format_size(llc)) : "1 GiB: the device reports no cache sizes";
    if (plan.to > cap) {
        plan.to = cap;
        plan.size_rule += fmt::format(", capped to {} so one lap of the chain stays short", format_size(cap));
    }
    if (const uint64_t memory = free_memory(device); memory && plan.to > memory / 4) {
        plan.to = memory / 4;
        plan.size_rule += fmt::format("; capped to a quarter of the {} free", format_size(memory));
    }
    return plan;
}

std::vector<uint64_t> stride_plan(Suite suite, uint32_t element_bytes, uint64_t page_bytes)
{
    const uint64_t last = std::max<uint64_t>(1, page_bytes / element_bytes) * (suite == Suite::full ? 4 : 1);
    std::vector<uint64_t> out;
    const uint64_t step = suite == Suite::quick ? 4 : 2;
    for (uint64_t s = 1; s < last; s *= step)
        out.push_back(s);
    out.push_back(last);
    return out;
}

std::vector<uint64_t> alignment_plan(Suite suite, uint32_t element_bytes)
{
    std::vector<uint64_t> out;
    switch (suite) {
    case Suite::quick: out = {0, 4, 16, 64, 256}; break;
    case Suite::standard:
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
        throw RunError(fmt::format("memory kind {} ({}) of {} is not {}", kind, k.name, device.id,
                                   memory_flags_text(needed & ~k.flags)));
}

} // namespace vrb
