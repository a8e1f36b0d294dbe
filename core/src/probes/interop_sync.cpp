// interop.sync: the round trip of a timeline semaphore signal from one API to another
// and back (docs/interop.md). The exporter A creates two semaphores and exports both;
// the importer B imports them. Trip n: A signals s1 = 2n-1; B waits for it and signals
// s2 = n; A waits for s2 = n and signals s1 = 2n; the host waits until s1 holds 2n. The
// same trip on A's own two semaphores, with no other API in between, is the figure it
// is set against.
#include "curve.hpp"
#include "interop_pairs.hpp"
#include "interop_probes.hpp"
#include "pair_plans.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace vrb {

namespace {

// Long enough for a loaded machine's slowest trip, short enough that a wait that never
// ends fails the result instead of the run.
constexpr uint64_t trip_timeout_ns = 10'000'000'000ull;
// How long the ordering check lets a wait that must not end yet run before it looks.
constexpr uint64_t held_wait_ns = 2'000'000ull;

uint32_t trips_for(Suite suite)
{
    switch (suite) {
    case Suite::quick: return 200;
    case Suite::standard: return 2000;
    case Suite::full: return 10000;
    }
    return 2000;
}

double percentile(std::vector<double> values, double fraction)
{
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

// The four ends of a round trip: s1 as A signals it and as B waits for it, s2 as B
// signals it and as A waits for it. Within one API, each pair is one semaphore.
struct Trip {
    Semaphore &a_s1, &b_s1, &b_s2, &a_s2;
    uint64_t s1 = 0, s2 = 0; // the values each counter was last signalled to
};

// B's signal of s2 waits for A's signal of s1: checked before anything is timed, since
// a module that ignored the wait would otherwise measure nothing and look fast.
std::optional<std::string> order_problem(Trip &t)
{
    const uint64_t wanted = t.s1 + 1;
    t.b_s1.device_wait(wanted);
    std::optional<std::string> problem;
    try {
        t.b_s2.signal(++t.s2);
        try {
            t.a_s2.host_wait(t.s2, held_wait_ns);
            problem = fmt::format("s2 reached {} before s1 was signalled {}: the device-side wait did not hold", t.s2,
                                  wanted);
        } catch (const BackendError &e) {
            if (e.status() != VRB_ERROR_DEVICE) throw;
        }
    } catch (...) {
        // B's queue waits for s1: it is released before anything is freed.
        try {
            t.a_s1.signal(wanted);
        } catch (const Error &) {
        }
        throw;
    }
    t.a_s1.signal(++t.s1);
    t.a_s2.host_wait(t.s2, trip_timeout_ns);
    return problem;
}

// Nanoseconds of each trip, host clock from A's first signal to the host's wait ending.
std::vector<double> round_trips(Trip &t, uint32_t trips)
{
    std::vector<double> ns;
    ns.reserve(trips);
    for (uint32_t i = 0; i < trips; ++i) {
        const auto start = std::chrono::steady_clock::now();
        t.a_s1.signal(++t.s1);
        t.b_s1.device_wait(t.s1);
        t.b_s2.signal(++t.s2);
        t.a_s2.device_wait(t.s2);
        t.a_s1.signal(++t.s1);
        t.a_s1.host_wait(t.s1, trip_timeout_ns);
        ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    }
    return ns;
}

class InteropSyncProbe final : public Probe {
  public:
    std::string_view id() const override { return "interop.sync"; }
    std::string_view summary() const override
    {
        return "timeline semaphore round trip A -> B -> A between two APIs, beside the same trip inside one";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_interop_sync(device, options, trips_for(options.suite));
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<std::string> skipped;
        std::vector<interop::Pair> pairs = interop::find_pairs(ctx, skipped, interop::Sharing::semaphores);
        if (pairs.empty())
            return ctx.emit(interop::make_no_pair_result(ctx, id(), skipped, interop::Sharing::semaphores));
        const uint32_t trips = trips_for(ctx.options.suite);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            interop::Pair &pair = pairs[i];
            ctx.progress(pair.name, static_cast<double>(i) / pairs.size());
            ProbeResult r = interop::make_pair_result(ctx, id(), pair);
            r.metric = "latency";
            r.unit = "ns";
            r.parameters["trips"] = trips;
            r.byte_counting = "none: nanoseconds from A's signal until the host saw A past its wait for B";
            try {
                measure(ctx, pair, trips, r);
            } catch (const Error &e) {
                mark_error(r, e);
            }
            ctx.emit(std::move(r));
        }
    }

  private:
    static void mark_error(ProbeResult &r, const Error &e)
    {
        const auto *backend = dynamic_cast<const BackendError *>(&e);
        if (backend && backend->status() == VRB_ERROR_UNSUPPORTED) {
            r.status = ProbeResult::Status::skipped;
            r.error = e.what();
            r.verification = {Verification::Status::unverified, "no semaphore crossed between the two"};
            return;
        }
        mark_run_failed(r, e);
    }

    static void measure(ProbeContext &ctx, interop::Pair &pair, uint32_t trips, ProbeResult &r)
    {
        Device &a = *pair.exporter;
        // Declared before the imports: an imported semaphore goes first.
        std::unique_ptr<Semaphore> a_s1 = create_exportable_semaphore(a, VRB_EXTERNAL_OPAQUE_FD);
        std::unique_ptr<Semaphore> a_s2 = create_exportable_semaphore(a, VRB_EXTERNAL_OPAQUE_FD);
        ExternalHandle h1 = export_semaphore(*a_s1);
        ExternalHandle h2 = export_semaphore(*a_s2);
        std::unique_ptr<Semaphore> b_s1 = import_semaphore(ctx.device, h1);
        std::unique_ptr<Semaphore> b_s2 = import_semaphore(ctx.device, h2);

        Trip across{*a_s1, *b_s1, *b_s2, *a_s2};
        if (auto problem = order_problem(across)) return mark_verification_failed(r, *problem);
        const uint32_t warm_up = std::max<uint32_t>(5, trips / 20);
        round_trips(across, warm_up);
        const std::vector<double> ns = round_trips(across, trips);

        std::unique_ptr<Semaphore> t1 = create_exportable_semaphore(a, VRB_EXTERNAL_OPAQUE_FD);
        std::unique_ptr<Semaphore> t2 = create_exportable_semaphore(a, VRB_EXTERNAL_OPAQUE_FD);
        // No ordering check here: a wait A's own queue holds cannot be released by a
        // signal queued behind it.
        Trip within{*t1, *t1, *t2, *t2};
        round_trips(within, warm_up);
        const std::vector<double> own = round_trips(within, trips);

        const Statistics stats = summarize(ns);
        const Statistics own_stats = summarize(own);
        r.timer = "host-monotonic";
        r.samples = ns;
        r.seconds.reserve(ns.size());
        for (const double n : ns)
            r.seconds.push_back(n * 1e-9);
        r.statistics = stats;
        r.value = pick(stats, ctx.options.estimator);
        r.extra["p99_ns"] = percentile(ns, 0.99);
        r.extra["one_api_device"] = pair.exporter_id;
        r.extra["one_api_median_ns"] = own_stats.median;
        r.extra["one_api_p99_ns"] = percentile(own, 0.99);
        r.extra["ratio_to_one_api"] = stats.median / own_stats.median;
        r.verification = {Verification::Status::passed,
                          fmt::format("{} held its signal of s2 until {} had signalled s1, and every one of {} trips "
                                      "ended with {} past its wait for s2",
                                      ctx.record.id, pair.exporter_id, trips, pair.exporter_id)};
    }
};

} // namespace

std::unique_ptr<Probe> make_interop_sync_probe()
{
    return std::make_unique<InteropSyncProbe>();
}

} // namespace vrb
