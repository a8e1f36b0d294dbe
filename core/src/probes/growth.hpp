// Growing a curve past its planned sizes where nothing says where memory starts: a card
// the device table lacks whose API reports no cache. Past the last planned point the
// working set doubles while the curve is measured, until two points 2x apart agree
// (the figure stopped changing: the curve reached memory), or a cap ends it.
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vrb {

// How far a curve may grow; most_bytes 0: it does not grow.
struct GrowthRule {
    uint64_t most_bytes = 0; // the largest working set (the share of memory the probe may take)
    double most_seconds = 0; // what the grown points of one curve may take together, in s
    double agree = 0.05;     // two points 2x apart within this of each other have settled
    std::string cap_text;    // where most_bytes comes from: "a quarter of the 139 GiB free"
    explicit operator bool() const { return most_bytes > 0; }
};

// "open-ended past 256 MiB: doubling until two points 2x apart agree within 5 %, at most
// 34.7 GiB (a quarter of the 139 GiB free) and 60 s a curve", as plans and results say it.
std::string growth_text(const GrowthRule &rule, uint64_t planned_to);

// The time cap of one curve's grown points in a suite (quick 5 s, standard 60 s, full 300 s).
double growth_seconds(Suite suite);

// One curve's growth: fed every measured point in order of size, it says the next size
// to measure past the planned ones, or why the curve ends.
class CurveGrowth {
  public:
    // `planned_to`: the last planned size; `granule`: grown sizes are its multiples.
    CurveGrowth(GrowthRule rule, uint64_t planned_to, uint64_t granule);

    // A measured point: its size, its figure (nothing when it gave none), and the wall
    // seconds it took.
    void add(uint64_t x, std::optional<double> figure, double seconds);

    // After the planned points: the next size, or nothing once the curve has ended (the
    // figure settled, the next size would pass a cap, or a grown point gave no figure).
    std::optional<uint64_t> next();

    // A grown size could not be allocated: the curve ends there.
    void refused(uint64_t x, const std::string &why);

    bool grown() const { return grown_ > 0; }
    bool settled() const { return ended_by_ == "settled"; }
    // "settled", "memory cap", "time cap", "no figure", "allocation"; empty until next() ends it.
    const std::string &ended_by() const { return ended_by_; }
    // One sentence: "grown until two points 2x apart agreed within 5 %: 256 MiB and 512 MiB",
    // "stopped at the cap of 34.7 GiB before the figure settled" ...
    const std::string &text() const { return text_; }
    // What a result keeps: ended_by, the sentence, the caps, the settled pair, the grown points.
    nlohmann::json to_json() const;

  private:
    struct Point {
        uint64_t x;
        std::optional<double> figure;
        double seconds;
    };
    void end(std::string by, std::string text);

    GrowthRule rule_;
    uint64_t planned_to_, granule_;
    std::vector<Point> points_;
    std::size_t grown_ = 0;
    double grown_seconds_ = 0;
    std::string ended_by_, text_;
    uint64_t pair_[2] = {0, 0};
};

} // namespace vrb
