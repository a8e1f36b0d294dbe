// bandwidth.transfer: copies between memory kinds, host to device, device to host, device
// to device and both directions at once, over a size sweep, by the API's copy engine and,
// on a GPU, one way by its compute units (a kernel), as nvbandwidth's *_memcpy_ce and
// *_memcpy_sm measure each route both ways.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "probe_plans.hpp"

#include <vrambench/core/measurement/link_bound.hpp>
#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace vrb {

namespace {

constexpr uint32_t transfer_seed_src = 0x6101, transfer_seed_scramble = 0x6201;

struct Route {
    std::string name; // "host-to-device", ...
    uint32_t src, dst;
    bool both = false; // src -> dst and dst-kind -> src-kind at once
    bool host = false; // one end is host memory: the bytes cross the link
    CopyEngine engine = CopyEngine::copy_engine;
};

std::optional<uint32_t> find(const DeviceRecord &d, uint32_t with, uint32_t without = 0)
{
    for (uint32_t k = 0; k < d.kinds.size(); ++k)
        if ((d.kinds[k].flags & with) == with && !(d.kinds[k].flags & without)) return k;
    return std::nullopt;
}

// Which kinds play device and host: device-local memory the host cannot see where
// there is one, and each host kind, pinned and pageable, that the API offers.
std::vector<Route> routes(const DeviceRecord &d)
{
    const uint32_t device =
        find(d, VRB_MEMORY_DEVICE_LOCAL, VRB_MEMORY_HOST_MEMORY).value_or(find(d, VRB_MEMORY_DEVICE_LOCAL).value_or(0));
    std::vector<Route> out;
    for (uint32_t flag : {VRB_MEMORY_PINNED, VRB_MEMORY_PAGEABLE}) {
        const auto host = find(d, VRB_MEMORY_HOST_MEMORY | flag);
        if (!host) continue;
        const std::string kind = flag == VRB_MEMORY_PINNED ? "pinned" : "pageable";
        out.push_back({"host-to-device " + kind, *host, device, false, true});
        out.push_back({"device-to-host " + kind, device, *host, false, true});
        out.push_back({"both-directions " + kind, *host, device, true, true});
    }
    out.push_back({"device-to-device", device, device});
    // One kind may play several parts (the host backend has one kind): each pair once.
    std::set<std::tuple<uint32_t, uint32_t, bool>> seen;
    std::erase_if(out, [&](const Route &r) { return !seen.insert({r.src, r.dst, r.both}).second; });
    // A GPU's compute units copy too, one way, between memory its kernels reach at both
    // ends (device memory, pinned host memory mapped for the device).
    if (d.info.type != VRB_DEVICE_CPU) {
        const auto reached = [&](uint32_t kind) { return (d.kinds.at(kind).flags & VRB_MEMORY_DEVICE_ACCESS) != 0; };
        const std::size_t by_engine = out.size();
        for (std::size_t i = 0; i < by_engine; ++i)
            if (!out[i].both && reached(out[i].src) && reached(out[i].dst)) {
                Route sm = out[i];
                sm.engine = CopyEngine::compute_units;
                out.push_back(sm);
            }
    }
    return out;
}

// Kernels may not reach a host kind, so data goes in through upload, in chunks.
void upload_random(Buffer &buffer, uint64_t bytes, uint32_t seed)
{
    constexpr uint64_t chunk = 4ull << 20;
    std::vector<uint32_t> lanes(chunk / 4);
    const ExpectedLanes pattern = expect_pattern(VRB_PATTERN_RANDOM, seed);
    for (uint64_t at = 0; at < bytes; at += chunk) {
        const uint64_t n = std::min(chunk, bytes - at) / 4;
        pattern(at / 4, std::span(lanes.data(), n));
        buffer.upload(at, std::as_bytes(std::span(lanes.data(), n)));
    }
}

class TransferProbe final : public Probe {
  public:
    std::string_view id() const override { return "bandwidth.transfer"; }
    std::string_view summary() const override
    {
        return "transfers host to device, device to host, device to device and both at once, by the copy engine "
               "and by the compute units";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        const CurvePlan plan = plan_transfer(device, options);
        const std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.to, plan.ratio, 4096);
        const std::vector<Route> all = routes(device);
        ProbePlan p;
        p.reason = options.size ? "option" : "default";
        p.size_rule = plan.size_rule;
        p.sizes = {{"from_bytes", sizes.front()},
                   {"to_bytes", sizes.back()},
                   {"points", sizes.size()},
                   {"routes", all.size()}};
        nlohmann::json names = nlohmann::json::array();
        for (const Route &route : all)
            names.push_back(fmt::format("{} ({})", route.name, engine_name(route.engine)));
        p.sizes["route_names"] = std::move(names);
        // A source and a destination of the largest size each way. The run's pool
        // (buffer_pool.hpp) hands a route's buffers on to the next, so each kind's pages
        // are first touched for the most buffers one route takes of it: on a CPU that
        // takes longer than every timed run of the probe.
        std::map<uint32_t, int> most;
        for (const Route &route : all) {
            std::map<uint32_t, int> takes;
            for (uint32_t kind : {route.src, route.dst})
                takes[kind] += route.both ? 2 : 1;
            for (const auto &[kind, n] : takes)
                most[kind] = std::max(most[kind], n);
        }
        for (const auto &[kind, n] : most)
            p.cost.first_touch_bytes += n * static_cast<double>(sizes.back());
        for (const Route &route : all)
            p.held_bytes = std::max<uint64_t>(p.held_bytes, (route.both ? 4 : 2) * sizes.back());
        for (const Route &route : all) {
            const double directions = route.both ? 2 : 1, largest = static_cast<double>(sizes.back());
            p.cost.host_bytes += directions * largest; // the sources written through upload
            for (uint64_t x : sizes) {
                const double bytes = static_cast<double>(x) * directions;
                p.cost.runs.push_back(timed_point_runs(bytes, plan.reps, plan.target_seconds));
                p.cost.host_bytes += 2 * bytes; // the destinations filled first, then read back and checked
            }
        }
        return p;
    }

    void run(ProbeContext &ctx) const override
    {
        const CurvePlan plan = plan_transfer(ctx.record, ctx.options);
        const std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.to, plan.ratio, 4096);
        const std::vector<Route> all = routes(ctx.record);
        for (std::size_t n = 0; n < all.size(); ++n) {
            const Route &route = all[n];
            ProbeResult r = make_result(ctx, id());
            r.parameters = {{"direction", route.name},
                            {"engine", engine_name(route.engine)},
                            {"source_kind", module_string(ctx.record.kinds.at(route.src).name)},
                            {"destination_kind", module_string(ctx.record.kinds.at(route.dst).name)},
                            {"both_directions", route.both},
                            {"from_bytes", sizes.front()},
                            {"to_bytes", sizes.back()},
                            {"ratio", plan.ratio},
                            {"warmups", plan.warmups},
                            {"repetitions", plan.reps},
                            {"size_rule", plan.size_rule},
                            {"bytes_counted", "once per direction"}};
            if (route.both) r.parameters["directions_at_once"] = true;
            r.byte_counting = std::string(route.both ? "2 x " : "") +
                              "count bytes per direction, each byte counted once (not again as written), per pass, "
                              "times the passes each run made";
            Curve curve("transfer_bytes", "bytes");
            try {
                auto src = ctx.device.acquire(route.src, sizes.back());
                auto dst = ctx.device.acquire(route.dst, sizes.back());
                std::unique_ptr<Buffer> src2, dst2;
                if (route.both) {
                    src2 = ctx.device.acquire(route.dst, sizes.back());
                    dst2 = ctx.device.acquire(route.src, sizes.back());
                    upload_random(*src2, sizes.back(), transfer_seed_src + 1);
                }
                upload_random(*src, sizes.back(), transfer_seed_src);
                for (std::size_t i = 0; i < sizes.size(); ++i) {
                    const uint64_t bytes = sizes[i];
                    ctx.progress(fmt::format("{} {}", route.name, format_size(bytes)),
                                 (n + static_cast<double>(i) / sizes.size()) / all.size());
                    ProbeResult point = measure(ctx, plan, bytes, *src, *dst, src2.get(), dst2.get(),
                                                transfer_seed_scramble + i, route.engine);
                    if (route.host) check_link_bound(point, ctx.record, route.both ? 2 : 1, route.name);
                    // "Both directions" is only true where the copies ran at once.
                    if (point.parameters.value("directions_at_once", true) == false) {
                        r.parameters["directions_at_once"] = false;
                        r.parameters["both_directions_note"] =
                            "the API made the two copies one after the other (pageable host memory is copied "
                            "synchronously with the host): the figure is of both directions in turn, not at once";
                    }
                    curve.add(static_cast<double>(bytes), point,
                              route.both ? nlohmann::json{{"directions_at_once",
                                                           point.parameters.value("directions_at_once", true)}}
                                         : nlohmann::json::object());
                }
            } catch (const BackendError &e) {
                if (e.status() == VRB_ERROR_UNSUPPORTED && route.engine == CopyEngine::compute_units) {
                    r.status = ProbeResult::Status::waived; // the module has no kernel route here
                    r.error = e.what();
                    r.verification = {Verification::Status::unverified, "not run"};
                } else {
                    mark_run_failed(r, e);
                }
                ctx.emit(std::move(r));
                continue;
            } catch (const Error &e) {
                mark_run_failed(r, e);
                ctx.emit(std::move(r));
                continue;
            }
            ProbeResult finished = curve.finish(std::move(r), nullptr);
            if (route.host) check_link_bound(finished, ctx.record, route.both ? 2 : 1, route.name);
            // A copy within the device has its traffic beside it (analysis/headline.hpp).
            if (const Curve::Headline headline = curve.headline(analysis::headline_rule(id())); headline.point)
                analysis::headline_extras(id(), finished.parameters, headline.index, finished.extra);
            ctx.emit(std::move(finished));
        }
    }

  private:
    ProbeResult measure(const ProbeContext &ctx, const CurvePlan &plan, uint64_t bytes, Buffer &src, Buffer &dst,
                        Buffer *src2, Buffer *dst2, uint32_t scramble, CopyEngine engine) const
    {
        ProbeResult point = make_result(ctx, id());
        try {
            // Destinations first hold other data, so a transfer that moved nothing fails.
            upload_random(dst, bytes, scramble);
            if (dst2) upload_random(*dst2, bytes, scramble + 1);
            time_transfer(point, ctx, plan, bytes, src, dst, src2, dst2, engine);
            const uint64_t directions = src2 ? 2 : 1;
            Mismatches m = compare_buffer(dst, 0, bytes / 4, expect_pattern(VRB_PATTERN_RANDOM, transfer_seed_src));
            if (!m.count && dst2)
                m = compare_buffer(*dst2, 0, bytes / 4, expect_pattern(VRB_PATTERN_RANDOM, transfer_seed_src + 1));
            if (m.count)
                mark_verification_failed(point,
                                         fmt::format("{} lanes wrong; first at byte {:#x}: {:#010x}, expected {:#010x}",
                                                     m.count, m.first * 4, m.first_actual, m.first_expected));
            else
                point.verification = {Verification::Status::passed,
                                      fmt::format("all {} bytes arrived", bytes * directions)};
        } catch (const BackendError &e) {
            if (e.status() == VRB_ERROR_UNSUPPORTED && engine == CopyEngine::compute_units) throw; // the whole route
            mark_run_failed(point, e);
        } catch (const Error &e) {
            mark_run_failed(point, e);
        }
        return point;
    }
};

} // namespace

std::unique_ptr<Probe> make_transfer_probe()
{
    return std::make_unique<TransferProbe>();
}

} // namespace vrb
