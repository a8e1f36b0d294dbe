#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/run/runner.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace vrb {

std::vector<const Probe *> select_probes(const std::vector<std::string> &patterns)
{
    for (const auto &pattern : patterns) {
        const bool any = std::any_of(all_probes().begin(), all_probes().end(),
                                     [&](const auto &probe) { return probe_matches(probe->id(), pattern); });
        if (!any) throw UsageError(fmt::format("no probe matches '{}' (see vrambench probes)", pattern));
    }
    std::vector<const Probe *> probes;
    for (const auto &probe : all_probes()) {
        const bool wanted =
            patterns.empty() || std::any_of(patterns.begin(), patterns.end(),
                                            [&](const std::string &p) { return probe_matches(probe->id(), p); });
        if (wanted) probes.push_back(probe.get());
    }
    return probes;
}

DeviceRecord describe_device(const Backend &backend, Device *device, uint32_t index)
{
    DeviceRecord record;
    record.backend = backend.name();
    record.index = index;
    record.id = fmt::format("{}:{}", record.backend, index);
    record.info = backend.describe(index);
    if (device) record.kinds = device->memory_kinds();
    describe_link(record);
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

namespace {

// A probe the run's time left no room for, with the reason.
ProbeResult skipped(const ProbeContext &ctx, std::string_view probe, std::string reason)
{
    ProbeResult r = make_result(ctx, probe);
    r.metric = "count"; // what the probe would have measured is not known before it runs
    r.unit = "1";
    r.status = ProbeResult::Status::skipped;
    r.error = "skipped: " + std::move(reason);
    r.verification = {Verification::Status::unverified, "not run"};
    return r;
}

// The plan's estimate for one probe on the device, or null where it gives none.
nlohmann::json planned_seconds(const Probe &probe, const DeviceRecord &record, const ProbeOptions &options,
                               const Throughput &throughput)
{
    try {
        const ProbePlan plan = probe.plan(record, options);
        return plan.estimated ? nlohmann::json(estimate_seconds(plan.cost, throughput)) : nlohmann::json();
    } catch (const Error &) {
        return nullptr; // the probe itself will say what is wrong with its plan
    }
}

} // namespace

DeviceRunStatus run_device(const Backend &backend, uint32_t index, const std::vector<const Probe *> &probes,
                           const ProbeOptions &run_options, const RunObserver &observer)
{
    ProbeOptions options = run_options; // with the economy the device's time budget asks for
    DeviceRunStatus status;
    auto report = [&](const ProbeResult &r) {
        status.failed |= r.status == ProbeResult::Status::failed;
        status.verification_failed |= r.verification.status == Verification::Status::failed;
        if (observer.result) observer.result(r);
    };
    std::unique_ptr<Device> device;
    DeviceRecord record;
    try {
        device = backend.open(index);
        record = describe_device(backend, device.get(), index);
        record.llc_option = options.llc;
        const uint32_t count = backend.device_count();
        options.peer_devices = count > 1 ? count - 1 : 0;
    } catch (const Error &e) {
        ProbeResult r;
        r.probe = "device.open";
        r.backend = backend.name();
        r.device = fmt::format("{}:{}", r.backend, index);
        r.metric = "count";
        r.unit = "1";
        r.status = ProbeResult::Status::failed;
        r.error = e.what();
        r.verification = {Verification::Status::unverified, "the device could not be opened"};
        report(r);
        return status;
    }
    // The standard suite's time budget: the plan gives up repetitions, then points, to
    // keep it, and the device's record says what it gave up before anything runs.
    try {
        const DevicePlan plan = plan_within_budget(record, probes, options);
        options.economy = plan.economy;
        if (plan.most_array_bytes) options.most_array_bytes = plan.most_array_bytes;
        record.time_budget = budget_json(plan);
        record.ram_budget = ram_budget_json(plan);
        // The pool frees idle buffers before what it holds would pass the RAM budget.
        device->pool().set_limit(plan.ram_budget_bytes);
    } catch (const Error &) {
        // A plan refused (a --size below a probe's start): each probe says so as it runs.
    }
    if (observer.device_started) observer.device_started(record);
    // Clocks, power, busy % and link beside the timed runs; a peer's PCI address for
    // whether a peer copy crosses NVLink or xGMI.
    CardWatch watch(record, [&backend](const std::string &peer_id) -> std::string {
        const std::string prefix = backend.name() + ":";
        if (peer_id.rfind(prefix, 0) != 0) return {};
        try {
            const vrb_device_info info =
                backend.describe(static_cast<uint32_t>(std::stoul(peer_id.substr(prefix.size()))));
            return info.known & VRB_KNOWN_PCI_ADDRESS ? module_string(info.pci_address) : std::string();
        } catch (const std::exception &) {
            return {}; // the peer result says what is wrong with the peer
        }
    });
    const auto started = std::chrono::steady_clock::now();
    const Throughput throughput = assumed_throughput(record);
    for (const Probe *probe : probes) {
        if (cancel_requested()) break;
        // Each result keeps the seconds it took and the plan's estimate for its probe, so
        // a first run on a new device shows how far the estimator was off.
        const nlohmann::json estimate = planned_seconds(*probe, record, options, throughput);
        const auto probe_started = std::chrono::steady_clock::now();
        auto last = probe_started;
        auto timed_report = [&](ProbeResult r) {
            const auto now = std::chrono::steady_clock::now();
            if (!r.extra.is_object()) r.extra = nlohmann::json::object();
            r.extra["wall_time"] = {{"seconds", std::chrono::duration<double>(now - last).count()},
                                    {"probe_seconds", std::chrono::duration<double>(now - probe_started).count()},
                                    {"probe_estimate_seconds", estimate},
                                    // What the estimate counts a GPU's points to run back to back
                                    // before timing (time_point()), so the work is estimated again as it ran.
                                    {"warm_seconds_per_point", throughput.warm_seconds_per_point}};
            last = now;
            watch.annotate(r);
            report(r);
        };
        ProbeContext ctx{*device, record, options, timed_report, {}};
        if (options.time_budget_seconds) {
            const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (used >= *options.time_budget_seconds) {
                report(skipped(ctx, probe->id(),
                               fmt::format("the run's --max-seconds budget left {:.1f} s for this device and {:.1f} s "
                                           "of it were spent before this probe",
                                           *options.time_budget_seconds, used)));
                continue;
            }
        }
        if (options.probe_budget_seconds && estimate.is_number() &&
            estimate.get<double>() > *options.probe_budget_seconds) {
            report(skipped(ctx, probe->id(),
                           fmt::format("its plan estimates {:.1f} s, past the --probe-max-seconds budget of {:.1f} s",
                                       estimate.get<double>(), *options.probe_budget_seconds)));
            continue;
        }
        ctx.progress.update = [&](std::string_view step, double fraction) {
            if (observer.progress) observer.progress(fmt::format("{} {} {}", record.id, probe->id(), step), fraction);
        };
        try {
            probe->run(ctx);
        } catch (const Error &e) {
            ProbeResult r = make_result(ctx, probe->id());
            // A module declining what the probe needs waives the probe; anything else fails it.
            r.status = declined(e) ? ProbeResult::Status::waived : ProbeResult::Status::failed;
            r.error = e.what();
            r.verification = {Verification::Status::unverified,
                              declined(e) ? "not run: the backend declined it" : "the probe stopped before a result"};
            report(r);
        }
    }
    return status;
}

nlohmann::json to_json(const ProbeOptions &o)
{
    nlohmann::json j = {{"suite", to_string(o.suite)}, {"estimator", to_string(o.estimator)}};
    if (o.size) j["size"] = *o.size;
    if (o.repetitions) j["repetitions"] = *o.repetitions;
    if (o.llc) j["llc"] = *o.llc;
    if (o.memory_limit) j["memory_limit"] = {{"bytes", o.memory_limit->bytes}, {"fraction", o.memory_limit->fraction}};
    if (o.time_budget_seconds) j["time_budget_seconds"] = *o.time_budget_seconds;
    if (o.probe_budget_seconds) j["probe_budget_seconds"] = *o.probe_budget_seconds;
    if (o.device_budget_seconds) j["device_budget_seconds"] = *o.device_budget_seconds;
    if (o.economy) j["economy"] = o.economy;
    if (o.most_array_bytes) j["most_array_bytes"] = *o.most_array_bytes;
    if (!o.partner_modules.empty()) j["partner_modules"] = o.partner_modules;
    return j;
}

ProbeOptions probe_options_from_json(const nlohmann::json &j)
{
    ProbeOptions o;
    const std::string suite = j.value("suite", "standard");
    o.suite = suite == "quick" ? Suite::quick : suite == "full" ? Suite::full : Suite::standard;
    const std::string estimator = j.value("estimator", "median");
    o.estimator = estimator == "min"    ? Estimator::min
                  : estimator == "max"  ? Estimator::max
                  : estimator == "mean" ? Estimator::mean
                                        : Estimator::median;
    if (j.contains("size")) o.size = j["size"].get<uint64_t>();
    if (j.contains("llc")) o.llc = j["llc"].get<uint64_t>();
    if (j.contains("repetitions")) o.repetitions = j["repetitions"].get<uint32_t>();
    if (j.contains("memory_limit")) {
        MemoryLimit limit;
        limit.bytes = j["memory_limit"].value("bytes", uint64_t{0});
        limit.fraction = j["memory_limit"].value("fraction", 0.0);
        o.memory_limit = limit;
    }
    if (j.contains("time_budget_seconds")) o.time_budget_seconds = j["time_budget_seconds"].get<double>();
    if (j.contains("probe_budget_seconds")) o.probe_budget_seconds = j["probe_budget_seconds"].get<double>();
    if (j.contains("device_budget_seconds")) o.device_budget_seconds = j["device_budget_seconds"].get<double>();
    if (j.contains("economy")) o.economy = j["economy"].get<uint32_t>();
    if (j.contains("most_array_bytes")) o.most_array_bytes = j["most_array_bytes"].get<uint64_t>();
    if (j.contains("partner_modules")) o.partner_modules = j["partner_modules"].get<std::vector<std::string>>();
    return o;
}

} // namespace vrb
