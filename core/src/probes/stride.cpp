// pattern.stride: read bandwidth against stride, 1 element up to a page and past it,
// so coalescing, cache-line and prefetch effects show.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/sizes.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

namespace vrb {

namespace {

constexpr uint32_t seed = 0x5701;
constexpr uint32_t width = 4;

class StrideProbe final : public Probe {
  public:
    std::string_view id() const override { return "pattern.stride"; }
    std::string_view summary() const override { return "read bandwidth against stride, 1 element to past a page"; }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        // A quarter of the stream size: past the caches, and a stride-1 run stays short.
        const uint64_t bytes = std::max<uint64_t>(stream.bytes / 4 / 4096 * 4096, 4096);
        const uint64_t elements = bytes / width;
        const std::vector<uint64_t> strides = stride_plan(ctx.options.suite, width);
        for (uint64_t s : strides)
            check_stride(s, elements);
        auto src = ctx.device.acquire(kind, bytes);
        fill_random(ctx.device, *src, bytes, seed);

        const double target = ctx.options.suite == Suite::quick ? 0.5e-3 : 1e-3;
        Curve curve("stride_elements", "elements");
        for (std::size_t i = 0; i < strides.size(); ++i) {
            const uint64_t s = strides[i];
            ctx.progress(fmt::format("stride {}", s), static_cast<double>(i) / strides.size());
            ProbeResult point = make_result(ctx, id());
            // The whole buffer's span, every s-th element.
            vrb_operation op = make_operation(VRB_OP_STRIDED_READ, width, (elements - 1) / s + 1);
            op.stride = s;
            op.src1 = {src->handle(), 0};
            nlohmann::json detail = {{"elements_read", op.count}};
            try {
                const PointTiming t = time_point(ctx.device, op, stream.warmups, stream.reps, target);
                set_bandwidth(point, t.timing, bytes_moved(VRB_OP_STRIDED_READ, width, op.count).total() * t.passes,
                              ctx);
                detail["passes"] = t.passes;
                const uint64_t want = reference_strided_sum(seed, s, op.count);
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
                        {"element_bytes", width},
                        {"array_bytes", bytes},
                        {"strides", strides},
                        {"memory_kind", ctx.record.kinds.at(kind).name},
                        {"warmups", stream.warmups},
                        {"repetitions", stream.reps},
                        {"size_rule", stream.size_rule}};
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
