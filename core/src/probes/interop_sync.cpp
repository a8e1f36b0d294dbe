// interop.sync: the round trip of a semaphore signal from one API to another and back.
// ABI 1.2 shares memory, not semaphores: no module exports a semaphore yet, so every pair
// is reported skipped with that reason, never measured by another means.
#include "interop_pairs.hpp"
#include "interop_probes.hpp"

#include <fmt/format.h>

namespace vrb {

namespace {

class InteropSyncProbe final : public Probe {
  public:
    std::string_view id() const override { return "interop.sync"; }
    std::string_view summary() const override
    {
        return "semaphore round trip between two APIs (skipped: the ABI shares no semaphore yet)";
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<std::string> skipped;
        std::vector<interop::Pair> pairs = interop::find_pairs(ctx, skipped);
        if (pairs.empty()) return ctx.emit(interop::make_no_pair_result(ctx, id(), skipped));
        for (const interop::Pair &pair : pairs) {
            ProbeResult r = interop::make_pair_result(ctx, id(), pair);
            r.metric = "latency";
            r.unit = "ns";
            r.status = ProbeResult::Status::skipped;
            r.error = fmt::format("no external semaphore between {} and {}: the plugin ABI (1.2) exports memory "
                                  "only, so a signal cannot cross from one API to the other",
                                  pair.exporter_id, ctx.record.id);
            r.verification = {Verification::Status::unverified, "nothing was measured"};
            ctx.emit(std::move(r));
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_interop_sync_probe()
{
    return std::make_unique<InteropSyncProbe>();
}

} // namespace vrb
