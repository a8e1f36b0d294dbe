// bandwidth.stream: the STREAM family (read, write, copy, scale, add, triad, dot) at a
// size well past the last-level cache, every result verified on the host.
#include "curve.hpp"
#include "offered.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <array>

namespace vrb {

namespace {

constexpr uint32_t stream_seed_b = 0x1001, stream_seed_c = 0x2002, stream_seed_a = 0x3003;
constexpr uint32_t stream_scalar = 3;

constexpr std::array<vrb_op_kind, 7> stream_ops{VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE,
                                                VRB_OP_ADD,  VRB_OP_TRIAD, VRB_OP_DOT};

class StreamProbe final : public Probe {
  public:
    std::string_view id() const override { return "bandwidth.stream"; }
    std::string_view summary() const override
    {
        return "read, write, copy, scale, add, triad and dot bandwidth past the last-level cache";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_stream_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const StreamPlan plan = plan_stream(ctx.record, ctx.options);
        const uint32_t kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | plan.preferred_flags);
        const std::string kind_name = module_string(ctx.record.kinds.at(kind).name);
        ctx.progress("allocating " + format_size(plan.bytes) + " x 3", 0);
        auto a = ctx.device.acquire(kind, plan.bytes);
        auto b = ctx.device.acquire(kind, plan.bytes);
        auto c = ctx.device.acquire(kind, plan.bytes);
        // Pseudo-random data, so no memory compression can shrink what is moved.
        fill_random(ctx.device, *a, plan.bytes, stream_seed_a);
        fill_random(ctx.device, *b, plan.bytes, stream_seed_b);
        fill_random(ctx.device, *c, plan.bytes, stream_seed_c);

        const uint64_t lanes = plan.bytes / 4;
        std::optional<uint64_t> read_sum, dot_sum; // the same for every element width
        std::optional<nlohmann::json> driver_copy; // timed once, beside every width's copy
        const std::size_t steps = plan.widths.size() * stream_ops.size();
        std::size_t step = 0;
        for (uint32_t width : plan.widths) {
            for (vrb_op_kind kind_op : stream_ops) {
                const std::string name(op_name(kind_op));
                ctx.progress(fmt::format("{} {}B", name, width), static_cast<double>(step++) / steps);
                vrb_operation op = make_operation(kind_op, width, plan.bytes / width);
                op.scalar = stream_scalar;
                op.seed = stream_seed_a + width;
                op.dst = {a->handle(), 0};
                op.src1 = {b->handle(), 0};
                op.src2 = {c->handle(), 0};

                ProbeResult r = make_result(ctx, id());
                r.parameters = {{"operation", name},         {"element_bytes", width},     {"elements", op.count},
                                {"array_bytes", plan.bytes}, {"memory_kind", kind_name},   {"warmups", plan.warmups},
                                {"repetitions", plan.reps},  {"size_rule", plan.size_rule}};
                const Traffic traffic = bytes_moved(kind_op, width, op.count);
                r.byte_counting = fmt::format("{}, per pass, times the passes each run made", counting_rule(kind_op));
                if (!offered(ctx, r, kind_op, width, kind)) {
                    ctx.emit(std::move(r));
                    continue;
                }
                try {
                    // time_point() grows the passes until the quickest of three runs
                    // lasts half its target: 1.5 x the least, so a timed run is not shorter.
                    const PointTiming t =
                        time_point(ctx.device, op, plan.warmups, plan.reps, 3 * stream_least_run_seconds);
                    set_bandwidth(r, t.timing, traffic.total() * t.passes, ctx,
                                  traffic.total()); // each byte once a pass
                    r.parameters["passes"] = t.passes;
                    if (t.timing.output.page_bytes) r.parameters["page_bytes"] = t.timing.output.page_bytes;
                    verify(r, kind_op, t.timing.output, *a, lanes, read_sum, dot_sum, op.seed);
                    if (kind_op == VRB_OP_COPY) {
                        if (!driver_copy) driver_copy = time_driver_copy(ctx, plan, *a, *b, lanes);
                        beside_driver_copy(r, *driver_copy);
                    }
                } catch (const Error &e) {
                    mark_run_failed(r, e);
                }
                ctx.emit(std::move(r));
            }
        }
    }

  private:
    // The API's own copy (TRANSFER by the copy engine, the driver's cudaMemcpy on CUDA)
    // of the same array between the same buffers, counted as COPY is: bytes read plus
    // bytes written. A copy kernel slower than it leaves bandwidth the card has unused.
    static nlohmann::json time_driver_copy(const ProbeContext &ctx, const StreamPlan &plan, Buffer &dst, Buffer &src,
                                           uint64_t lanes)
    {
        nlohmann::json j = {{"operation", "transfer"}, {"engine", "ce"}, {"array_bytes", plan.bytes}};
        try {
            vrb_operation op = make_operation(VRB_OP_TRANSFER, 1, plan.bytes);
            op.dst = {dst.handle(), 0};
            op.src1 = {src.handle(), 0};
            const PointTiming t = time_point(ctx.device, op, plan.warmups, plan.reps, 3 * stream_least_run_seconds);
            ProbeResult point = make_result(ctx, "bandwidth.stream");
            // The traffic table counts a TRANSFER's bytes once; the copy read them and wrote them.
            const uint64_t traffic = 2 * bytes_moved(VRB_OP_TRANSFER, 1, plan.bytes).total();
            set_bandwidth(point, t.timing, traffic * t.passes, ctx, 2 * plan.bytes);
            const Mismatches m = compare_buffer(dst, 0, lanes, expect_pattern(VRB_PATTERN_RANDOM, stream_seed_b));
            if (m.count) {
                j["error"] = fmt::format("{} of {} lanes wrong after the API's copy", m.count, lanes);
                return j;
            }
            j["traffic_gb_per_s"] = *point.value;
            j["counted"] = "bytes read plus bytes written, as COPY is";
            j["passes"] = t.passes;
        } catch (const Error &e) {
            j["error"] = e.what();
        }
        return j;
    }

    static void beside_driver_copy(ProbeResult &r, const nlohmann::json &driver)
    {
        r.extra["driver_copy"] = driver;
        if (r.value && driver.contains("traffic_gb_per_s") && driver["traffic_gb_per_s"].get<double>() > 0)
            r.extra["versus_driver_copy"] = *r.value / driver["traffic_gb_per_s"].get<double>();
    }

    static void verify(ProbeResult &r, vrb_op_kind kind, const vrb_op_output &out, const Buffer &a, uint64_t lanes,
                       std::optional<uint64_t> &read_sum, std::optional<uint64_t> &dot_sum, uint32_t write_seed)
    {
        auto fail = [&](std::string detail) {
            r.verification = {Verification::Status::failed, std::move(detail)};
            r.status = ProbeResult::Status::verification_failed;
        };
        if (kind == VRB_OP_READ || kind == VRB_OP_DOT) {
            auto &want = kind == VRB_OP_READ ? read_sum : dot_sum;
            if (!want)
                want = kind == VRB_OP_READ ? reference_pattern_sum(VRB_PATTERN_RANDOM, stream_seed_b, 0, lanes)
                                           : reference_random_dot(stream_seed_b, stream_seed_c, 0, lanes);
            if (out.checksum != *want) return fail(fmt::format("checksum {:#x}, expected {:#x}", out.checksum, *want));
            r.verification = {Verification::Status::passed, fmt::format("checksum {:#x} matches the host", *want)};
            return;
        }
        const ExpectedLanes expected = kind == VRB_OP_WRITE
                                           ? expect_pattern(VRB_PATTERN_RANDOM, write_seed)
                                           : expect_stream(kind, stream_seed_b, stream_seed_c, stream_scalar);
        const Mismatches m = compare_buffer(a, 0, lanes, expected);
        if (m.count)
            return fail(fmt::format("{} of {} lanes wrong; first at byte {:#x}: {:#010x}, expected {:#010x}", m.count,
                                    lanes, m.first * 4, m.first_actual, m.first_expected));
        r.verification = {Verification::Status::passed, fmt::format("all {} lanes match the host", lanes)};
    }
};

} // namespace

std::unique_ptr<Probe> make_stream_probe()
{
    return std::make_unique<StreamProbe>();
}

} // namespace vrb
