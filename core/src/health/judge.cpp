// One card's verdict: its checks, and the exit code they add up to.
#include "checks.hpp"

#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace vrb::health {

namespace {

using nlohmann::json;

bool judged_and_held(const Check &c)
{
    return c.outcome == Outcome::pass && !c.judged_against.empty();
}

bool stream_read(const Check &c)
{
    return c.figure && c.figure->probe == "bandwidth.stream" && c.figure->operation == "read";
}

// Whether a card may be called healthy: its stream read and at least one more figure
// held against a reference or a datasheet floor. A check that merely could not fail
// (nothing to judge against, nothing measured) never makes a card healthy.
bool enough_judged(const std::vector<Check> &checks)
{
    const auto held = std::count_if(checks.begin(), checks.end(), judged_and_held);
    const bool read =
        std::any_of(checks.begin(), checks.end(), [](const Check &c) { return judged_and_held(c) && stream_read(c); });
    return read && static_cast<std::size_t>(held) >= least_judged_figures;
}

ExitCode exit_of(const std::vector<Check> &checks)
{
    const auto any = [&](Outcome o) {
        return std::any_of(checks.begin(), checks.end(), [o](const Check &c) { return c.outcome == o; });
    };
    if (any(Outcome::failed)) return ExitCode::verification;
    if (any(Outcome::below_floor)) return ExitCode::below_threshold;
    if (any(Outcome::not_measured)) return ExitCode::run_failed;
    if (!enough_judged(checks)) return not_judged_exit;
    return ExitCode::ok;
}

// "7 against the datasheet floor, 1 against a measured reference".
std::string judged_text(const std::vector<Check> &checks)
{
    std::vector<std::pair<std::string, std::size_t>> against;
    for (const Check &c : checks) {
        if (!judged_and_held(c)) continue;
        auto at =
            std::find_if(against.begin(), against.end(), [&](const auto &a) { return a.first == c.judged_against; });
        if (at == against.end()) at = against.insert(against.end(), {c.judged_against, 0});
        ++at->second;
    }
    std::vector<std::string> parts;
    for (const auto &[what, n] : against)
        parts.push_back(fmt::format("{} against {}", n, what));
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::string healthy_text(const std::vector<Check> &checks)
{
    const auto held = std::count_if(checks.begin(), checks.end(), judged_and_held);
    std::string text =
        fmt::format("healthy: {} figure{} held their floors ({})", held, held == 1 ? "" : "s", judged_text(checks));
    for (const Check &c : checks)
        if (c.name == "telemetry")
            text += c.outcome == Outcome::pass ? "; no thermal or hardware slowdown (DCGM's reasons)"
                                               : "; throttle reasons not read";
    return text;
}

std::string not_judged_text(const std::vector<Check> &checks)
{
    const auto held = std::count_if(checks.begin(), checks.end(), judged_and_held);
    const auto unjudged = std::count_if(checks.begin(), checks.end(), [](const Check &c) {
        return c.figure && (c.outcome == Outcome::not_judged || c.outcome == Outcome::not_recorded);
    });
    const bool read =
        std::any_of(checks.begin(), checks.end(), [](const Check &c) { return judged_and_held(c) && stream_read(c); });
    if (held == 0)
        return fmt::format("not judged: no figure was held against a reference or a datasheet floor ({} figure{} "
                           "with nothing to judge against, skipped or not the card's own); give --reference",
                           unjudged, unjudged == 1 ? "" : "s");
    return fmt::format("not judged: {} figure{} held ({}){}, but healthy needs the stream read and {} figures in all "
                       "judged; give --reference",
                       held, held == 1 ? "" : "s", judged_text(checks), read ? "" : " and not the stream read",
                       least_judged_figures);
}

// "below reference (bandwidth.stream read (16 B) and 6 more), link": each reason once,
// with the first check it names where that is not the reason itself.
std::string names_of(const std::vector<Check> &checks, Outcome outcome)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    for (const Check &c : checks) {
        if (c.outcome != outcome) continue;
        const std::string reason = c.reason.empty() ? c.name : c.reason;
        auto at = std::find_if(reasons.begin(), reasons.end(), [&](const auto &r) { return r.first == reason; });
        if (at == reasons.end()) at = reasons.insert(reasons.end(), {reason, {}});
        if (c.name != reason) at->second.push_back(c.name);
    }
    std::vector<std::string> parts;
    for (const auto &[reason, names] : reasons)
        parts.push_back(names.empty() ? reason
                        : names.size() == 1
                            ? fmt::format("{} ({})", reason, names.front())
                            : fmt::format("{} ({} and {} more)", reason, names.front(), names.size() - 1));
    return fmt::format("{}", fmt::join(parts, ", "));
}

} // namespace

std::string_view to_string(Outcome outcome)
{
    switch (outcome) {
    case Outcome::pass: return "pass";
    case Outcome::below_floor: return "below-floor";
    case Outcome::failed: return "failed";
    case Outcome::not_measured: return "not-measured";
    case Outcome::not_judged: return "not-judged";
    case Outcome::not_recorded: return "not-recorded";
    }
    return "unknown";
}

std::vector<std::string> CardVerdict::reasons() const
{
    std::vector<std::string> out;
    for (const Check &c : checks)
        if (!c.reason.empty() && std::find(out.begin(), out.end(), c.reason) == out.end()) out.push_back(c.reason);
    return out;
}

CardVerdict judge_card(const json &set, const std::string &set_name, const json &device, const References &references,
                       const HealthOptions &options)
{
    CardVerdict v;
    v.set = set_name;
    v.device = text_or(device, "id", "?");
    v.name = text_or(device, "name", "?");
    v.key = text_or(device, "key", v.device);
    v.model = card_model_of(device).key;
    v.checks = figure_checks(set, device, references, options);
    const bool figures = !v.checks.empty();
    v.checks.push_back(integrity_check(set, v.device));
    v.checks.push_back(verification_check(set, v.device));
    v.checks.push_back(link_check(set, device));
    v.checks.push_back(telemetry_check(set, v.device));
    if (!figures) {
        Check c;
        c.name = "figures";
        c.outcome = Outcome::not_judged;
        c.reason = "not judged";
        c.detail = "the set holds no stream, transfer or chase figure for this card: run `vrambench health --device "
                   "ID` or `vrambench run --suite quick`";
        v.checks.insert(v.checks.begin(), std::move(c));
    }
    v.exit = exit_of(v.checks);
    switch (v.exit) {
    case ExitCode::verification: v.verdict = fmt::format("unhealthy: {}", names_of(v.checks, Outcome::failed)); break;
    case ExitCode::below_threshold:
        v.verdict = fmt::format("unhealthy: {}", names_of(v.checks, Outcome::below_floor));
        break;
    case ExitCode::run_failed:
        v.verdict = fmt::format("could not measure: {}", names_of(v.checks, Outcome::not_measured));
        break;
    default: v.verdict = v.exit == not_judged_exit ? not_judged_text(v.checks) : healthy_text(v.checks);
    }
    return v;
}

std::vector<CardVerdict> judge_set(const json &set, const std::string &set_name, const std::string &device,
                                   const References &references, const HealthOptions &options)
{
    const json &devices = array_or_empty(set, "devices");
    std::vector<CardVerdict> verdicts;
    if (!device.empty()) {
        for (const json &d : devices)
            if (text_or(d, "id", "") == device) return {judge_card(set, set_name, d, references, options)};
        std::vector<std::string> ids;
        for (const json &d : devices)
            ids.push_back(text_or(d, "id", "?"));
        throw UsageError(
            fmt::format("{}: no device {} in the set (it has {})", set_name, device, fmt::join(ids, ", ")));
    }
    const bool others =
        std::any_of(devices.begin(), devices.end(), [](const json &d) { return text_or(d, "id", "") != "host:0"; });
    for (const json &d : devices)
        if (!others || text_or(d, "id", "") != "host:0")
            verdicts.push_back(judge_card(set, set_name, d, references, options));
    if (verdicts.empty()) throw UsageError(fmt::format("{}: the set measured no device", set_name));
    return verdicts;
}

ExitCode health_exit(const std::vector<CardVerdict> &verdicts)
{
    const auto any = [&](ExitCode e) {
        return std::any_of(verdicts.begin(), verdicts.end(), [e](const CardVerdict &v) { return v.exit == e; });
    };
    for (const ExitCode e : {ExitCode::verification, ExitCode::below_threshold, ExitCode::run_failed, not_judged_exit})
        if (any(e)) return e;
    return ExitCode::ok;
}

} // namespace vrb::health
