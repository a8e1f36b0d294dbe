// interop.import: what sharing costs once, against size: the median time to export a
// buffer, import it into the other API (which maps it where the memory is host-visible)
// and touch it first there. The first touch is a READ whose checksum is verified, so
// the time is that of memory that really holds what the exporter wrote.
#include "curve.hpp"
#include "interop_pairs.hpp"
#include "interop_probes.hpp"
#include "pair_plans.hpp"

#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <chrono>

namespace vrb {

namespace {

constexpr uint32_t interop_import_seed = 0x1a9b0001;

uint32_t repetitions_for(const ProbeOptions &options)
{
    if (options.repetitions) return *options.repetitions;
    return options.suite == Suite::quick ? 3 : options.suite == Suite::full ? 10 : 5;
}

std::vector<uint64_t> sizes_for(const ProbeOptions &options)
{
    if (options.size) return {interop::shareable_bytes(*options.size)};
    const uint64_t largest = options.suite == Suite::quick  ? 16ull << 20
                             : options.suite == Suite::full ? 1ull << 30
                                                            : 256ull << 20;
    std::vector<uint64_t> sizes;
    for (uint64_t bytes = 1ull << 20; bytes <= largest; bytes *= 4)
        sizes.push_back(bytes);
    return sizes;
}

class InteropImportProbe final : public Probe {
  public:
    std::string_view id() const override { return "interop.import"; }
    std::string_view summary() const override
    {
        return "median time to export, import and first touch a shared buffer, against size";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_interop_import(device, options, sizes_for(options), repetitions_for(options));
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<std::string> skipped;
        std::vector<interop::Pair> pairs = interop::find_pairs(ctx, skipped);
        if (pairs.empty()) return ctx.emit(interop::make_no_pair_result(ctx, id(), skipped));
        const std::vector<uint64_t> sizes = sizes_for(ctx.options);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            interop::Pair &pair = pairs[i];
            for (std::size_t s = 0; s < sizes.size(); ++s) {
                const uint64_t bytes = sizes[s];
                ctx.progress(fmt::format("{} {}", pair.name, format_size(bytes)),
                             static_cast<double>(i * sizes.size() + s) / (pairs.size() * sizes.size()));
                ProbeResult r = interop::make_pair_result(ctx, id(), pair);
                r.metric = "time";
                r.unit = std::string("s"); // a literal assigned here trips GCC 12's -Wrestrict (a false positive)
                r.parameters["array_bytes"] = bytes;
                r.parameters["repetitions"] = repetitions_for(ctx.options);
                r.byte_counting = "none: seconds from the export call to the end of the importer's first read";
                try {
                    measure(ctx, pair, bytes, r);
                } catch (const Error &e) {
                    interop::mark_error(r, e);
                }
                ctx.emit(std::move(r));
            }
        }
    }

  private:
    static void measure(ProbeContext &ctx, interop::Pair &pair, uint64_t bytes, ProbeResult &r)
    {
        std::vector<double> exports, imports, touches, totals;
        const uint64_t lanes = bytes / 4;
        const uint64_t want = reference_pattern_sum(VRB_PATTERN_RANDOM, interop_import_seed, 0, lanes);
        const uint32_t width = pattern_element_bytes(bytes);
        bool walked_per_unit = false;
        for (uint32_t rep = 0, reps = repetitions_for(ctx.options); rep < reps; ++rep) {
            std::unique_ptr<Buffer> exported =
                pair.exportable_alloc ? allocate_exportable(*pair.exporter, pair.kind, bytes, VRB_EXTERNAL_OPAQUE_FD)
                                      : pair.exporter->allocate(pair.kind, bytes);
            fill_random(*pair.exporter, *exported, bytes, interop_import_seed);
            const auto start = std::chrono::steady_clock::now();
            ExternalHandle handle = export_buffer(*exported);
            const auto exported_at = std::chrono::steady_clock::now();
            std::unique_ptr<Buffer> imported = import_buffer(ctx.device, handle);
            const auto imported_at = std::chrono::steady_clock::now();
            // One read of the set, shared out over the device: a set small enough for every
            // unit to walk it whole would cross the link once per unit.
            vrb_operation read = make_operation(VRB_OP_READ, width, bytes / width);
            read.src1 = {imported->handle(), 0};
            read.flags |= VRB_OPERATION_ONE_READ;
            const Device::RunOutput out = ctx.device.run(read, 1);
            walked_per_unit = walked_per_unit || (out.output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
            const auto touched_at = std::chrono::steady_clock::now();
            imported.reset(); // before the memory it uses
            if (out.output.checksum != want) {
                mark_verification_failed(r, fmt::format("the first read through {} gave checksum {:#x}, expected {:#x}",
                                                        ctx.record.id, out.output.checksum, want));
                return;
            }
            using Seconds = std::chrono::duration<double>;
            exports.push_back(Seconds(exported_at - start).count());
            imports.push_back(Seconds(imported_at - exported_at).count());
            touches.push_back(Seconds(touched_at - imported_at).count());
            totals.push_back(Seconds(touched_at - start).count());
        }
        const Statistics total = summarize(totals);
        r.timer = "host-monotonic";
        r.seconds = totals;
        r.samples = totals;
        r.statistics = total;
        r.value = pick(total, ctx.options.estimator);
        r.extra["export_seconds_median"] = summarize(exports).median;
        r.extra["import_seconds_median"] = summarize(imports).median;
        r.extra["first_touch_seconds_median"] = summarize(touches).median;
        // What the importer did with the read asked once: a module that does not know the
        // ask walks a small set on every unit, and the first touch then counts every walk.
        r.extra["first_read"] = walked_per_unit ? "every unit walked the set" : "one read of the set";
        r.verification = {Verification::Status::passed,
                          fmt::format("every first read gave the checksum of what {} wrote", pair.exporter_id)};
    }
};

} // namespace

std::unique_ptr<Probe> make_interop_import_probe()
{
    return std::make_unique<InteropImportProbe>();
}

} // namespace vrb
