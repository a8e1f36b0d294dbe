// The card's own state: whether its memory holds what was written (integrity), whether
// every other figure verified, how its PCIe link trained, and whether it throttled.
#include "checks.hpp"

#include <vrambench/core/card/link.hpp>
#include <vrambench/core/card/throttle_reasons.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

namespace vrb::health {

namespace {

using nlohmann::json;

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

namespace {

// "bandwidth.stream read (16 B), interop.handoff and 3 more".
std::string some_of(const std::set<std::string> &names)
{
    std::vector<std::string> first(names.begin(), names.end());
    if (first.size() <= 3) return fmt::format("{}", fmt::join(first, ", "));
    const std::size_t more = first.size() - 2;
    first.resize(2);
    return fmt::format("{} and {} more", fmt::join(first, ", "), more);
}

std::string figure_name(const json &result)
{
    const auto f = health_figure(result);
    return f ? figure_text(f->key) : text_or(result, "probe", "?");
}

} // namespace

Check link_check(const json &set, const json &device)
{
    Check c;
    c.name = "link";
    // The transfers' own readings, taken while they ran: an idle GPU lowers its link's
    // speed (to Gen1 on many cards), so only a reading under load says what it trained at.
    const json *loaded = nullptr;
    std::optional<double> best;
    std::string during;
    for (const json *r : results_on(set, text_or(device, "id", ""))) {
        const json &l = object_or_empty(*r, "link");
        if (l.empty() || !text_or(l, "taken", "").starts_with("during the timed runs")) continue;
        const auto rate = current_rate(pcie_link_from_json(l));
        if (rate && (!best || *rate > *best)) {
            best = rate;
            loaded = &l;
            during = figure_name(*r);
        }
    }
    const json &idle = object_or_empty(device, "link");
    std::string noted;
    if (!idle.empty()) {
        const PcieLink at_rest = pcie_link_from_json(idle);
        if (below_max(at_rest) == true)
            noted = fmt::format("; idle at description it read {} (power management lowers an idle link: noted, not "
                                "judged)",
                                link_text(at_rest.current));
    }
    if (!loaded) {
        c.outcome = Outcome::not_recorded;
        c.detail = idle.empty() ? "the set records no PCIe link for this card"
                                : "no reading under load (no host-device transfer read it during its timed runs): "
                                  "the reading at description, idle, is not judged" +
                                      noted;
        return c;
    }
    const PcieLink link = pcie_link_from_json(*loaded);
    const auto supported = supported_rate(link);
    if (!supported) {
        c.outcome = Outcome::not_recorded;
        c.detail =
            fmt::format("{} under load, but the card's maximum is not recorded{}", link_text(link.current), noted);
        return c;
    }
    c.value = link.current.gts;
    const auto slot = pcie_rate_gb_per_s(link.port_max.gts.value_or(0), link.port_max.width.value_or(0));
    const bool slot_bound = slot && *slot < card_rate(link).value_or(*slot) * 0.999;
    const std::string allowed = slot_bound ? fmt::format("the {} slot's maximum (the card's is {})",
                                                         link_text(link.port_max), link_text(link.max))
                                           : fmt::format("the card's maximum {}", link_text(link.max));
    if (*best < *supported * 0.999) {
        c.outcome = Outcome::below_floor;
        c.reason = "link";
        c.detail = fmt::format("{} under load (during {}), below {}: {}{}", link_text(link.current), during, allowed,
                               link_finding(link), noted);
        return c;
    }
    c.detail = fmt::format("{} under load (during {}), {}{}", link_text(link.current), during, allowed, noted);
    return c;
}

Check telemetry_check(const json &set, const std::string &device)
{
    Check c;
    c.name = "telemetry";
    // Judged as NVIDIA's DCGM diagnostic judges a test: a thermal or hardware slowdown
    // while a judged figure ran fails; a power cap, idle or a clock setting is reported,
    // and the figures measured under it answer for themselves against their floors.
    std::size_t readable = 0, recorded = 0;
    std::string why_not;
    std::map<std::string, std::set<std::string>> slowdown, reported;
    for (const json *r : results_on(set, device)) {
        const auto f = health_figure(*r);
        const bool judged = f && trusted(*f) && card_figure(f->key);
        const json &t = object_or_empty(*r, "telemetry");
        recorded += !t.empty();
        std::set<std::string> names;
        if (t.contains("throttle_reasons") && t["throttle_reasons"].is_array()) {
            ++readable;
            for (const json &n : t["throttle_reasons"])
                if (n.is_string()) names.insert(n.get<std::string>());
        } else if (why_not.empty()) {
            const json &unavailable = object_or_empty(t, "unavailable");
            why_not = text_or(unavailable, "throttle_reasons", text_or(unavailable, "all", ""));
        }
        // The runner's own finding (clocked-down) is recorded only here.
        for (const json &n : array_or_empty(object_or_empty(*r, "throttled"), "reasons"))
            if (n.is_string()) names.insert(n.get<std::string>());
        const std::string what = figure_name(*r);
        for (const std::string &name : names) {
            const ThrottleReason *known = throttle_reason(name);
            if (known && known->kind == ThrottleClass::slowdown && judged)
                slowdown[name].insert(what);
            else
                reported[name].insert(known ? what : what + " (a reason no source of this version writes)");
        }
    }
    std::vector<std::string> notes;
    for (const auto &[name, during] : reported)
        notes.push_back(fmt::format("{} during {}", name, some_of(during)));
    const std::string reported_text =
        notes.empty() ? "" : fmt::format("; reported, judged by the figures' floors: {}", fmt::join(notes, "; "));
    if (!slowdown.empty()) {
        std::vector<std::string> failed;
        for (const auto &[name, during] : slowdown)
            failed.push_back(fmt::format("{} during {}", name, some_of(during)));
        c.outcome = Outcome::below_floor;
        c.reason = "throttled";
        c.detail = fmt::format("thermal or hardware slowdown while judged figures ran: {}{}", fmt::join(failed, "; "),
                               reported_text);
    } else if (readable == 0) {
        c.outcome = Outcome::not_recorded;
        c.detail = recorded == 0 ? "the set records no telemetry for this card" + reported_text
                                 : fmt::format("no throttle reason was readable for this card{}{}",
                                               why_not.empty() ? "" : fmt::format(" ({})", why_not), reported_text);
    } else {
        c.detail = fmt::format("no thermal or hardware slowdown (hw-slowdown, sw-thermal, hw-thermal, hw-power-brake) "
                               "in the {} result{} whose reasons were read{}",
                               readable, readable == 1 ? "" : "s", reported_text);
    }
    return c;
}

} // namespace vrb::health
