// The short run behind `fit --device`: the same runner and probes as `vrambench run`,
// with a probe list of its own.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/measure.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/run/runner.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb::fit {

namespace {

using nlohmann::json;

// The device as its worker describes it; UsageError when it is not there to measure.
json described_device(const std::string &device, const DiscoveryOptions &discovery, double timeout_seconds)
{
    const auto colon = device.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == device.size() ||
        device.find_first_not_of("0123456789", colon + 1) != std::string::npos)
        throw UsageError(fmt::format("--device '{}': name a device as backend:index, e.g. cuda:0", device));
    const std::string backend = device.substr(0, colon);
    const json backends = describe_backends_in_workers(discovery, timeout_seconds);
    for (const json &b : backends) {
        if (text_or(b, "name", "") != backend) continue;
        if (text_or(b, "state", "") != "available")
            throw UsageError(fmt::format(
                "--device {}: backend '{}' is {}: {}", device, backend, text_or(b, "state", ""),
                b.contains("reason") && b["reason"].is_string() ? b["reason"].get<std::string>() : "no reason given"));
        for (const json &d : array_or_empty(b, "devices")) {
            if (text_or(d, "id", "") != device) continue;
            if (d.contains("error"))
                throw UsageError(fmt::format("--device {} failed: {}", device, d["error"].get<std::string>()));
            return d;
        }
        throw UsageError(fmt::format("--device {}: backend '{}' has {} device(s)", device, backend,
                                     array_or_empty(b, "devices").size()));
    }
    throw UsageError(fmt::format("--device {}: no backend '{}' was found (see vrambench list)", device, backend));
}

// A card's own memory may be measured whole; memory that is system RAM keeps the run's
// default budget, so fit never pushes the machine into swap.
bool memory_is_system_ram(const json &device)
{
    for (const json &kind : array_or_empty(device, "memory_kinds")) {
        const json &flags = array_or_empty(kind, "flags");
        const auto has = [&](const char *f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
        if (has("device-local") && !has("host-memory")) return false;
    }
    return true;
}

json run_probes(const std::vector<std::string> &devices, const std::vector<std::string> &probes, bool whole_memory,
                const DiscoveryOptions &discovery, double timeout_seconds)
{
    RunRequest request;
    request.devices = devices;
    request.probes = probes;
    request.options.suite = Suite::quick;
    if (whole_memory) request.options.memory_limit = MemoryLimit{0, 1.0};
    request.command_line = {"vrambench", "fit", "--device", devices.front()};
    request.discovery = discovery;
    request.timeout_seconds = timeout_seconds;
    return supervise_run(request, RunObserver{}).document;
}

// The first failure the run recorded on `device`, for the message.
std::string failure_of(const json &set, const std::string &device)
{
    for (const json &r : array_or_empty(set, "results"))
        if (text_or(r, "device", "") == device && r.contains("error") && r["error"].is_string() &&
            text_or(r, "status", "") != "ok" && text_or(r, "status", "") != "waived")
            return fmt::format("{} {}: {}", text_or(r, "probe", ""), text_or(r, "status", ""),
                               r["error"].get<std::string>());
    for (const json &b : array_or_empty(set, "backends"))
        if (text_or(b, "state", "") != "available" && b.contains("reason") && b["reason"].is_string())
            return fmt::format("backend {} {}: {}", text_or(b, "name", ""), text_or(b, "state", ""),
                               b["reason"].get<std::string>());
    return "no figure came back";
}

} // namespace

const std::vector<std::string> &fit_probes()
{
    static const std::vector<std::string> probes{"capacity.report", "capacity.total", "capacity.max-alloc",
                                                 "capacity.fragmentation", "bandwidth.stream"};
    return probes;
}

json measure_for_fit(const std::string &device, const DiscoveryOptions &discovery, double timeout_seconds, bool link)
{
    std::vector<std::string> probes = fit_probes();
    if (link && device != "host:0") probes.push_back("memory.kinds");
    const json described = described_device(device, discovery, timeout_seconds);
    json set;
    try {
        set = run_probes({device}, probes, !memory_is_system_ram(described), discovery, timeout_seconds);
    } catch (const Error &e) {
        throw UsageError(fmt::format("--device {} failed: {}", device, e.what()));
    }
    if (device == "host:0") return set;
    // Host RAM's read beside the card, for "served from host RAM"; without it the answer
    // only lacks that line.
    try {
        json host = run_probes({"host:0"}, {"bandwidth.stream"}, false, discovery, timeout_seconds);
        for (json &d : host["devices"])
            set["devices"].push_back(std::move(d));
        for (json &r : host["results"])
            set["results"].push_back(std::move(r));
    } catch (const Error &) {
    }
    return set;
}

std::optional<Figure> measure_host_read(const DiscoveryOptions &discovery, double timeout_seconds)
{
    try {
        return host_read_in_set(run_probes({"host:0"}, {"bandwidth.stream"}, false, discovery, timeout_seconds));
    } catch (const Error &) {
        return std::nullopt;
    }
}

Card measure_card(const std::string &device, const DiscoveryOptions &discovery, double timeout_seconds, bool link)
{
    const json set = measure_for_fit(device, discovery, timeout_seconds, link);
    try {
        Card card = card_from_result_set(set, "the run just made", device);
        card.measured = "measured now";
        if (card.host_read_gb_per_s) card.host_measured = "measured now on this machine";
        return card;
    } catch (const UsageError &) {
        throw UsageError(fmt::format("--device {} failed: {}", device, failure_of(set, device)));
    }
}

} // namespace vrb::fit
