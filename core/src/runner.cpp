#include <vrambench/core/measure.hpp>
#include <vrambench/core/runner.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <random>

#ifndef VRAMBENCH_VERSION
#define VRAMBENCH_VERSION "0.0.0"
#endif
#ifndef VRAMBENCH_GIT_COMMIT
#define VRAMBENCH_GIT_COMMIT "unknown"
#endif

namespace vrb {

namespace {

std::string run_id()
{
    std::random_device rd;
    return fmt::format("{:08x}{:08x}", rd(), rd());
}

std::string names_of(const std::vector<BackendEntry> &entries)
{
    std::vector<std::string> names;
    for (const auto &e : entries)
        names.push_back(e.name);
    return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

const BackendEntry &find_backend(const std::vector<BackendEntry> &entries, std::string_view name)
{
    for (const auto &e : entries)
        if (e.name == name) {
            if (e.state != BackendEntry::State::available)
                throw RunError(fmt::format("backend '{}' is {}: {}", name, to_string(e.state), e.reason));
            return e;
        }
    throw UsageError(fmt::format("unknown backend '{}' (found: {})", name, names_of(entries)));
}

} // namespace

DeviceTarget resolve_device(const std::vector<BackendEntry> &entries, std::string_view name)
{
    const auto colon = name.find(':');
    uint32_t index = 0;
    const std::string_view number = colon == std::string_view::npos ? std::string_view() : name.substr(colon + 1);
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), index);
    if (colon == std::string_view::npos || number.empty() || ec != std::errc() || end != number.data() + number.size())
        throw UsageError(fmt::format("invalid device '{}': name a device as backend:index, e.g. host:0", name));
    const BackendEntry &entry = find_backend(entries, name.substr(0, colon));
    const uint32_t count = entry.backend->device_count();
    if (index >= count)
        throw UsageError(fmt::format("device {} does not exist: backend '{}' has {} device{}{}", name, entry.name,
                                     count, count == 1 ? "" : "s",
                                     count ? fmt::format(" ({}:0 to {}:{})", entry.name, entry.name, count - 1) : ""));
    return {entry.backend, index};
}

DeviceRecord describe_device(const Backend &backend, Device *device, uint32_t index)
{
    DeviceRecord record;
    record.backend = backend.name();
    record.index = index;
    record.id = fmt::format("{}:{}", record.backend, index);
    record.info = backend.describe(index);
    if (device) record.kinds = device->memory_kinds();
    return record;
}

nlohmann::json backends_json(const std::vector<BackendEntry> &entries)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto &e : entries) {
        nlohmann::json j = {{"name", e.name},
                            {"file", e.file.string()},
                            {"state", to_string(e.state)},
                            {"reason", e.reason.empty() ? nlohmann::json() : nlohmann::json(e.reason)}};
        if (e.backend) {
            const auto v = e.backend->module().version();
            j["abi_version"] = fmt::format("{}.{}", VRB_VERSION_MAJOR(v), VRB_VERSION_MINOR(v));
            const char *mv = e.backend->module().table().module_version;
            j["module_version"] = mv ? nlohmann::json(mv) : nlohmann::json();
        }
        list.push_back(std::move(j));
    }
    return list;
}

RunOutcome run_benchmarks(const RunRequest &request, const std::vector<BackendEntry> &entries,
                          const RunObserver &observer)
{
    // Check everything the user named before measuring anything.
    std::vector<const Probe *> probes;
    for (const auto &probe : all_probes()) {
        const bool wanted =
            request.probes.empty() || std::any_of(request.probes.begin(), request.probes.end(),
                                                  [&](const std::string &p) { return probe_matches(probe->id(), p); });
        if (wanted) probes.push_back(probe.get());
    }
    for (const auto &pattern : request.probes) {
        const bool any = std::any_of(all_probes().begin(), all_probes().end(),
                                     [&](const auto &probe) { return probe_matches(probe->id(), pattern); });
        if (!any) throw UsageError(fmt::format("no probe matches '{}' (see vrambench probes)", pattern));
    }
    std::vector<DeviceTarget> targets;
    if (!request.devices.empty()) {
        for (const auto &name : request.devices)
            targets.push_back(resolve_device(entries, name));
    } else if (!request.backends.empty()) {
        for (const auto &name : request.backends) {
            const BackendEntry &entry = find_backend(entries, name);
            for (uint32_t i = 0; i < entry.backend->device_count(); ++i)
                targets.push_back({entry.backend, i});
        }
    } else {
        for (const auto &entry : entries)
            if (entry.state == BackendEntry::State::available)
                for (uint32_t i = 0; i < entry.backend->device_count(); ++i)
                    targets.push_back({entry.backend, i});
    }
    if (targets.empty()) throw RunError("no device to measure: no backend is available (see vrambench list)");

    RunOutcome outcome;
    nlohmann::json &doc = outcome.document;
    doc["schema_version"] = schema_version;
    doc["tool"] = {{"name", "vrambench"}, {"version", VRAMBENCH_VERSION}, {"git_commit", VRAMBENCH_GIT_COMMIT}};
    doc["run"] = {{"id", run_id()},       {"started", utc_now()},
                  {"finished", nullptr},  {"command_line", request.command_line},
                  {"status", "complete"}, {"suite", to_string(request.options.suite)}};
    doc["host"] = host_json();
    doc["backends"] = backends_json(entries);
    doc["devices"] = nlohmann::json::array();
    doc["results"] = nlohmann::json::array();

    bool failed = false, verification_failed = false;
    for (const DeviceTarget &target : targets) {
        std::unique_ptr<Device> device;
        DeviceRecord record;
        try {
            device = target.backend->open(target.index);
            record = describe_device(*target.backend, device.get(), target.index);
        } catch (const Error &e) {
            failed = true;
            ProbeResult r;
            r.probe = "device.open";
            r.backend = target.backend->name();
            r.device = fmt::format("{}:{}", r.backend, target.index);
            r.metric = "count";
            r.unit = "1";
            r.status = ProbeResult::Status::failed;
            r.error = e.what();
            r.verification = {Verification::Status::unverified, "the device could not be opened"};
            if (observer.result) observer.result(r);
            doc["results"].push_back(to_json(r));
            continue;
        }
        doc["devices"].push_back(to_json(record));
        if (observer.device_started) observer.device_started(record);
        for (const Probe *probe : probes) {
            ProbeContext ctx{*device, record, request.options, {}, {}};
            ctx.emit = [&](ProbeResult r) {
                failed |= r.status == ProbeResult::Status::failed;
                verification_failed |= r.verification.status == Verification::Status::failed;
                if (observer.result) observer.result(r);
                doc["results"].push_back(to_json(r));
            };
            ctx.progress.update = [&](std::string_view step, double fraction) {
                if (observer.progress)
                    observer.progress(fmt::format("{} {} {}", record.id, probe->id(), step), fraction);
            };
            try {
                probe->run(ctx);
            } catch (const Error &e) {
                ProbeResult r = make_result(ctx, probe->id());
                r.status = ProbeResult::Status::failed;
                r.error = e.what();
                r.verification = {Verification::Status::unverified, "the probe stopped before a result"};
                ctx.emit(std::move(r));
            }
        }
    }
    doc["run"]["finished"] = utc_now();
    doc["run"]["status"] = verification_failed ? "verification-failed" : failed ? "failed" : "complete";
    outcome.exit = verification_failed ? ExitCode::verification : failed ? ExitCode::run_failed : ExitCode::ok;
    return outcome;
}

} // namespace vrb
