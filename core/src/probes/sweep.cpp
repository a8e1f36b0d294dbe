// bandwidth.sweep: read, write and copy bandwidth against working-set size, from a few
// KiB to well past the last cache, with the plateaus each cache level and memory make.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "growth.hpp"
#include "probe_plans.hpp"
#include "stream_point.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <optional>

namespace vrb {

namespace {

constexpr uint32_t sweep_seed_src = 0x5101, sweep_seed_write = 0x5201;
constexpr uint32_t sweep_width = 16;

class SweepProbe final : public Probe {
  public:
    std::string_view id() const override { return "bandwidth.sweep"; }
    std::string_view summary() const override
    {
        return "read, write and copy bandwidth against working-set size, with the cache plateaus named";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_sweep_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const CurvePlan plan = plan_sweep(ctx.record, ctx.options);
        // The working set is every byte the operation touches: a copy's two buffers.
        const std::vector<uint64_t> planned = sweep_sizes(plan);
        const bool is_cpu = ctx.record.info.type == VRB_DEVICE_CPU;
        uint32_t kind = 0;
        try {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | (is_cpu ? 0 : VRB_MEMORY_DEVICE_LOCAL));
        } catch (const RunError &) {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS);
        }
        ctx.progress("allocating " + format_size(planned.back()) + " x 2", 0);
        Buffers buffers{ctx.device, kind};
        buffers.hold(planned.back());

        const auto caches = plan_sweep_caches(ctx.record);
        const Pace pace{plan.warmups, plan.reps, plan.target_seconds};
        constexpr std::array<vrb_op_kind, 3> ops{VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY};
        std::size_t step = 0;
        for (vrb_op_kind op : ops) {
            Curve curve("working_set_bytes", "bytes");
            CurveGrowth growth(plan.grow, plan.to, 4096);
            std::vector<uint64_t> sizes;
            PageSizes pages;
            auto measure = [&](uint64_t x) {
                const auto begun = std::chrono::steady_clock::now();
                StreamPoint p;
                p.kind = op;
                p.element_bytes = sweep_width;
                p.src = op == VRB_OP_WRITE ? nullptr : buffers.src.get();
                p.dst = op == VRB_OP_READ ? nullptr : buffers.dst.get();
                p.bytes = op == VRB_OP_COPY ? x / 2 : x;
                p.src_seed = sweep_seed_src;
                p.write_seed = sweep_seed_write + static_cast<uint32_t>(sizes.size());
                const ProbeResult point = measure_stream_point(ctx, id(), p, pace);
                nlohmann::json detail = {{"passes", point.parameters.value("passes", 1)}};
                for (const char *key : {"every_unit_walks_the_whole_set", "per_unit_working_set_bytes", "page_bytes"})
                    if (point.parameters.contains(key)) detail[key] = point.parameters[key];
                pages.add(point.parameters.value("page_bytes", uint64_t{0}));
                curve.add(static_cast<double>(x), point, std::move(detail));
                sizes.push_back(x);
                growth.add(x, point.value,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count());
            };
            for (uint64_t x : planned) {
                ctx.progress(fmt::format("{} {}", op_name(op), format_size(x)),
                             static_cast<double>(step++) / (ops.size() * planned.size()));
                measure(x);
            }
            // Where no cache size is known, on past the plan until the figure settles.
            while (const std::optional<uint64_t> x = growth.next()) {
                ctx.progress(fmt::format("{} {} (growing until the figure settles)", op_name(op), format_size(*x)),
                             static_cast<double>(step) / (ops.size() * planned.size()));
                try {
                    buffers.hold(*x);
                } catch (const Error &e) {
                    growth.refused(*x, e.what());
                    break;
                }
                measure(*x);
            }
            ProbeResult r = make_result(ctx, id());
            r.parameters = {{"operation", op_name(op)},
                            {"element_bytes", sweep_width},
                            {"from_bytes", sizes.front()},
                            {"to_bytes", sizes.back()},
                            {"points", sizes.size()},
                            {"ratio", plan.ratio},
                            {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                            {"warmups", plan.warmups},
                            {"repetitions", plan.reps},
                            {"size_rule", plan.grow ? plan.size_rule + "; " + growth.text() : plan.size_rule},
                            {"size_reason", plan.reason}};
            pages.record(r);
            r.byte_counting = fmt::format("{}, per pass, times the passes each run made; the working set is every "
                                          "buffer byte the operation touches (a copy's source and destination)",
                                          counting_rule(op));
            r = curve.finish(std::move(r), &caches, 0, growth.settled());
            if (plan.grow) r.extra["growth"] = growth.to_json();
            ctx.emit(std::move(r));
        }
    }

  private:
    // The sweep's two buffers, the source holding the pattern; grown in place of the
    // old ones when a growing curve passes them.
    struct Buffers {
        Buffers(Device &d, uint32_t k) : device(d), kind(k) {}
        Device &device;
        uint32_t kind;
        std::unique_ptr<Buffer> src, dst;
        uint64_t bytes = 0;
        void hold(uint64_t want)
        {
            if (want <= bytes) return;
            // The old pair goes first: a quarter of memory each, the new pair would not fit beside it.
            const uint64_t had = bytes;
            src.reset();
            dst.reset();
            bytes = 0;
            try {
                take(want);
            } catch (const Error &) {
                src.reset();
                dst.reset();
                if (had) take(had);
                throw;
            }
        }
        void take(uint64_t n)
        {
            src = device.acquire(kind, n);
            dst = device.acquire(kind, n);
            fill_random(device, *src, n, sweep_seed_src);
            bytes = n;
        }
    };
};

} // namespace

std::unique_ptr<Probe> make_sweep_probe()
{
    return std::make_unique<SweepProbe>();
}

} // namespace vrb
