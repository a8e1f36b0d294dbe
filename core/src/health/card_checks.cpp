// The card's own state: whether its memory holds what was written (integrity), whether
// every other figure verified, how its PCIe link trained, and whether it throttled.
#include "checks.hpp"

#include <vrambench/core/card/link.hpp>
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
    const json &recorded = object_or_empty(device, "link");
    const PcieLink link = pcie_link_from_json(recorded);
    const std::optional<bool> below = below_max(link);
    if (recorded.empty() || !below) {
        c.outcome = Outcome::not_recorded;
        c.detail = "the set records no PCIe link for this card";
        return c;
    }
    c.value = link.current.gts;
    if (!*below) {
        c.detail = fmt::format("trained at {}, its maximum", link_text(link.current));
        return c;
    }
    c.outcome = Outcome::below_floor;
    c.reason = "link";
    const std::string finding = link_finding(link);
    c.detail = !finding.empty()
                   ? finding
                   : fmt::format("trained at {}, below its maximum {}", link_text(link.current), link_text(link.max));
    return c;
}

Check telemetry_check(const json &set, const std::string &device)
{
    Check c;
    c.name = "telemetry";
    std::size_t sampled = 0;
    std::set<std::string> reasons, during;
    for (const json *r : results_on(set, device)) {
        // The run marks a result measured while a power, thermal or hardware-slowdown
        // reason held the card (`throttled`); the reasons sampled are in its telemetry.
        const json &t = object_or_empty(*r, "telemetry");
        const json &marked = object_or_empty(*r, "throttled");
        if (t.empty() && marked.empty()) continue;
        ++sampled;
        bool throttled = !marked.empty();
        for (const json &reason : array_or_empty(marked, "reasons"))
            if (reason.is_string()) reasons.insert(reason.get<std::string>());
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
