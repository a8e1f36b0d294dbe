// pattern.gather: bandwidth of reads through an index buffer, sequential indices
// against a random permutation of the same indices.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "offered.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <numeric>

namespace vrb {

namespace {

constexpr uint32_t gather_seed = 0x5a01;
constexpr uint32_t gather_width = gather_element_bytes;

// A permutation of [0, n) from a fixed generator: every element read exactly once,
// in an order no prefetcher can guess.
std::vector<uint32_t> shuffled(uint64_t n)
{
    std::vector<uint32_t> out(n);
    std::iota(out.begin(), out.end(), 0u);
    uint64_t state = 0x9a7e;
    for (uint64_t i = n; i-- > 1;) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(out[i], out[(state >> 17) % (i + 1)]);
    }
    return out;
}

class GatherProbe final : public Probe {
  public:
    std::string_view id() const override { return "pattern.gather"; }
    std::string_view summary() const override
    {
        return "bandwidth of reads through an index buffer: sequential against random indices";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_gather_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan stream = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | stream.preferred_flags);
        // The data array is the footprint (quick: data and indices a quarter of it); both
        // are read once a pass.
        const FootprintPlan footprint = plan_footprint(ctx.record, ctx.options);
        const uint64_t n = gather_elements(footprint, ctx.options.suite);
        auto data = ctx.device.acquire(kind, n * gather_width);
        auto index = ctx.device.acquire(kind, n * 4);
        fill_random(ctx.device, *data, n * gather_width, gather_seed);
        // Every order reads each element once, so both sum to the same checksum.
        const uint64_t want = reference_pattern_sum(VRB_PATTERN_RANDOM, gather_seed, 0, n);
        const CurvePlan pace = curve_pace(ctx.options);

        std::optional<double> sequential;
        for (const char *order : {"sequential", "random"}) {
            ctx.progress(std::string(order) + " indices", std::string_view(order) == "random" ? 0.5 : 0);
            ProbeResult r = make_result(ctx, id());
            r.parameters = {{"operation", "gather"},
                            {"indices", order},
                            {"element_bytes", gather_width},
                            {"elements", n},
                            {"array_bytes", n * gather_width},
                            {"index_bytes", n * 4},
                            {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                            {"warmups", pace.warmups},
                            {"repetitions", pace.reps},
                            {"size_rule", footprint.size_rule + gather_size_note(ctx.options.suite)},
                            {"size_reason", footprint.reason}};
            r.byte_counting = fmt::format("{}, per pass, times the passes each run made", counting_rule(VRB_OP_GATHER));
            if (!offered(ctx, r, VRB_OP_GATHER, gather_width, kind)) {
                ctx.emit(std::move(r));
                continue;
            }
            try {
                std::vector<uint32_t> indices(n);
                if (std::string_view(order) == "random")
                    indices = shuffled(n);
                else
                    std::iota(indices.begin(), indices.end(), 0u);
                index->upload(0, std::as_bytes(std::span(indices)));
                vrb_operation op = make_operation(VRB_OP_GATHER, gather_width, n);
                op.src1 = {data->handle(), 0};
                op.src2 = {index->handle(), 0};
                const PointTiming t = time_point(ctx.device, op, pace.warmups, pace.reps, pace.target_seconds);
                const uint64_t per_pass = bytes_moved(VRB_OP_GATHER, gather_width, n).total();
                set_bandwidth(r, t.timing, per_pass * t.passes, ctx, per_pass);
                r.parameters["passes"] = t.passes;
                if (t.timing.output.checksum != want)
                    mark_verification_failed(
                        r, fmt::format("checksum {:#x}, expected {:#x}", t.timing.output.checksum, want));
                else
                    r.verification = {Verification::Status::passed, "checksum matches the host"};
                if (!sequential)
                    sequential = r.value;
                else if (r.value && *sequential > 0)
                    r.extra = {{"ratio_to_sequential", *r.value / *sequential}};
            } catch (const Error &e) {
                mark_run_failed(r, e);
            }
            ctx.emit(std::move(r));
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_gather_probe()
{
    return std::make_unique<GatherProbe>();
}

} // namespace vrb
