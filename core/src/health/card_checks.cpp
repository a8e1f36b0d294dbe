// The card's own state: whether its memory holds what was written (integrity), whether
// every other figure verified, how its PCIe link trained, and whether it throttled.
#include "checks.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

namespace vrb::health {

namespace {

using nlohmann::json;

// Throttle reasons that say nothing is wrong with the card: idle, clocks an operator
// set, the boost of a group. Any other reason (thermal, power brake, a hardware
// slowdown) lowers what the memory gives.
const std::set<std::string> benign_throttle_reasons{
    "none",      "idle", "gpu-idle", "applications-clocks", "applications-clocks-setting", "display-clock-setting",
    "sync-boost"};

bool verification_failed(const json &r)
{
    return text_or(r, "status", "") == "verification-failed" ||
           text_or(object_or_empty(r, "verification"), "status", "") == "failed";
}

} // namespace

std::vector<const json *> results_on(const json &set, const std::string &device)
{
    std::vector<const json *> out;
    for (const json &r : array_or_empty(set, "results"))
        if (text_or(r, "device", "") == device) out.push_back(&r);
    return out;
}

std::string value_text(double value, const std::string &unit)
{
    return fmt::format("{:.4g} {}", value, unit);
}

Check integrity_check(const json &set, const std::string &device)
{
    Check c;
    c.name = "integrity";
    std::size_t patterns = 0;
    double wrong = 0, bytes = 0;
    std::vector<std::string> failed, not_run;
    for (const json *r : results_on(set, device)) {
        if (text_or(*r, "probe", "") != "integrity.pattern") continue;
        const json &p = object_or_empty(*r, "parameters");
        const std::string pattern = text_or(p, "operation", "?");
        const std::string status = text_or(*r, "status", "");
        const double lanes = number_or(*r, "value", 0);
        if (verification_failed(*r) || lanes > 0) {
            wrong += lanes;
            failed.push_back(
                fmt::format("{} ({})", pattern, text_or(object_or_empty(*r, "verification"), "detail", "mismatch")));
        } else if (status == "failed") {
            not_run.push_back(fmt::format("{}: {}", pattern, text_or(*r, "error", "failed")));
        } else if (status != "ok") {
            continue; // skipped or waived: not measured here, nothing to judge
        }
        ++patterns;
        bytes = std::max(bytes, number_or(p, "array_bytes", 0));
    }
    c.unit = "lanes";
    c.value = wrong;
    if (!failed.empty()) {
        c.outcome = Outcome::failed;
        c.reason = "integrity";
        c.detail =
            fmt::format("{:g} lane{} read back wrong: {}", wrong, wrong == 1 ? "" : "s", fmt::join(failed, "; "));
    } else if (!not_run.empty()) {
        c.outcome = Outcome::not_measured;
        c.reason = "not measured";
        c.detail = fmt::format("{}", fmt::join(not_run, "; "));
    } else if (patterns == 0) {
        c.outcome = Outcome::not_recorded;
        c.detail = "the set holds no integrity.pattern result for this card";
    } else {
        c.detail = fmt::format("{} pattern{} over {}: every lane read back as written", patterns,
                               patterns == 1 ? "" : "s", format_size(static_cast<uint64_t>(bytes)));
    }
    return c;
}

Check verification_check(const json &set, const std::string &device)
{
    Check c;
    c.name = "verification";
    std::size_t verified = 0;
    std::vector<std::string> failed;
    for (const json *r : results_on(set, device)) {
        const std::string probe = text_or(*r, "probe", "");
        // Integrity and the judged figures have lines of their own.
        if (probe == "integrity.pattern" || health_figure(*r)) continue;
        if (verification_failed(*r))
            failed.push_back(fmt::format("{} {}", probe, text_or(object_or_empty(*r, "parameters"), "operation", "")));
        else if (text_or(object_or_empty(*r, "verification"), "status", "") == "passed")
            ++verified;
    }
    if (!failed.empty()) {
        c.outcome = Outcome::failed;
        c.reason = "verification";
        c.detail = fmt::format("{} other figure{} failed verification: {}", failed.size(),
                               failed.size() == 1 ? "" : "s", fmt::join(failed, ", "));
    } else if (verified == 0) {
        c.outcome = Outcome::not_recorded;
        c.detail = "no other figure of this card in the set";
    } else {
        c.detail = fmt::format("the {} other figure{} of this card verified", verified, verified == 1 ? "" : "s");
    }
    return c;
}

Check link_check(const json &device)
{
    Check c;
    c.name = "link";
    const json &link = object_or_empty(device, "link");
    const double speed = number_or(link, "current_speed_gts", 0), max_speed = number_or(link, "max_speed_gts", 0);
    const double width = number_or(link, "current_width", 0), max_width = number_or(link, "max_width", 0);
    const bool speeds = speed > 0 && max_speed > 0, widths = width > 0 && max_width > 0;
    if (!speeds && !widths) {
        c.outcome = Outcome::not_recorded;
        c.detail = "the set records no PCIe link for this card";
        return c;
    }
    const auto side = [](double s, double w, const json &gen) {
        std::string t = s > 0 ? fmt::format("{:g} GT/s", s) : "? GT/s";
        t += w > 0 ? fmt::format(" x{:g}", w) : " x?";
        if (gen.is_number()) t += fmt::format(" (Gen {})", gen.get<double>());
        return t;
    };
    const std::string now = side(speed, width, link.value("generation", json()));
    const std::string most = side(max_speed, max_width, link.value("max_generation", json()));
    std::vector<std::string> short_of;
    if (speeds && speed < max_speed) short_of.push_back(fmt::format("speed {:g} of {:g} GT/s", speed, max_speed));
    if (widths && width < max_width) short_of.push_back(fmt::format("width x{:g} of x{:g}", width, max_width));
    c.value = speeds ? speed : width;
    if (short_of.empty()) {
        c.detail = fmt::format("trained at {}, its maximum", now);
        return c;
    }
    c.outcome = Outcome::below_floor;
    c.reason = "link";
    c.detail = fmt::format("trained at {}, below its maximum {}: {}", now, most, fmt::join(short_of, ", "));
    return c;
}

Check telemetry_check(const json &set, const std::string &device)
{
    Check c;
    c.name = "telemetry";
    std::size_t sampled = 0;
    std::set<std::string> reasons, during;
    for (const json *r : results_on(set, device)) {
        const json &t = object_or_empty(*r, "telemetry");
        if (t.empty()) continue;
        ++sampled;
        bool throttled = flag_or(t, "throttled", false);
        for (const json &reason : array_or_empty(t, "throttle_reasons")) {
            if (!reason.is_string() || benign_throttle_reasons.contains(reason.get<std::string>())) continue;
            reasons.insert(reason.get<std::string>());
            throttled = true;
        }
        if (throttled) during.insert(text_or(*r, "probe", "?"));
    }
    if (sampled == 0) {
        c.outcome = Outcome::not_recorded;
        c.detail = "the set records no telemetry for this card";
    } else if (during.empty()) {
        c.detail = fmt::format("not throttled during the {} figure{} sampled", sampled, sampled == 1 ? "" : "s");
    } else {
        c.outcome = Outcome::below_floor;
        c.reason = "throttled";
        c.detail = fmt::format("throttled during {}{}", fmt::join(during, ", "),
                               reasons.empty() ? "" : fmt::format(" ({})", fmt::join(reasons, ", ")));
    }
    return c;
}

} // namespace vrb::health
