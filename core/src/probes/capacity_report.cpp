// capacity.report: total and free memory as the API reports them when the probe runs,
// device-wide and per heap. Nothing is measured here: these are the figures the other
// capacity probes are set against. The device record keeps the figures from when the
// device was opened; free memory may have moved since.
#include "capacity_budget.hpp"
#include "capacity_probes.hpp"

#include <vrambench/core/measurement/buffer_pool.hpp>
#include <vrambench/core/measurement/measure.hpp>

#include <fmt/format.h>

namespace vrb {

namespace capacity {
namespace {

class CapacityReportProbe final : public Probe {
  public:
    std::string_view id() const override { return "capacity.report"; }
    std::string_view summary() const override
    {
        return "total and free memory as the API reports them, device-wide and per memory heap";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        ProbePlan p;
        p.reason = "budget";
        p.size_rule = "what the API reports; nothing is allocated";
        // The pool's idle buffers are given back first: at most what the run may hold of
        // the device's memory, the capacity budget.
        try {
            p.cost.released_bytes = static_cast<double>(plan_capacity_budget(device, options).bytes);
        } catch (const Error &) {
            // No memory figure and no --memory-limit: nothing bounds it, and it is left out.
        }
        return p;
    }

    void run(ProbeContext &ctx) const override
    {
        // What the run's pool holds for the next probe is this process's own, not the
        // device's load: held, it took 16 GiB off an H200's free memory after pattern.stride.
        ctx.device.pool().release_idle();
        const vrb_device_info info = ctx.device.describe();
        figure(ctx, "total", nlohmann::json::object(), (info.known & VRB_KNOWN_TOTAL_MEMORY) != 0,
               info.total_memory_bytes, "total memory");
        figure(ctx, "free", nlohmann::json::object(), (info.known & VRB_KNOWN_FREE_MEMORY) != 0, info.free_memory_bytes,
               "free memory");
        for (uint32_t h = 0; h < info.heap_count && h < VRB_MAX_HEAPS; ++h) {
            const vrb_heap_info &heap = info.heaps[h];
            const nlohmann::json where = {{"heap", h}, {"heap_flags", memory_flags_text(heap.flags)}};
            figure(ctx, "heap-size", where, heap.bytes != 0, heap.bytes, fmt::format("the size of heap {}", h));
            figure(ctx, "heap-budget", where, heap.budget_bytes != 0, heap.budget_bytes,
                   fmt::format("a budget for heap {} (VK_EXT_memory_budget or alike)", h));
        }
    }

  private:
    void figure(ProbeContext &ctx, std::string_view name, nlohmann::json where, bool known, uint64_t bytes,
                const std::string &what) const
    {
        ProbeResult r = make_result(ctx, id());
        r.metric = "capacity";
        r.unit = "bytes";
        r.estimator = "single";
        r.parameters = std::move(where);
        r.parameters["operation"] = name;
        if (known) {
            r.value = static_cast<double>(bytes);
            r.samples = {static_cast<double>(bytes)};
            r.verification = {Verification::Status::unverified,
                              "reported by the API, not measured: capacity.max-alloc and capacity.total measure"};
        } else {
            r.status = ProbeResult::Status::waived;
            r.error = fmt::format("the API does not report {}", what);
            r.verification = {Verification::Status::unverified, "unknown"};
        }
        ctx.emit(std::move(r));
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_capacity_report_probe()
{
    return std::make_unique<capacity::CapacityReportProbe>();
}

} // namespace vrb
