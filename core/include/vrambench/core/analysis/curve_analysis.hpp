// Turning a curve's points and the device's description into its plateaus, named, and
// re-deriving them for a stored set: the analysis apart from the measuring, so that a set
// recorded by an older version is named as this one names it (`vrambench analyze`).
#pragma once

#include <vrambench/core/measurement/plateaus.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vrb::analysis {

// What a curve is measured against: its device's caches as its probe plans them, how far
// it went, whether it grew until its figure settled, and the data TLBs' reaches.
struct CurveContext {
    std::vector<CacheReach> caches;
    double largest_x = 0; // 0: the last point's x
    CurveFigure figure = CurveFigure::unspecified;
    bool settled = false;
    std::vector<TlbReach> tlbs;
};

// The plateaus of a curve (points with positive values, increasing x), found and named,
// as a result's extra.curve.plateaus holds them: name, value, from, to, ends_at and
// reported_bytes where the level's size is the device's report, not what the curve saw.
nlohmann::json curve_plateaus(std::span<const CurvePoint> curve, const CurveContext &context);

// The context a stored curve result was measured in, from its set's device record: the
// caches as latency.chase (one thread) or bandwidth.sweep (every unit) plans them. False
// for any other probe.
bool stored_curve_context(const nlohmann::json &result, const DeviceRecord &device, CurveContext &context);

// A stored set's devices as it describes them, by id: every re-derivation finds a
// result's device here.
class SetDevices {
  public:
    explicit SetDevices(const nlohmann::json &set);
    // Null where the set describes no device of that id.
    const DeviceRecord *find(std::string_view id) const;

  private:
    std::vector<std::pair<std::string, DeviceRecord>> devices_;
};

// One curve's levels as the set named them and as this version does.
struct Change {
    std::string where; // "cuda:0 latency.chase chase"
    std::string before, after;
    bool changed() const { return before != after; }
};

// Re-derives every plateau of a stored set from its points and device descriptions with
// this version's rule, in place; every curve it named, in the set's order. Measured
// values (every point, every result's value) are left as they are.
std::vector<Change> reanalyze(nlohmann::json &set);

} // namespace vrb::analysis
