// memory.kinds: the stream read, write and copy on every memory kind the device
// offers, so what a kernel gets from host memory is a measured ratio to device memory.
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"
#include "stream_point.hpp"

#include <vrambench/core/measurement/link_bound.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <fmt/format.h>

#include <map>

namespace vrb {

namespace {

constexpr uint32_t kinds_seed_src = 0x5d01, kinds_seed_write = 0x5e01;
constexpr uint32_t kinds_width = 16;

class KindsProbe final : public Probe {
  public:
    std::string_view id() const override { return "memory.kinds"; }
    std::string_view summary() const override
    {
        return "read, write and copy bandwidth on every memory kind, as ratios to device memory";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        const StreamPlan stream = plan_stream(device, options);
        ProbePlan p;
        p.reason = stream.reason;
        p.size_rule = stream.size_rule + ", or less where a kind's largest allocation is smaller";
        p.sizes = {{"array_bytes", stream.bytes}, {"kinds", device.kinds.size()}};
        const bool gpu = device.info.type != VRB_DEVICE_CPU;
        const uint32_t wanted = VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags;
        bool reference = true;
        for (const auto &kind : device.kinds) {
            if (!(kind.flags & VRB_MEMORY_DEVICE_ACCESS)) continue;
            uint64_t bytes = stream.bytes;
            if (kind.max_allocation_bytes && bytes > kind.max_allocation_bytes) bytes = kind.max_allocation_bytes;
            const double b = static_cast<double>(bytes);
            p.held_bytes = std::max(p.held_bytes, 2 * bytes); // one kind's source and destination at a time
            // The kind bandwidth.stream used comes from the pool, touched already; every
            // other kind's arrays are fresh memory (PoCL's pinned, host-pointer and SVM
            // kinds each took 10 s where its device kind took 3.5).
            if (reference && (kind.flags & wanted) == wanted)
                reference = false;
            else
                p.cost.first_touch_bytes += 2 * b;
            // A GPU reaches a kind in host memory over its link (an H200 read pinned memory
            // at 51 GB/s, its own at 4480).
            const bool linked = gpu && (kind.flags & VRB_MEMORY_HOST_MEMORY);
            const auto runs = [&](double n, double moved, double floor, double calibration) {
                return linked ? PlannedRuns{n, 0, 0, 0, floor, calibration, moved}
                              : PlannedRuns{n, moved, 0, 0, floor, calibration};
            };
            p.cost.runs.push_back(runs(2, b, 0, 0)); // the source filled, a copy's destination scrambled
            for (double moved : {b, b, 2 * b})
                p.cost.runs.push_back(
                    runs(static_cast<double>(stream.reps), moved, 1e-3, calibration_runs)); // time_point()'s
            p.cost.host_bytes += 3 * b;
        }
        return p;
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const Pace pace{stream.warmups, stream.reps, 1e-3};
        // The kind bandwidth.stream uses is what every other kind is compared with.
        const uint32_t reference = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        std::vector<uint32_t> order{reference};
        for (uint32_t k = 0; k < ctx.record.kinds.size(); ++k)
            if (k != reference) order.push_back(k);
        std::map<vrb_op_kind, double> base;
        for (std::size_t n = 0; n < order.size(); ++n) {
            const uint32_t kind = order[n];
            const auto &info = ctx.record.kinds[kind];
            uint64_t bytes = stream.bytes;
            if (info.max_allocation_bytes && bytes > info.max_allocation_bytes)
                bytes = info.max_allocation_bytes / 4096 * 4096;
            auto result = [&](vrb_op_kind op) {
                ProbeResult r = make_result(ctx, id());
                r.parameters = {{"operation", op_name(op)},  {"element_bytes", kinds_width},
                                {"array_bytes", bytes},      {"memory_kind", module_string(info.name)},
                                {"memory_kind_index", kind}, {"memory_flags", memory_flag_names(info.flags)},
                                {"warmups", stream.warmups}, {"repetitions", stream.reps}};
                return r;
            };
            if (!(info.flags & VRB_MEMORY_DEVICE_ACCESS)) {
                ProbeResult r = result(VRB_OP_READ);
                r.status = ProbeResult::Status::waived;
                r.error = "kernels cannot access this kind; bandwidth.transfer measures it with the copy engine";
                r.verification = {Verification::Status::unverified, "not run"};
                ctx.emit(std::move(r));
                continue;
            }
            std::unique_ptr<Buffer> src, dst;
            try {
                check_kind(ctx.record, kind, VRB_MEMORY_DEVICE_ACCESS);
                src = ctx.device.acquire(kind, bytes);
                dst = ctx.device.acquire(kind, bytes);
                fill_random(ctx.device, *src, bytes, kinds_seed_src);
            } catch (const Error &e) {
                ProbeResult r = result(VRB_OP_READ);
                mark_run_failed(r, e);
                ctx.emit(std::move(r));
                continue;
            }
            for (vrb_op_kind op : {VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY}) {
                ctx.progress(fmt::format("{} on {}", op_name(op), module_text(info.name)),
                             static_cast<double>(n) / order.size());
                StreamPoint p;
                p.kind = op;
                p.element_bytes = kinds_width;
                p.src = op == VRB_OP_WRITE ? nullptr : src.get();
                p.dst = op == VRB_OP_READ ? nullptr : dst.get();
                p.bytes = bytes;
                p.src_seed = kinds_seed_src;
                p.write_seed = kinds_seed_write + kind;
                ProbeResult point = measure_stream_point(ctx, id(), p, pace);
                ProbeResult r = result(op);
                r.parameters["passes"] = point.parameters.value("passes", 1);
                point.parameters = r.parameters;
                // A kernel on host memory reads and writes it across the link.
                if (info.flags & VRB_MEMORY_HOST_MEMORY)
                    check_link_bound(point, ctx.record,
                                     link_directions(bytes_moved(op, kinds_width, bytes / kinds_width)),
                                     fmt::format("{} on memory kind {}", op_name(op), module_text(info.name)));
                if (point.value) {
                    if (n == 0) base[op] = *point.value;
                    if (base.count(op) && base[op] > 0)
                        point.extra = {{"ratio_to", module_string(ctx.record.kinds[reference].name)},
                                       {"ratio", *point.value / base[op]}};
                }
                ctx.emit(std::move(point));
            }
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_kinds_probe()
{
    return std::make_unique<KindsProbe>();
}

} // namespace vrb
