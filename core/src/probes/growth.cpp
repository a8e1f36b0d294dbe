#include "growth.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vrb {

namespace {

std::string percent(double share)
{
    return fmt::format("{:g} %", share * 100);
}

std::string seconds_text(double s)
{
    return fmt::format("{:g} s", std::round(s * 10) / 10);
}

} // namespace

std::string growth_text(const GrowthRule &rule, uint64_t planned_to)
{
    return fmt::format("open-ended past {}: doubling until two points 2x apart agree within {}, at most {}{} and {} "
                       "a curve",
                       format_size(planned_to), percent(rule.agree), format_size(rule.most_bytes),
                       rule.cap_text.empty() ? std::string() : fmt::format(" ({})", rule.cap_text),
                       seconds_text(rule.most_seconds));
}

double growth_seconds(Suite suite)
{
    // A grown chase point is one lap of its whole span in dependent loads: 1 GiB is 16 M
    // loads, about ten seconds a run on a GPU, so the standard suite allows a few doublings.
    switch (suite) {
    case Suite::quick: return 5;
    case Suite::standard: return 60;
    case Suite::full: return 300;
    }
    return 60;
}

CurveGrowth::CurveGrowth(GrowthRule rule, uint64_t planned_to, uint64_t granule)
    : rule_(std::move(rule)), planned_to_(planned_to), granule_(std::max<uint64_t>(granule, 1))
{
}

void CurveGrowth::add(uint64_t x, std::optional<double> figure, double seconds)
{
    points_.push_back({x, figure, seconds});
    if (x > planned_to_) {
        ++grown_;
        grown_seconds_ += seconds;
    }
}

void CurveGrowth::end(std::string by, std::string text)
{
    ended_by_ = std::move(by);
    text_ = std::move(text);
}

void CurveGrowth::refused(uint64_t x, const std::string &why)
{
    end("allocation",
        fmt::format("stopped before the figure settled: {} could not be allocated ({})", format_size(x), why));
}

std::optional<uint64_t> CurveGrowth::next()
{
    if (!ended_by_.empty() || !rule_) return std::nullopt;
    if (points_.empty() || !points_.back().figure) {
        const std::string at = points_.empty() ? "nothing" : format_size(points_.back().x);
        end("no figure", fmt::format("stopped at {} before the figure settled: that point gave no figure", at));
        return std::nullopt;
    }
    const Point &last = points_.back();
    if (last.x > planned_to_) {
        // The point nearest half the newest one, at most half of it: a grown point's
        // predecessor, or the last planned point at the first doubling.
        const Point *half = nullptr;
        for (const Point &p : points_)
            if (p.x * 2 <= last.x && p.figure && (!half || p.x > half->x)) half = &p;
        if (half) {
            const double a = *half->figure, b = *last.figure;
            if (std::abs(a - b) <= rule_.agree * std::min(a, b)) {
                pair_[0] = half->x;
                pair_[1] = last.x;
                end("settled", fmt::format("grown until two points 2x apart agreed within {}: {} and {}",
                                           percent(rule_.agree), format_size(half->x), format_size(last.x)));
                return std::nullopt;
            }
        }
    }
    const uint64_t x = 2 * last.x / granule_ * granule_;
    if (x > rule_.most_bytes) {
        end("memory cap",
            fmt::format("stopped at the cap of {} bytes ({}{}) before the figure settled: {} was the "
                        "last point",
                        rule_.most_bytes, format_size(rule_.most_bytes),
                        rule_.cap_text.empty() ? std::string() : ", " + rule_.cap_text, format_size(last.x)));
        return std::nullopt;
    }
    // Twice the working set costs about twice the time: bytes moved, or a lap's loads.
    const double predicted = 2 * last.seconds;
    if (grown_seconds_ + predicted > rule_.most_seconds) {
        end("time cap", fmt::format("stopped at the time cap of {} before the figure settled: the grown points took "
                                    "{}, and {} would take about {} more",
                                    seconds_text(rule_.most_seconds), seconds_text(grown_seconds_), format_size(x),
                                    seconds_text(predicted)));
        return std::nullopt;
    }
    return x;
}

nlohmann::json CurveGrowth::to_json() const
{
    nlohmann::json grown = nlohmann::json::array();
    for (const Point &p : points_)
        if (p.x > planned_to_) grown.push_back(p.x);
    nlohmann::json j = {{"ended_by", ended_by_},           {"detail", text_},
                        {"planned_to_bytes", planned_to_}, {"grown_bytes", grown},
                        {"most_bytes", rule_.most_bytes},  {"most_seconds", rule_.most_seconds},
                        {"agree_within", rule_.agree},     {"grown_seconds", grown_seconds_}};
    if (settled()) j["settled_bytes"] = {pair_[0], pair_[1]};
    return j;
}

} // namespace vrb
