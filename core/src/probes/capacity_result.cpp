#include "capacity_result.hpp"

#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/sizes.hpp>

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

Verification verify_release(uint64_t bytes, std::optional<uint64_t> free_held, std::optional<uint64_t> free_after)
{
    if (!free_held || !free_after)
        return {Verification::Status::unverified, "the device reports no free memory, so a free cannot be checked"};
    if (bytes < least_visible_release)
        return {Verification::Status::unverified,
                fmt::format("a free of {} is below the {} the free-memory report resolves", format_size(bytes),
                            format_size(least_visible_release))};
    const int64_t back = static_cast<int64_t>(*free_after) - static_cast<int64_t>(*free_held);
    const std::string seen =
        fmt::format("free memory went from {} held to {} freed", format_size(*free_held), format_size(*free_after));
    if (back < static_cast<int64_t>(bytes / 2))
        return {Verification::Status::failed,
                fmt::format("freeing {} gave back {} MiB: {}", format_size(bytes), back / (1 << 20), seen)};
    return {Verification::Status::passed, fmt::format("freeing {} gave it back: {}", format_size(bytes), seen)};
}

} // namespace vrb::capacity
