// The short run behind `health --device`: the runner and probes of `vrambench run`,
// with a probe list of its own.
#include <vrambench/core/error.hpp>
#include <vrambench/core/health/measure.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/run/runner.hpp>

#include <fmt/format.h>

namespace vrb::health {

namespace {

using nlohmann::json;

// Why a device has no description in the set: its backend's state, or nothing known.
std::string missing_reason(const json &set, const std::string &device)
{
    const std::string backend = device.substr(0, device.find(':'));
    for (const json &b : array_or_empty(set, "backends"))
        if (text_or(b, "name", "") == backend && text_or(b, "state", "") != "available")
            return fmt::format("backend {} is {}: {}", backend, text_or(b, "state", "?"),
                               text_or(b, "reason", "no reason given"));
    return fmt::format("the run recorded no device {}", device);
}

} // namespace

const std::vector<std::string> &health_probes()
{
    static const std::vector<std::string> probes{"bandwidth.stream", "integrity.pattern", "bandwidth.transfer"};
    return probes;
}

json measure_for_health(const std::vector<std::string> &devices, const DiscoveryOptions &discovery,
                        double timeout_seconds)
{
    for (const std::string &d : devices) {
        const auto colon = d.find(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == d.size() ||
            d.find_first_not_of("0123456789", colon + 1) != std::string::npos)
            throw UsageError(fmt::format("--device '{}': name a device as backend:index, e.g. cuda:0", d));
    }
    RunRequest request;
    request.devices = devices;
    request.probes = health_probes();
    request.options.suite = Suite::quick;
    request.command_line = {"vrambench", "health"};
    for (const std::string &d : devices)
        request.command_line.insert(request.command_line.end(), {"--device", d});
    request.discovery = discovery;
    request.timeout_seconds = timeout_seconds;
    return supervise_run(request, RunObserver{}).document;
}

std::vector<CardVerdict> judge_measured(const json &set, const std::vector<std::string> &devices,
                                        const References &references, const HealthOptions &options)
{
    std::vector<CardVerdict> verdicts;
    for (const std::string &id : devices) {
        const json *device = nullptr;
        for (const json &d : array_or_empty(set, "devices"))
            if (text_or(d, "id", "") == id) device = &d;
        if (device) {
            verdicts.push_back(judge_card(set, "measured now", *device, references, options));
            continue;
        }
        CardVerdict v;
        v.set = "measured now";
        v.device = id;
        Check c;
        c.name = "figures";
        c.outcome = Outcome::not_measured;
        c.reason = "not measured";
        c.detail = missing_reason(set, id);
        v.checks.push_back(std::move(c));
        v.exit = ExitCode::run_failed;
        v.verdict = fmt::format("could not measure: {}", v.checks.front().detail);
        verdicts.push_back(std::move(v));
    }
    return verdicts;
}

} // namespace vrb::health
