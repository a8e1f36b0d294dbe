// What the curve probes share: filling buffers, timing one point with enough passes to
// outlast a dispatch, the reference sums they verify against, and one result per curve
// that keeps every point with its samples and names the plateaus found on it.
#pragma once

#include "chain.hpp"

#include <vrambench/core/analysis/headline.hpp>
#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/plateaus.hpp>
#include <vrambench/core/planning/plan.hpp>

#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace vrb {

// The widest element (16, 8 or 4 bytes) that `bytes` from `offset` divide into. A pattern
// is the same lanes at any width, and a device writes and checks it fastest in its
// widest loads and stores (on a CPU device three times faster than in 4-byte ones).
uint32_t pattern_element_bytes(uint64_t bytes, uint64_t offset = 0);

// Writes the first `bytes` of `buffer` as chain_lanes() lays the chain out, in pieces.
void upload_chain(Buffer &buffer, const Chain &chain, uint32_t spacing, uint64_t bytes);

// Fills `bytes` of `buffer` from `offset` with vrb_pattern_random lanes on the device.
void fill_random(Device &device, Buffer &buffer, uint64_t bytes, uint32_t seed, uint64_t offset = 0);

// Checks `bytes` of `buffer` from `offset` against vrb_pattern_random lanes on the device
// (CHECK): how many lanes differ, and the first (in lanes from `offset`).
vrb_op_output check_random(Device &device, const Buffer &buffer, uint64_t bytes, uint32_t seed, uint64_t offset = 0);

struct PointTiming {
    Timing timing;
    uint32_t passes = 1; // what the backend reports it ran per timed run
};

// Times `op`, first doubling its passes until one run lasts `target_seconds`, so a
// small working set is timed over many passes rather than over one dispatch. A backend
// that ignores passes reports one, and the figure is then computed from one. The
// `warmups` runs are made only when the search's last runs were not at the final passes
// (its runs at the final passes warm as well as they would). On a GPU the timed runs
// then follow at least kGpuWarmSeconds (planning/plan.hpp) of runs in one call, back to
// back, so a card that clocked down while idle is timed at its clocks.
PointTiming time_point(Device &device, vrb_operation op, uint32_t warmups, uint32_t repetitions, double target_seconds);
// The same over any way of running: run(op, repetitions) answers as Device::run does;
// `backend` names the module in a timing error; `warm_seconds` is the least time of
// back-to-back runs before the timed ones (0: none beyond the warm-ups).
using RunOperation = std::function<Device::RunOutput(const vrb_operation &, uint32_t repetitions)>;
PointTiming time_point(const RunOperation &run, std::string_view backend, vrb_operation op, uint32_t warmups,
                       uint32_t repetitions, double target_seconds, double warm_seconds = 0);

// sum over i < count of random(first + i * stride, seed), mod 2^64: what STRIDED_READ
// of pseudo-random lanes answers (4-byte elements).
uint64_t reference_strided_sum(uint32_t seed, uint64_t stride, uint64_t count);

// Marks a result verification-failed with `detail`.
void mark_verification_failed(ProbeResult &r, std::string detail);

// Makes `point`'s figure the result's headline: value, runs, samples, statistics, bytes,
// timer and efficiency.
void take_figure(ProbeResult &r, const ProbeResult &point);

// One curve: figures against x, each point a finished result of its own.
class Curve {
  public:
    Curve(std::string x_name, std::string x_unit) : x_name_(std::move(x_name)), x_unit_(std::move(x_unit)) {}
    void add(double x, const ProbeResult &point, nlohmann::json detail = nlohmann::json::object());
    bool empty() const { return points_.empty(); }

    // The curve as one result: every point in extra.points; value, samples and
    // statistics those of its headline point (the largest x with a figure; a probe whose
    // rule is another takes its own after); verification passed only
    // when every point passed. With `caches`, plateaus are found and named; the last
    // is memory when `reach` (the largest footprint; the largest x when 0) is past 4 x
    // the largest cache, or when the curve grew until its figure `settled` (growth.hpp).
    // `tlbs`: the device's data TLB reaches, whose steps a latency curve names apart.
    ProbeResult finish(ProbeResult skeleton, const std::vector<CacheReach> *caches, double reach = 0,
                       bool settled = false, std::span<const TlbReach> tlbs = {}) const;

    // The point `rule` headlines the curve by (analysis/headline.hpp), its x and its index
    // among the points; point nullptr where no point has a figure.
    struct Headline {
        double x = 0;
        const ProbeResult *point = nullptr;
        std::size_t index = 0;
    };
    Headline headline(analysis::HeadlineRule rule) const;

  private:
    std::string x_name_, x_unit_;
    std::vector<std::pair<double, ProbeResult>> points_;
    std::vector<nlohmann::json> details_;
};

// The page size a module says a probe's buffers lay in (vrb_op_output.page_bytes): the
// smallest over the runs that said one. Runs that said 0 (a module that does not know)
// change nothing.
class PageSizes {
  public:
    void add(uint64_t page_bytes);
    uint64_t smallest() const { return smallest_; }
    // Sets the parameter page_bytes where some run said one; otherwise leaves no parameter.
    void record(ProbeResult &r) const;

  private:
    uint64_t smallest_ = 0;
};

// Fills a latency result: samples in ns per step from `steps` dependent loads per run.
void set_latency(ProbeResult &r, const Timing &timing, uint64_t steps, const ProbeContext &ctx);

// The result of a failed point or probe step, unverified, with the error.
void mark_run_failed(ProbeResult &r, const Error &e);

} // namespace vrb
