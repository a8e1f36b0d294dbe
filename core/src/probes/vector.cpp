// pattern.vector: read and copy bandwidth with 4-, 8- and 16-byte accesses.
#include "curve_probes.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"
#include "stream_point.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

namespace vrb {

namespace {

constexpr uint32_t vector_seed_src = 0x5b01, vector_seed_write = 0x5c01;

class VectorProbe final : public Probe {
  public:
    std::string_view id() const override { return "pattern.vector"; }
    std::string_view summary() const override { return "read and copy bandwidth with 4-, 8- and 16-byte accesses"; }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_vector_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        auto src = ctx.device.acquire(kind, stream.bytes);
        auto dst = ctx.device.acquire(kind, stream.bytes);
        fill_random(ctx.device, *src, stream.bytes, vector_seed_src);
        const Pace pace{stream.warmups, stream.reps, 1e-3};
        std::size_t step = 0;
        for (vrb_op_kind op : {VRB_OP_READ, VRB_OP_COPY}) {
            for (uint32_t width : {4u, 8u, 16u}) {
                ctx.progress(fmt::format("{} {}B", op_name(op), width), static_cast<double>(step++) / 6);
                StreamPoint p;
                p.kind = op;
                p.element_bytes = width;
                p.src = src.get();
                p.dst = op == VRB_OP_COPY ? dst.get() : nullptr;
                p.bytes = stream.bytes;
                p.src_seed = vector_seed_src;
                p.write_seed = vector_seed_write + width;
                ProbeResult r = measure_stream_point(ctx, id(), p, pace);
                const auto passes = r.parameters.value("passes", 1);
                r.parameters = {{"operation", op_name(op)},
                                {"element_bytes", width},
                                {"array_bytes", stream.bytes},
                                {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                                {"warmups", stream.warmups},
                                {"repetitions", stream.reps},
                                {"passes", passes},
                                {"size_rule", stream.size_rule}};
                ctx.emit(std::move(r));
            }
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_vector_probe()
{
    return std::make_unique<VectorProbe>();
}

} // namespace vrb
