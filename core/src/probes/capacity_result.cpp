#include "capacity_result.hpp"

#include <vrambench/core/measure.hpp>
#include <vrambench/core/sizes.hpp>

#include <fmt/format.h>

namespace vrb::capacity {

ProbeResult make_capacity_result(const ProbeContext &ctx, std::string_view probe, const CapacityBudget &budget)
{
    ProbeResult r = make_result(ctx, probe);
    r.metric = "capacity";
    r.unit = "bytes";
    r.estimator = "single";
    r.parameters = budget.parameters();
    r.extra = nlohmann::json::object();
    return r;
}

void set_bytes(ProbeResult &r, uint64_t bytes)
{
    r.value = static_cast<double>(bytes);
    r.samples = {static_cast<double>(bytes)};
}

void pass(ProbeResult &r, std::string detail)
{
    r.verification = {Verification::Status::passed, std::move(detail)};
}

void fail_verification(ProbeResult &r, std::string detail)
{
    r.verification = {Verification::Status::failed, std::move(detail)};
    r.status = ProbeResult::Status::verification_failed;
}

bool budget_suffices(ProbeContext &ctx, std::string_view probe, const CapacityBudget &budget, uint64_t minimum)
{
    if (budget.bytes >= minimum) return true;
    ProbeResult r = make_capacity_result(ctx, probe, budget);
    r.status = ProbeResult::Status::waived;
    r.error = fmt::format("the memory budget of {} ({}) is below the {} this probe needs: raise --memory-limit",
                          format_size(budget.bytes), budget.rule, format_size(minimum));
    r.verification = {Verification::Status::unverified, "not run: the budget is too small"};
    ctx.emit(std::move(r));
    return false;
}

void add_reported_free(ProbeResult &r, const CapacityBudget &budget, uint64_t bytes)
{
    if (!budget.reported_free) {
        r.extra["reported_free_bytes"] = nullptr;
        return;
    }
    r.extra["reported_free_bytes"] = *budget.reported_free;
    r.extra["reported_free_source"] = budget.free_source;
    r.extra["share_of_reported_free"] = static_cast<double>(bytes) / static_cast<double>(*budget.reported_free);
}

} // namespace vrb::capacity
