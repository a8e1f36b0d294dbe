// capacity.fragmentation: fill the budget with equal chunks, free every other one, then
// ask for one block as large as all that was freed. Whether it fits, and the largest
// block that does, show "memory is free but the allocation fails" in numbers.
#include "capacity_budget.hpp"
#include "capacity_largest.hpp"
#include "capacity_probes.hpp"
#include "capacity_result.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace capacity {
namespace {

constexpr uint32_t capacity_fragmentation_chunk_seed = 0xf4a90000;
constexpr uint32_t block_seed = 0xb10c0000;
constexpr std::size_t least_chunks = 4;

class CapacityFragmentationProbe final : public Probe {
  public:
    std::string_view id() const override { return "capacity.fragmentation"; }
    std::string_view summary() const override
    {
        return "after freeing every other chunk of a full budget, the largest block that still fits";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_capacity(device, options, 3, 1.5,
                             "chunks up to the budget written and checked, then half freed and searched");
    }

    void run(ProbeContext &ctx) const override
    {
        const CapacityBudget budget = plan_capacity_budget(ctx.record, ctx.options);
        const uint64_t count = ctx.options.suite == Suite::quick ? 16 : 32;
        if (!budget_suffices(ctx, id(), budget, 8 * capacity_granule)) return;
        const uint64_t chunk = std::max(round_to_granule(budget.bytes / count), capacity_granule);

        ProbeResult r = make_capacity_result(ctx, id(), budget);
        r.parameters["operation"] = "largest-block-after-fragmenting";
        r.parameters["chunk_bytes"] = chunk;
        r.parameters["chunks"] = count;
        r.byte_counting = "the largest single block allocated, written and read back while every other chunk is held";

        std::vector<std::unique_ptr<Buffer>> chunks;
        std::optional<Touch> corrupt;
        WriteReference reference;
        reference.bytes = chunk;
        reference.cache_resident = cache_resident(chunk, ctx.record.last_level_cache_bytes());
        r.extra["chunks_ended_by"] = "budget";
        while (chunks.size() < count && (chunks.size() + 1) * chunk <= budget.bytes) {
            ctx.progress(fmt::format("chunk {} of {}", chunks.size() + 1, count),
                         0.5 * static_cast<double>(chunks.size()) / static_cast<double>(count));
            std::unique_ptr<Buffer> buffer;
            try {
                buffer = ctx.device.allocate(budget.kind, chunk);
            } catch (const BackendError &e) {
                r.extra["chunks_ended_by"] = "allocation-failure";
                r.extra["chunk_failure"] = {{"status", vrb::to_string(e.status())}, {"message", e.what()}};
                break;
            }
            const uint32_t seed = capacity_fragmentation_chunk_seed + static_cast<uint32_t>(chunks.size());
            const Touch t = touch_buffer(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed);
            if (!t.verified() && !corrupt) corrupt = t;
            if (chunks.empty()) {
                // The first chunk is the yardstick a spilled block is measured against.
                reference.first_gb_per_s = t.write_gb_per_s();
                reference.warm_gb_per_s =
                    static_cast<double>(chunk) / rewrite_seconds(ctx.device, *buffer, VRB_PATTERN_RANDOM, seed) / 1e9;
            }
            chunks.push_back(std::move(buffer));
        }
        r.extra["chunks_allocated"] = chunks.size();
        if (chunks.size() < least_chunks) {
            r.status = ProbeResult::Status::failed;
            r.error = fmt::format("only {} chunks of {} could be allocated; at least {} are needed to fragment memory",
                                  chunks.size(), format_size(chunk), least_chunks);
            r.verification = {Verification::Status::unverified, "memory could not be fragmented"};
            chunks.clear();
            ctx.emit(std::move(r));
            return;
        }

        // Every other chunk goes: free memory now comes in holes of one chunk each.
        uint64_t freed = 0;
        for (std::size_t i = 1; i < chunks.size(); i += 2) {
            chunks[i].reset();
            freed += chunk;
        }
        const uint64_t kept = (chunks.size() - freed / chunk) * chunk;

        nlohmann::json steps = nlohmann::json::array();
        auto attempt = [&](uint64_t bytes) {
            ctx.progress(fmt::format("trying a block of {}", format_size(bytes)), 0.75);
            nlohmann::json step;
            const uint32_t seed = block_seed + static_cast<uint32_t>(steps.size());
            const Attempt a = attempt_allocation(ctx.device, budget.kind, bytes, seed, reference, step, corrupt);
            steps.push_back(std::move(step));
            return a;
        };
        const SearchOutcome search =
            search_largest(freed, search_resolution(budget.bytes, capacity_granule), capacity_granule, attempt);

        // The held chunks must still hold what was written before the blocks came and went.
        uint64_t overwritten = 0;
        for (std::size_t i = 0; i < chunks.size(); i += 2)
            overwritten += recheck_buffer(ctx.device, *chunks[i], VRB_PATTERN_RANDOM,
                                          capacity_fragmentation_chunk_seed + static_cast<uint32_t>(i));
        chunks.clear();

        r.extra["requested_bytes"] = freed;
        r.extra["held_bytes"] = kept;
        r.extra["full_request_fits"] = search.largest == freed;
        r.extra["reference"] = reference.to_json();
        r.extra["largest_share_of_freed"] = static_cast<double>(search.largest) / static_cast<double>(freed);
        r.extra["steps"] = steps;
        add_reported_free(r, budget, search.largest);
        set_bytes(r, search.largest);
        if (corrupt)
            fail_verification(r, corrupt->describe_failure());
        else if (overwritten)
            fail_verification(r, fmt::format("{} lanes of the held chunks changed while blocks were written: "
                                             "allocations overlap",
                                             overwritten));
        else
            pass(r, fmt::format("every chunk and block written and read back; the {} held chunks read back intact "
                                "at the end",
                                kept / chunk));
        if (search.largest == 0)
            r.extra["note"] =
                fmt::format("not even {} fit in {} freed", format_size(capacity_granule), format_size(freed));
        ctx.emit(std::move(r));
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_capacity_fragmentation_probe()
{
    return std::make_unique<capacity::CapacityFragmentationProbe>();
}

} // namespace vrb
