// interop.handoff: one allocation written through one API and read through another.
// The exporter fills it with pseudo-random lanes and the importer checks every lane;
// then the importer writes other lanes and the exporter checks them. Verified, or failed
// with the first wrong byte.
#include "curve.hpp"
#include "interop_pairs.hpp"
#include "interop_probes.hpp"
#include "pair_plans.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

namespace vrb {

namespace {

constexpr uint32_t interop_handoff_seed_there = 0x1a7e0001, interop_handoff_seed_back = 0x1a7e0002;

struct Check {
    uint64_t mismatches = 0;
    uint64_t first_byte = 0;
};

// `writer` fills the lanes, `reader` checks them, each on its own view of the memory.
Check hand_over(Device &writer, Buffer &written, Device &reader, Buffer &read, uint64_t bytes, uint32_t seed)
{
    const uint32_t width = pattern_element_bytes(bytes);
    vrb_operation fill = make_operation(VRB_OP_FILL, width, bytes / width);
    fill.pattern = VRB_PATTERN_RANDOM;
    fill.seed = seed;
    fill.dst = {written.handle(), 0};
    writer.run(fill, 1);
    vrb_operation check = make_operation(VRB_OP_CHECK, width, bytes / width);
    check.pattern = VRB_PATTERN_RANDOM;
    check.seed = seed;
    check.src1 = {read.handle(), 0};
    const Device::RunOutput out = reader.run(check, 1);
    return {out.output.mismatches, out.output.first_mismatch * 4};
}

class InteropHandoffProbe final : public Probe {
  public:
    std::string_view id() const override { return "interop.handoff"; }
    std::string_view summary() const override
    {
        return "bytes written through one API checked through another, both ways, for every pair on the card";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_interop_handoff(
            device, options,
            interop::shareable_bytes(options.size.value_or(options.suite == Suite::quick ? 4ull << 20 : 64ull << 20)));
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<std::string> skipped;
        std::vector<interop::Pair> pairs = interop::find_pairs(ctx, skipped);
        if (pairs.empty()) return ctx.emit(interop::make_no_pair_result(ctx, id(), skipped));
        const uint64_t bytes = interop::shareable_bytes(
            ctx.options.size.value_or(ctx.options.suite == Suite::quick ? 4ull << 20 : 64ull << 20));
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            interop::Pair &pair = pairs[i];
            ctx.progress(pair.name, static_cast<double>(i) / pairs.size());
            ProbeResult r = interop::make_pair_result(ctx, id(), pair);
            r.metric = "count";
            r.unit = std::string("1");
            r.parameters["array_bytes"] = bytes;
            r.byte_counting = "lanes (32-bit words) that read back different from what the other API wrote";
            try {
                interop::Shared shared = interop::share(pair, ctx.device, bytes);
                const Check there = hand_over(*pair.exporter, *shared.exported, ctx.device, *shared.imported, bytes,
                                              interop_handoff_seed_there);
                const Check back = hand_over(ctx.device, *shared.imported, *pair.exporter, *shared.exported, bytes,
                                             interop_handoff_seed_back);
                const uint64_t wrong = there.mismatches + back.mismatches;
                r.value = static_cast<double>(wrong);
                r.samples = {static_cast<double>(wrong)};
                r.extra["exporter_to_importer_mismatches"] = there.mismatches;
                r.extra["importer_to_exporter_mismatches"] = back.mismatches;
                if (wrong == 0) {
                    r.verification = {Verification::Status::passed,
                                      fmt::format("all {} lanes written by {} read back through {}, and back",
                                                  bytes / 4, pair.exporter_id, ctx.record.id)};
                } else {
                    const bool first_way = there.mismatches != 0;
                    const Check &bad = first_way ? there : back;
                    r.extra["first_mismatch_byte"] = bad.first_byte;
                    mark_verification_failed(
                        r, fmt::format("{} of {} lanes wrong when {} read what {} wrote; first wrong byte {:#x}",
                                       bad.mismatches, bytes / 4, first_way ? ctx.record.id : pair.exporter_id,
                                       first_way ? pair.exporter_id : ctx.record.id, bad.first_byte));
                }
            } catch (const Error &e) {
                interop::mark_error(r, e);
            }
            ctx.emit(std::move(r));
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_interop_handoff_probe()
{
    return std::make_unique<InteropHandoffProbe>();
}

} // namespace vrb
