// capacity.max-alloc: the largest single allocation that succeeds, each candidate
// written and read back in full on the device, found within a stated resolution.
#include "capacity_budget.hpp"
#include "capacity_largest.hpp"
#include "capacity_probes.hpp"
#include "capacity_result.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

namespace vrb {

namespace capacity {
namespace {

class CapacityMaxAllocProbe final : public Probe {
  public:
    std::string_view id() const override { return "capacity.max-alloc"; }
    std::string_view summary() const override
    {
        return "the largest single allocation that succeeds, every byte written and read back on the device";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_capacity(device, options, 2, 1, "the largest allocation written and checked");
    }

    void run(ProbeContext &ctx) const override
    {
        const CapacityBudget budget = plan_capacity_budget(ctx.record, ctx.options);
        if (!budget_suffices(ctx, id(), budget, 2 * capacity_granule)) return;
        const LargestAllocation found = find_largest_allocation(ctx, budget);
        const uint64_t largest = found.search.largest;

        ProbeResult r = make_capacity_result(ctx, id(), budget);
        r.parameters["operation"] = "largest-allocation";
        r.parameters["resolution_bytes"] = found.resolution;
        r.byte_counting = "the size of the largest allocation that was written and read back in full";
        r.extra["steps"] = found.steps;
        r.extra["reference_write"] = found.reference.to_json();
        r.extra["spill_rule"] =
            fmt::format("spilled when a write runs below {:g} x the reference rate twice", spill_ratio);
        r.extra["largest_spilled_bytes"] = found.largest_spilled;
        r.extra["spilled"] = found.largest_spilled > 0;
        r.extra["smallest_refused_bytes"] = found.search.smallest_unfit;
        r.extra["limited_by"] = largest == found.upper ? "budget" : "device";
        const auto &kind = ctx.record.kinds.at(budget.kind);
        r.extra["reported_max_allocation_bytes"] =
            kind.max_allocation_bytes ? nlohmann::json(kind.max_allocation_bytes) : nlohmann::json();
        add_reported_free(r, budget, largest);

        if (largest == 0) {
            r.status = ProbeResult::Status::failed;
            r.error =
                fmt::format("not even {} could be allocated and kept in device memory", format_size(capacity_granule));
            r.verification = {Verification::Status::unverified, "nothing was allocated to verify"};
        } else {
            set_bytes(r, largest);
            if (found.corrupt)
                fail_verification(r, found.corrupt->describe_failure());
            else
                pass(r, fmt::format("every candidate that fit was written and read back in full ({} attempts)",
                                    found.steps.size()));
            if (!found.corrupt) remember_largest(ctx, budget.bytes, largest);
        }
        if (largest == found.upper)
            r.extra["note"] = "the whole budget fit: the device may give more; raise --memory-limit to look further";
        ctx.emit(std::move(r));
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_capacity_max_alloc_probe()
{
    return std::make_unique<capacity::CapacityMaxAllocProbe>();
}

} // namespace vrb
