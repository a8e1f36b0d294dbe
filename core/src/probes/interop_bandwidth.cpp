// interop.bandwidth: the importer's read, copy and triad on memory another API (or
// another device of its own API) exported, beside the same operations on its own
// memory, with their ratio. Every figure verified as bandwidth.stream verifies it.
#include "curve.hpp"
#include "interop_pairs.hpp"
#include "interop_probes.hpp"
#include "pair_plans.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/link_bound.hpp>
#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <array>
#include <exception>
#include <optional>

namespace vrb {

namespace {

constexpr uint32_t interop_bandwidth_seed_b = 0x1b0b0001, interop_bandwidth_seed_c = 0x1b0b0002,
                   interop_bandwidth_seed_a = 0x1b0b0003;
constexpr uint32_t interop_bandwidth_scalar = 3;
constexpr uint32_t interop_bandwidth_width = 16;
constexpr std::array<vrb_op_kind, 3> ops{VRB_OP_READ, VRB_OP_COPY, VRB_OP_TRIAD};
// Three arrays shared, each mapped by the exporter and again by the importer.
constexpr uint64_t shared_held_arrays = 6;

struct Arrays {
    Buffer *a, *b, *c; // dst, src1, src2
};

struct Figure {
    Timing timing;
    uint32_t passes = 1;              // over the arrays in each timed run
    std::optional<std::string> wrong; // why verification failed

    // Bytes over the median run, where one pass moves `moved`.
    double gb_per_s(uint64_t moved) const
    {
        return static_cast<double>(moved) * passes / summarize(timing.seconds).median / bytes_per_gb;
    }
};

Figure measure(Device &device, vrb_op_kind kind, const Arrays &arrays, uint64_t bytes, const StreamPlan &plan)
{
    const uint64_t lanes = bytes / 4;
    // So a copy that never ran cannot verify; a read writes nothing there.
    if (kind != VRB_OP_READ) fill_random(device, *arrays.a, bytes, interop_bandwidth_seed_a);
    vrb_operation op = make_operation(kind, interop_bandwidth_width, bytes / interop_bandwidth_width);
    op.scalar = interop_bandwidth_scalar;
    op.dst = {arrays.a->handle(), 0};
    op.src1 = {arrays.b->handle(), 0};
    op.src2 = {arrays.c->handle(), 0};
    // Several passes a run where one is short, as bandwidth.stream times them: a single
    // pass of the stream size lasts a fraction of a millisecond on a GPU, and the
    // launch's ramp and tail would read as memory time.
    const PointTiming t = time_point(device, op, plan.warmups, plan.reps, 3 * stream_least_run_seconds);
    Figure f{t.timing, t.passes, std::nullopt};
    if (kind == VRB_OP_READ) {
        const uint64_t want = reference_pattern_sum(VRB_PATTERN_RANDOM, interop_bandwidth_seed_b, 0, lanes);
        if (f.timing.output.checksum != want)
            f.wrong = fmt::format("checksum {:#x}, expected {:#x}", f.timing.output.checksum, want);
        return f;
    }
    if (kind == VRB_OP_COPY) {
        // What a copy leaves is the source's pattern: the device checks every lane of it
        // where it is, rather than the host reading the whole array back.
        const vrb_op_output out = check_random(device, *arrays.a, bytes, interop_bandwidth_seed_b);
        if (out.mismatches)
            f.wrong = fmt::format("{} of {} lanes wrong, as the device checked them; the first at byte {:#x}",
                                  out.mismatches, lanes, out.first_mismatch * 4);
        return f;
    }
    const Mismatches m = compare_buffer(
        *arrays.a, 0, lanes,
        expect_stream(kind, interop_bandwidth_seed_b, interop_bandwidth_seed_c, interop_bandwidth_scalar));
    if (m.count)
        f.wrong = fmt::format("{} of {} lanes wrong; first at byte {:#x}: {:#010x}, expected {:#010x}", m.count, lanes,
                              m.first * 4, m.first_actual, m.first_expected);
    return f;
}

class InteropBandwidthProbe final : public Probe {
  public:
    std::string_view id() const override { return "interop.bandwidth"; }
    std::string_view summary() const override
    {
        return "read, copy and triad on memory imported from another API, against the device's own memory";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_interop_bandwidth(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<std::string> skipped;
        std::vector<interop::Pair> pairs = interop::find_pairs(ctx, skipped);
        if (pairs.empty()) return ctx.emit(interop::make_no_pair_result(ctx, id(), skipped));
        StreamPlan plan = plan_stream(ctx.record, ctx.options);
        // The stream size where the pairs share that much in one allocation, else the most
        // they share: a software driver binds 128 MiB at once, the stream size is past it.
        const uint64_t bytes = interop::cap_to_shareable(
            interop::shareable_bytes(plan.bytes / interop_bandwidth_width * interop_bandwidth_width),
            interop_bandwidth_width, ctx.record, pairs, plan.size_rule);
        const uint32_t own_kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | plan.preferred_flags);
        // The device's own memory is measured first, once per operation, and set beside
        // every pair's figure (it does not depend on the pair); its arrays are gone before
        // any pair shares memory. Where the device's memory is the machine's RAM, a shared
        // array is resident twice in this process (the exporter's mapping and the
        // importer's), and the own arrays beside them would take the run past its budget.
        std::array<std::optional<Figure>, ops.size()> mine;
        std::array<std::exception_ptr, ops.size()> mine_failed;
        {
            ctx.progress("allocating " + format_size(bytes) + " x 3 of the device's own memory", 0);
            auto own_a = ctx.device.acquire(own_kind, bytes);
            auto own_b = ctx.device.acquire(own_kind, bytes);
            auto own_c = ctx.device.acquire(own_kind, bytes);
            fill_random(ctx.device, *own_b, bytes, interop_bandwidth_seed_b);
            fill_random(ctx.device, *own_c, bytes, interop_bandwidth_seed_c);
            const Arrays own{own_a.get(), own_b.get(), own_c.get()};
            for (std::size_t op = 0; op < ops.size(); ++op) {
                try {
                    mine[op] = measure(ctx.device, ops[op], own, bytes, plan);
                } catch (const Error &) {
                    mine_failed[op] = std::current_exception();
                }
            }
        }
        ctx.device.pool().make_room(shared_held_arrays * bytes);
        const auto own_figure = [&](std::size_t op) -> const Figure & {
            if (mine_failed[op]) std::rethrow_exception(mine_failed[op]);
            return *mine[op];
        };

        for (std::size_t i = 0; i < pairs.size(); ++i) {
            interop::Pair &pair = pairs[i];
            ctx.progress(pair.name, static_cast<double>(i) / pairs.size());
            std::optional<interop::Shared> a, b, c;
            std::optional<ProbeResult> refused;
            try {
                a.emplace(interop::share(pair, ctx.device, bytes));
                b.emplace(interop::share(pair, ctx.device, bytes));
                c.emplace(interop::share(pair, ctx.device, bytes));
                // The exporter writes the sources: the data crossed the APIs before it is read.
                fill_random(*pair.exporter, *b->exported, bytes, interop_bandwidth_seed_b);
                fill_random(*pair.exporter, *c->exported, bytes, interop_bandwidth_seed_c);
            } catch (const Error &e) {
                ProbeResult r = interop::make_pair_result(ctx, id(), pair);
                r.parameters["array_bytes"] = bytes;
                interop::mark_error(r, e);
                ctx.emit(std::move(r));
                continue;
            }
            const Arrays imported{a->imported.get(), b->imported.get(), c->imported.get()};
            // Host memory the exporter shares lies across the importer's link.
            const std::vector<vrb_memory_kind_info> exporter_kinds = pair.exporter->memory_kinds();
            const bool across_link =
                pair.kind < exporter_kinds.size() && (exporter_kinds[pair.kind].flags & VRB_MEMORY_HOST_MEMORY);
            for (std::size_t op = 0; op < ops.size(); ++op) {
                const vrb_op_kind kind = ops[op];
                ProbeResult r = interop::make_pair_result(ctx, id(), pair);
                r.parameters["operation"] = std::string(op_name(kind));
                r.parameters["element_bytes"] = interop_bandwidth_width;
                r.parameters["array_bytes"] = bytes;
                r.parameters["own_memory_kind"] = ctx.record.kinds.at(own_kind).name;
                r.parameters["warmups"] = plan.warmups;
                r.parameters["repetitions"] = plan.reps;
                r.parameters["size_rule"] = plan.size_rule;
                r.byte_counting = fmt::format("{}, per pass, times the passes each run made", counting_rule(kind));
                const uint64_t moved =
                    bytes_moved(kind, interop_bandwidth_width, bytes / interop_bandwidth_width).total();
                try {
                    const Figure theirs = measure(ctx.device, kind, imported, bytes, plan);
                    const Figure &mine = own_figure(op);
                    set_bandwidth(r, theirs.timing, moved * theirs.passes, ctx, moved);
                    r.parameters["passes"] = theirs.passes;
                    if (across_link)
                        check_link_bound(r, ctx.record,
                                         link_directions(bytes_moved(kind, interop_bandwidth_width,
                                                                     bytes / interop_bandwidth_width)),
                                         fmt::format("{} on host memory {} shares", op_name(kind), pair.exporter_id));
                    const double own_gb = mine.gb_per_s(moved);
                    const double imported_gb = theirs.gb_per_s(moved);
                    r.extra["own_memory_gb_per_s"] = own_gb;
                    r.extra["own_memory_passes"] = mine.passes;
                    r.extra["imported_gb_per_s"] = imported_gb;
                    r.extra["ratio_to_own_memory"] = imported_gb / own_gb;
                    r.extra["ratio_is"] = "median bandwidth on imported memory / median on the device's own memory";
                    if (theirs.wrong)
                        mark_verification_failed(r, "on imported memory: " + *theirs.wrong);
                    else if (mine.wrong)
                        mark_verification_failed(r, "on the device's own memory: " + *mine.wrong);
                    else
                        r.verification = {Verification::Status::passed,
                                          "imported and own memory both match the host's arithmetic"};
                } catch (const Error &e) {
                    interop::mark_error(r, e);
                }
                ctx.emit(std::move(r));
            }
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_interop_bandwidth_probe()
{
    return std::make_unique<InteropBandwidthProbe>();
}

} // namespace vrb
