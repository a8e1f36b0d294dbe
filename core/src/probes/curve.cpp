#include "curve.hpp"

#include "curve_plan.hpp"
#include <vrambench/core/analysis/curve_analysis.hpp>

#include <vrambench/core/measurement/parallel.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace vrb {

void upload_chain(Buffer &buffer, const Chain &chain, uint32_t spacing, uint64_t bytes)
{
    constexpr uint64_t piece_lanes = 4u << 20;
    std::vector<uint32_t> piece;
    for (uint64_t lane = 0; lane < bytes / 4; lane += piece_lanes) {
        piece.resize(std::min<uint64_t>(piece_lanes, bytes / 4 - lane));
        chain_lanes(chain, spacing, lane, piece);
        buffer.upload(lane * 4, std::as_bytes(std::span(piece)));
    }
}

std::string_view engine_name(CopyEngine engine)
{
    return engine == CopyEngine::compute_units ? "sm" : "ce";
}

void time_transfer(ProbeResult &point, const ProbeContext &ctx, const CurvePlan &plan, uint64_t bytes, Buffer &src,
                   Buffer &dst, Buffer *src2, Buffer *dst2, CopyEngine engine)
{
    vrb_operation op = make_operation(VRB_OP_TRANSFER, 1, bytes);
    if (engine == CopyEngine::compute_units) op.flags |= VRB_OPERATION_ENGINE_SM;
    op.src1 = {src.handle(), 0};
    op.dst = {dst.handle(), 0};
    if (src2 && dst2) {
        op.src2 = {src2->handle(), 0};
        op.dst2 = {dst2->handle(), 0};
    }
    const PointTiming t = time_point(ctx.device, op, plan.warmups, plan.reps, plan.target_seconds);
    if (engine == CopyEngine::compute_units && !(t.timing.output.flags & VRB_OUTPUT_ENGINE_SM))
        throw BackendError(VRB_ERROR_UNSUPPORTED,
                           fmt::format("{} copied with its copy engine: it offers no TRANSFER by its compute units",
                                       ctx.device.module().name()));
    const uint64_t directions = src2 && dst2 ? 2 : 1;
    // A copy touches its source and its destination: twice the bytes, per direction.
    set_bandwidth(point, t.timing, bytes_moved(VRB_OP_TRANSFER, 1, bytes).total() * directions * t.passes, ctx,
                  2 * bytes * directions);
    // Both directions were asked for at once; the module says when they ran one after the other.
    if (directions == 2) point.parameters["directions_at_once"] = !(t.timing.output.flags & VRB_OUTPUT_SEQUENTIAL);
}

uint32_t pattern_element_bytes(uint64_t bytes, uint64_t offset)
{
    for (const uint32_t width : {16u, 8u})
        if (bytes % width == 0 && offset % width == 0) return width;
    return 4;
}

void fill_random(Device &device, Buffer &buffer, uint64_t bytes, uint32_t seed, uint64_t offset)
{
    const uint32_t width = pattern_element_bytes(bytes, offset);
    vrb_operation op = make_operation(VRB_OP_FILL, width, bytes / width);
    op.pattern = VRB_PATTERN_RANDOM;
    op.seed = seed;
    op.dst = {buffer.handle(), offset};
    device.run(op, 1);
}

vrb_op_output check_random(Device &device, const Buffer &buffer, uint64_t bytes, uint32_t seed, uint64_t offset)
{
    const uint32_t width = pattern_element_bytes(bytes, offset);
    vrb_operation op = make_operation(VRB_OP_CHECK, width, bytes / width);
    op.pattern = VRB_PATTERN_RANDOM;
    op.seed = seed;
    op.src1 = {buffer.handle(), offset};
    return device.run(op, 1).output;
}

PointTiming time_point(Device &device, vrb_operation op, uint32_t warmups, uint32_t repetitions, double target_seconds)
{
    return time_point([&](const vrb_operation &o, uint32_t n) { return device.run(o, n); }, device.module().name(), op,
                      warmups, repetitions, target_seconds, device.is_gpu() ? kGpuWarmSeconds : 0.0);
}

PointTiming time_point(const RunOperation &run, std::string_view backend, vrb_operation op, uint32_t warmups,
                       uint32_t repetitions, double target_seconds, double warm_seconds)
{
    // Passes grow until a run is long enough; the longest growth is bounded so a
    // backend that ignores passes (its runs never lengthen) costs a few short runs.
    constexpr uint32_t most_passes = 1u << 20;
    op.passes = 1;
    // The calibration's last runs are made with the passes the point is timed with, so
    // they already did what warm-up runs do (pages touched, caches and clocks settled):
    // warm-ups are run only when the search ended on passes it never ran.
    bool warmed = false;
    double run_seconds = 0;
    for (int tries = 0; tries < 8; ++tries) {
        // A run far past the target needs no second look. Otherwise the quickest of
        // three: one run stalled by a busy machine must not pass for a long one and
        // leave the point timed over a single dispatch.
        double s = run(op, 1).seconds.at(0);
        if (s < 10 * target_seconds) {
            const auto more = run(op, 2);
            s = std::min({s, more.seconds.at(0), more.seconds.at(1)});
        }
        run_seconds = s;
        if (!(s > 0) || s >= target_seconds / 2 || op.passes >= most_passes) {
            warmed = true;
            break;
        }
        const double grow = std::clamp(target_seconds / s, 2.0, 1024.0);
        op.passes = static_cast<uint32_t>(std::min<double>(most_passes, std::ceil(op.passes * grow)));
    }
    if (!warmed && warmups > 0) run(op, warmups);
    if (warm_seconds > 0 && run_seconds > 0) {
        // Bounded: a point whose runs are far shorter than the target's would else make
        // thousands of them.
        constexpr double most_warm_runs = 256;
        const double runs = std::min(most_warm_runs, std::ceil(warm_seconds / run_seconds));
        if (runs >= 1) run(op, static_cast<uint32_t>(runs));
    }
    auto timed = run(op, repetitions);
    check_timing(timed.seconds, timed.output, backend);
    PointTiming out;
    out.timing = Timing{std::move(timed.seconds), timed.output};
    out.passes = std::max(out.timing.output.passes, 1u);
    return out;
}

uint64_t reference_strided_sum(uint32_t seed, uint64_t stride, uint64_t count)
{
    std::atomic<uint64_t> total{0};
    parallel_for(count, [&](uint64_t begin, uint64_t end) {
        uint64_t sum = 0;
        for (uint64_t i = begin; i < end; ++i)
            sum += vrb_pattern_random(i * stride, seed);
        total += sum;
    });
    return total.load();
}

void mark_verification_failed(ProbeResult &r, std::string detail)
{
    r.verification = {Verification::Status::failed, std::move(detail)};
    r.status = ProbeResult::Status::verification_failed;
}

void mark_run_failed(ProbeResult &r, const Error &e)
{
    r.error = e.what();
    if (declined(e)) {
        r.status = ProbeResult::Status::waived;
        r.verification = {Verification::Status::unverified, "not run: the backend declined it"};
        return;
    }
    r.status = ProbeResult::Status::failed;
    r.verification = {Verification::Status::unverified, "the operation did not complete"};
}

void PageSizes::add(uint64_t page_bytes)
{
    if (page_bytes > 0) smallest_ = smallest_ == 0 ? page_bytes : std::min(smallest_, page_bytes);
}

void PageSizes::record(ProbeResult &r) const
{
    if (smallest_ > 0) r.parameters["page_bytes"] = smallest_;
}

void set_latency(ProbeResult &r, const Timing &timing, uint64_t steps, const ProbeContext &ctx)
{
    r.metric = "latency";
    r.unit = "ns";
    r.timer = timer_name(timing.output.timer);
    r.seconds = timing.seconds;
    r.samples.clear();
    for (double s : timing.seconds)
        r.samples.push_back(s / static_cast<double>(steps) * 1e9);
    r.statistics = summarize(r.samples);
    r.value = pick(*r.statistics, ctx.options.estimator);
}

void take_figure(ProbeResult &r, const ProbeResult &point)
{
    r.value = point.value;
    r.seconds = point.seconds;
    r.samples = point.samples;
    r.statistics = point.statistics;
    r.bytes_per_run = point.bytes_per_run;
    r.timer = point.timer;
    r.efficiency = point.efficiency;
}

Curve::Headline Curve::headline(analysis::HeadlineRule rule) const
{
    std::vector<std::optional<double>> figures;
    for (const auto &point : points_)
        figures.push_back(point.second.value);
    const auto i = analysis::headline_point(figures, rule);
    if (!i) return {};
    return {points_[*i].first, &points_[*i].second, *i};
}

void Curve::add(double x, const ProbeResult &point, nlohmann::json detail)
{
    points_.emplace_back(x, point);
    details_.push_back(std::move(detail));
}

ProbeResult Curve::finish(ProbeResult r, const std::vector<CacheReach> *caches, double reach, bool settled,
                          std::span<const TlbReach> tlbs) const
{
    nlohmann::json points = nlohmann::json::array();
    std::vector<CurvePoint> curve;
    std::size_t passed = 0, waived = 0;
    std::string first_waived;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const auto &[x, p] = points_[i];
        nlohmann::json j = details_[i];
        j[x_name_] = x;
        j["value"] = p.value ? nlohmann::json(*p.value) : nlohmann::json();
        j["seconds"] = p.seconds;
        j["samples"] = p.samples;
        j["statistics"] = p.statistics ? to_json(*p.statistics) : nlohmann::json();
        if (p.bytes_per_run) j["bytes_per_run"] = *p.bytes_per_run;
        j["verification"] = {{"status", to_string(p.verification.status)}, {"detail", p.verification.detail}};
        j["status"] = to_string(p.status);
        if (p.error) j["error"] = *p.error;
        points.push_back(std::move(j));
        if (p.value && *p.value > 0) curve.push_back({x, *p.value});
        if (p.verification.status == Verification::Status::passed) ++passed;
        if (p.status == ProbeResult::Status::waived && waived++ == 0 && p.error)
            first_waived = fmt::format("at {} {}: {}", x_name_, x, *p.error);
        if (p.status == ProbeResult::Status::verification_failed && r.status != ProbeResult::Status::failed) {
            r.status = p.status;
            if (r.verification.status != Verification::Status::failed)
                r.verification = {Verification::Status::failed,
                                  fmt::format("at {} {}: {}", x_name_, x, p.verification.detail)};
        } else if (p.status == ProbeResult::Status::failed && r.status == ProbeResult::Status::ok) {
            r.status = ProbeResult::Status::failed;
            r.error = fmt::format("at {} {}: {}", x_name_, x, p.error.value_or("failed"));
        }
    }
    const ProbeResult *last = headline(analysis::HeadlineRule::last).point;
    if (last) take_figure(r, *last);
    if (r.verification.status != Verification::Status::failed) {
        if (!points_.empty() && passed == points_.size())
            r.verification = {Verification::Status::passed, fmt::format("all {} points verified", passed)};
        else
            r.verification = {Verification::Status::unverified,
                              fmt::format("{} of {} points verified", passed, points_.size())};
    }
    // A curve the backend declined at every point is waived with its words, not failed.
    if (r.status == ProbeResult::Status::ok && !points_.empty() && waived == points_.size()) {
        r.status = ProbeResult::Status::waived;
        r.error = first_waived;
        r.verification = {Verification::Status::unverified, "not run: the backend declined it"};
    }
    if (r.status == ProbeResult::Status::ok && !points_.empty() && !last) r.status = ProbeResult::Status::failed;

    nlohmann::json plateaus = nlohmann::json::array();
    if (caches) {
        analysis::CurveContext context;
        context.caches = *caches;
        context.largest_x = reach;
        context.figure = r.metric == "bandwidth" ? CurveFigure::bandwidth
                         : r.metric == "latency" ? CurveFigure::latency
                                                 : CurveFigure::unspecified;
        context.settled = settled;
        context.tlbs.assign(tlbs.begin(), tlbs.end());
        plateaus = analysis::curve_plateaus(curve, context);
    }
    r.extra = {{"curve", {{"x", x_name_}, {"x_unit", x_unit_}, {"points", points}, {"plateaus", plateaus}}}};
    return r;
}

} // namespace vrb
