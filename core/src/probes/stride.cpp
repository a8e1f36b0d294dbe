// pattern.stride: read bandwidth against stride, 1 element up to a page and past it,
// so coalescing, cache-line and prefetch effects show.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "offered.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

namespace vrb {

namespace {

constexpr uint32_t stride_seed = 0x5701;
constexpr uint32_t stride_width = 4;

class StrideProbe final : public Probe {
  public:
    std::string_view id() const override { return "pattern.stride"; }
    std::string_view summary() const override { return "read bandwidth against stride, 1 element to past a page"; }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_stride_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        const FootprintPlan footprint = plan_footprint(ctx.record, ctx.options);
        const std::vector<uint64_t> strides = stride_plan(ctx.options, stride_width);
        const uint64_t bytes = stride_span(footprint, strides.back(), stride_width);
        const uint64_t elements = bytes / stride_width;
        for (uint64_t s : strides)
            check_stride(s, elements);
        if (ProbeResult declined = make_result(ctx, id());
            !offered(ctx, declined, VRB_OP_STRIDED_READ, stride_width, kind)) {
            declined.parameters = {{"operation", "strided-read"},
                                   {"element_bytes", stride_width},
                                   {"memory_kind", module_string(ctx.record.kinds.at(kind).name)}};
            ctx.emit(std::move(declined));
            return;
        }
        auto src = ctx.device.acquire(kind, bytes);
        fill_random(ctx.device, *src, bytes, stride_seed);

        const CurvePlan pace = curve_pace(ctx.options);
        Curve curve("stride_elements", "elements");
        for (std::size_t i = 0; i < strides.size(); ++i) {
            const uint64_t s = strides[i];
            ctx.progress(fmt::format("stride {}", s), static_cast<double>(i) / strides.size());
            ProbeResult point = make_result(ctx, id());
            // Every s-th element, as many as the footprint needs and the buffer holds.
            const uint64_t count = stride_count(footprint.bytes, s, stride_width, elements);
            vrb_operation op = make_operation(VRB_OP_STRIDED_READ, stride_width, count);
            op.stride = s;
            op.src1 = {src->handle(), 0};
            const uint64_t touched = stride_footprint(count, s, stride_width);
            nlohmann::json detail = {{"elements_read", op.count}, {"footprint_bytes", touched}};
            try {
                const PointTiming t = time_point(ctx.device, op, pace.warmups, pace.reps, pace.target_seconds);
                set_bandwidth(point, t.timing,
                              bytes_moved(VRB_OP_STRIDED_READ, stride_width, op.count).total() * t.passes, ctx,
                              touched);
                detail["passes"] = t.passes;
                const uint64_t want = reference_strided_sum(stride_seed, s, op.count);
                if (t.timing.output.checksum != want)
                    mark_verification_failed(
                        point, fmt::format("checksum {:#x}, expected {:#x}", t.timing.output.checksum, want));
                else
                    point.verification = {Verification::Status::passed, "checksum matches the host"};
            } catch (const Error &e) {
                mark_run_failed(point, e);
            }
            curve.add(static_cast<double>(s), point, std::move(detail));
        }
        ProbeResult r = make_result(ctx, id());
        r.parameters = {{"operation", "strided-read"},
                        {"element_bytes", stride_width},
                        {"array_bytes", bytes},
                        {"strides", strides},
                        {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                        {"warmups", pace.warmups},
                        {"repetitions", pace.reps},
                        {"footprint_bytes", footprint.bytes},
                        {"size_rule", footprint.size_rule},
                        {"size_reason", footprint.reason}};
        r.byte_counting = fmt::format("{}, per pass, times the passes each run made: the bytes the program uses, "
                                      "not the cache lines the memory moves",
                                      counting_rule(VRB_OP_STRIDED_READ));
        ctx.emit(curve.finish(std::move(r), nullptr));
    }
};

} // namespace

std::unique_ptr<Probe> make_stride_probe()
{
    return std::make_unique<StrideProbe>();
}

} // namespace vrb
