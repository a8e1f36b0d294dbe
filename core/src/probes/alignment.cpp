// pattern.alignment: read and copy bandwidth with the base moved by 0 ... 256 bytes,
// so the cost of a misaligned start shows.
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"
#include "stream_point.hpp"
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

#include <array>

namespace vrb {

namespace {

constexpr uint32_t alignment_seed_src = 0x5801, alignment_seed_write = 0x5901;
constexpr uint32_t alignment_width = 4; // offsets are multiples of the element: 4-byte steps

// The headline is the slowest offset (analysis/headline.hpp), with the aligned figure
// (offset 0) beside it.
void headline_the_slowest(ProbeResult &r, const Curve &curve)
{
    const Curve::Headline slowest = curve.headline(analysis::headline_rule(r.probe));
    if (!slowest.point) return;
    take_figure(r, *slowest.point);
    analysis::headline_extras(r.probe, r.parameters, slowest.index, r.extra);
}

class AlignmentProbe final : public Probe {
  public:
    std::string_view id() const override { return "pattern.alignment"; }
    std::string_view summary() const override { return "read and copy bandwidth with the base offset by 0..256 bytes"; }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_alignment_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        const std::vector<uint64_t> offsets = alignment_plan(ctx.options, alignment_width);
        // Each buffer alone holds the footprint: a read touches one, a copy two.
        const FootprintPlan footprint = plan_footprint(ctx.record, ctx.options);
        const uint64_t bytes = alignment_bytes(footprint, ctx.options.suite);
        const uint64_t buffer = bytes + offsets.back() + 4096;
        for (uint64_t o : offsets)
            check_offset(o, alignment_width, buffer);
        auto src = ctx.device.acquire(kind, buffer);
        auto dst = ctx.device.acquire(kind, buffer);
        fill_random(ctx.device, *src, buffer, alignment_seed_src);

        const CurvePlan curve_plan = curve_pace(ctx.options);
        const Pace pace{curve_plan.warmups, curve_plan.reps, curve_plan.target_seconds};
        constexpr std::array<vrb_op_kind, 2> ops{VRB_OP_READ, VRB_OP_COPY};
        std::size_t step = 0;
        for (vrb_op_kind op : ops) {
            Curve curve("offset_bytes", "bytes");
            for (uint64_t o : offsets) {
                ctx.progress(fmt::format("{} at +{}", op_name(op), o),
                             static_cast<double>(step++) / (ops.size() * offsets.size()));
                StreamPoint p;
                p.kind = op;
                p.element_bytes = alignment_width;
                p.src = src.get();
                p.dst = op == VRB_OP_COPY ? dst.get() : nullptr;
                p.offset = o;
                p.bytes = bytes;
                p.src_seed = alignment_seed_src;
                p.write_seed = alignment_seed_write + static_cast<uint32_t>(o);
                const ProbeResult point = measure_stream_point(ctx, id(), p, pace);
                curve.add(static_cast<double>(o), point, {{"passes", point.parameters.value("passes", 1)}});
            }
            ProbeResult r = make_result(ctx, id());
            r.parameters = {{"operation", op_name(op)},
                            {"element_bytes", alignment_width},
                            {"array_bytes", bytes},
                            {"offsets", offsets},
                            {"offset_applies_to", op == VRB_OP_COPY ? "source and destination" : "source"},
                            {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                            {"warmups", pace.warmups},
                            {"repetitions", pace.reps},
                            {"size_rule", footprint.size_rule + share_note(ctx.options.suite, "half")},
                            {"size_reason", footprint.reason}};
            r.byte_counting = fmt::format("{}, per pass, times the passes each run made", counting_rule(op));
            ProbeResult finished = curve.finish(std::move(r), nullptr);
            headline_the_slowest(finished, curve);
            ctx.emit(std::move(finished));
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_alignment_probe()
{
    return std::make_unique<AlignmentProbe>();
}

} // namespace vrb
