// `vrambench run` and `list`: every module described and run in a worker process of
// its own; findings merged into one result set as they stream in, each finished
// result appended to the journal at once, so a fault or an interrupt loses nothing
// that finished.
#include <vrambench/core/modules/build_note.hpp>
#include <vrambench/core/run/concurrent_run.hpp>
#include <vrambench/core/run/runner.hpp>
#include <vrambench/core/run/worker.hpp>
#include <vrambench/core/version.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

namespace vrb {

namespace {

std::string run_id()
{
    std::random_device rd;
    return fmt::format("{:08x}{:08x}", rd(), rd());
}

// One line per finished result, appended with one write so a line is whole or absent.
class Journal {
  public:
    explicit Journal(const std::filesystem::path &path)
    {
        if (path.empty()) return;
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw RunError(fmt::format("cannot write the journal {}: {}", path.string(), std::strerror(errno)));
    }
    ~Journal()
    {
        if (fd_ >= 0) ::close(fd_);
    }
    Journal(const Journal &) = delete;
    Journal &operator=(const Journal &) = delete;
    void append(const nlohmann::json &entry)
    {
        if (fd_ < 0) return;
        const std::string line = entry.dump() + "\n";
        (void)!::write(fd_, line.data(), line.size());
    }

  private:
    int fd_ = -1;
};

nlohmann::json describe_one(const std::filesystem::path &file, double timeout)
{
    nlohmann::json entry;
    WorkerOptions options;
    options.mode = "describe";
    options.module = file;
    options.timeout_seconds = timeout;
    const WorkerOutcome outcome = run_worker(options, [&](const Frame &frame) {
        if (frame.type == FrameType::backend) entry = frame.payload;
    });
    if (outcome.kind != WorkerOutcome::Kind::finished || entry.is_null()) {
        entry = {{"name", name_from_file(file)},
                 {"file", file.string()},
                 {"state", outcome.kind == WorkerOutcome::Kind::finished ? "protocol-error"
                                                                         : std::string(backend_state(outcome.kind))},
                 {"reason", fmt::format("while loading and describing the module: {}",
                                        outcome.detail.empty() ? "no description came back" : outcome.detail)},
                 {"devices", nlohmann::json::array()}};
    }
    return entry;
}

const nlohmann::json *find_entry(const nlohmann::json &backends, std::string_view name)
{
    for (const auto &b : backends)
        if (b["name"] == name) return &b;
    return nullptr;
}

std::string names_of(const nlohmann::json &backends)
{
    std::vector<std::string> names;
    for (const auto &b : backends)
        names.push_back(b["name"].get<std::string>());
    return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

const nlohmann::json &available_entry(const nlohmann::json &backends, std::string_view name)
{
    const nlohmann::json *entry = find_entry(backends, name);
    if (!entry)
        throw UsageError(
            fmt::format("unknown backend '{}' (found: {}); {}", name, names_of(backends), plugin_search_hint()));
    if ((*entry)["state"] != "available")
        throw RunError(fmt::format("backend '{}' is {}: {}", name, (*entry)["state"].get<std::string>(),
                                   (*entry)["reason"].is_string() ? (*entry)["reason"].get<std::string>() : ""));
    return *entry;
}

// backend name -> device indices, in the order the user will see them.
std::vector<std::pair<std::string, std::vector<uint32_t>>> plan_targets(const RunRequest &request,
                                                                        const nlohmann::json &backends)
{
    std::vector<std::pair<std::string, std::vector<uint32_t>>> targets;
    auto add = [&](const std::string &name, uint32_t index) {
        auto it = std::find_if(targets.begin(), targets.end(), [&](const auto &t) { return t.first == name; });
        if (it == targets.end()) it = targets.insert(targets.end(), {name, {}});
        if (std::find(it->second.begin(), it->second.end(), index) == it->second.end()) it->second.push_back(index);
    };
    if (!request.devices.empty()) {
        for (const std::string &device : request.devices) {
            const auto colon = device.find(':');
            uint32_t index = 0;
            const std::string_view number =
                colon == std::string::npos ? std::string_view() : std::string_view(device).substr(colon + 1);
            const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), index);
            if (colon == std::string::npos || number.empty() || ec != std::errc() ||
                end != number.data() + number.size())
                throw UsageError(
                    fmt::format("invalid device '{}': name a device as backend:index, e.g. host:0", device));
            const std::string name = device.substr(0, colon);
            const auto &entry = available_entry(backends, name);
            const auto count = static_cast<uint32_t>(entry["devices"].size());
            if (index >= count)
                throw UsageError(fmt::format("device {} does not exist: backend '{}' has {} device{}{}", device, name,
                                             count, count == 1 ? "" : "s",
                                             count ? fmt::format(" ({}:0 to {}:{})", name, name, count - 1) : ""));
            add(name, index);
        }
    } else if (!request.backends.empty()) {
        for (const std::string &name : request.backends) {
            const auto &entry = available_entry(backends, name);
            for (uint32_t i = 0; i < entry["devices"].size(); ++i)
                add(name, i);
        }
    } else {
        for (const auto &entry : backends)
            if (entry["state"] == "available")
                for (uint32_t i = 0; i < entry["devices"].size(); ++i)
                    add(entry["name"], i);
    }
    return targets;
}

} // namespace

std::vector<std::string> partner_modules_of(const nlohmann::json &backends, std::string_view name)
{
    std::vector<std::string> files;
    for (const auto &other : backends)
        if (other.value("state", "") == "available" && other.value("name", "") != name && other.contains("file"))
            files.push_back(other["file"].get<std::string>());
    return files;
}

nlohmann::json describe_backends_in_workers(const DiscoveryOptions &discovery, double timeout_seconds)
{
    nlohmann::json backends = nlohmann::json::array();
    std::map<std::string, std::filesystem::path> loaded; // name -> the file that won it
    // Each module is described by a worker of its own, several side by side: a runtime
    // that starts slowly (one that initialises a compiler) no longer delays the others.
    const std::vector<std::filesystem::path> files = module_files(discovery);
    const std::size_t side_by_side = std::max<std::size_t>(4, std::thread::hardware_concurrency());
    std::vector<std::future<nlohmann::json>> described(files.size());
    auto start = [&](std::size_t i) {
        if (i < files.size()) described[i] = std::async(std::launch::async, describe_one, files[i], timeout_seconds);
    };
    for (std::size_t i = 0; i < std::min(side_by_side, files.size()); ++i)
        start(i);
    for (std::size_t i = 0; i < files.size(); ++i) {
        nlohmann::json entry = described[i].get();
        start(i + side_by_side);
        const std::filesystem::path &file = files[i];
        // The first module of a name wins; a later one is listed as refused, naming both.
        const std::string state = entry["state"];
        if (state == "available" || state == "unavailable") {
            // A module built without optimisation times its own loops: every list and result says so.
            if (const ModuleBuild build = module_build(file); build != ModuleBuild::unknown)
                entry["build"] = std::string(to_string(build));
            const std::string name = entry["name"];
            const auto [first, fresh] = loaded.emplace(name, file);
            if (!fresh) {
                entry["state"] = "refused";
                entry["reason"] = duplicate_reason(name, first->second, file);
                entry["devices"] = nlohmann::json::array();
            }
        }
        backends.push_back(std::move(entry));
    }
    return backends;
}

std::vector<std::string> device_selection(const std::vector<std::string> &names)
{
    if (std::find(names.begin(), names.end(), "all") == names.end()) return names;
    if (names.size() > 1) throw UsageError("--device all already names every device; name no other device beside it");
    return {};
}

RunOutcome supervise_run(const RunRequest &request, const RunObserver &observer)
{
    const auto probes = select_probes(request.probes); // refuse a bad pattern before anything starts
    nlohmann::json backends = describe_backends_in_workers(request.discovery, request.timeout_seconds);
    const auto targets = plan_targets(request, backends);
    if (targets.empty()) throw RunError("no device to measure: no backend is available (see vrambench list)");

    RunOutcome outcome;
    nlohmann::json &doc = outcome.document;
    doc["schema_version"] = schema_version;
    doc["tool"] = {{"name", "vrambench"},
                   {"version", tool_version()},
                   {"git_commit", tool_git_commit()},
                   {"pattern_version", VRB_PATTERN_VERSION}};
    doc["run"] = {{"id", run_id()},       {"started", utc_now()},
                  {"finished", nullptr},  {"command_line", request.command_line},
                  {"status", "complete"}, {"suite", to_string(request.options.suite)}};
    doc["host"] = host_json();
    doc["devices"] = nlohmann::json::array();
    doc["results"] = nlohmann::json::array();

    Journal journal(request.journal);
    bool failed = false, verification_failed = false, interrupted = false;
    // A module that failed to load or crashed while describing itself is a failure of
    // the run, even though the other backends go on.
    for (const auto &entry : backends)
        if (entry["state"] != "available" && entry["state"] != "unavailable" && entry["state"] != "refused")
            failed = true;

    const auto started = std::chrono::steady_clock::now();
    // Runs one worker over some of a backend's devices; on_frame sees each frame.
    auto run_target = [&](const std::string &name, const std::vector<uint32_t> &indices,
                          const std::function<void(const Frame &)> &on_frame) {
        // Read only, through a const view: side by side, several threads read it at once.
        const nlohmann::json &known = backends;
        auto entry = std::find_if(known.begin(), known.end(), [&](const auto &b) { return b["name"] == name; });
        WorkerOptions options;
        options.mode = "run";
        options.module = (*entry)["file"].get<std::string>();
        options.timeout_seconds = request.timeout_seconds;
        ProbeOptions probe_options = request.options;
        if (request.max_seconds) {
            // Backends run one after another: each gets what the earlier ones left.
            // Side by side, each gets what is left when they start together.
            const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            probe_options.time_budget_seconds = std::max(0.0, *request.max_seconds - used);
        }
        probe_options.partner_modules = partner_modules_of(known, name);
        options.request = {{"devices", indices}, {"probes", request.probes}, {"options", to_json(probe_options)}};
        // The worker's last progress names the device, probe and step (for an interop
        // probe, the pair) it was in: a worker that ends early is reported with it.
        std::string last_step;
        WorkerOutcome worker = run_worker(options, [&](const Frame &frame) {
            if (frame.type == FrameType::progress) last_step = frame.payload.value("what", "");
            on_frame(frame);
        });
        if (worker.kind != WorkerOutcome::Kind::finished && worker.kind != WorkerOutcome::Kind::interrupted &&
            !last_step.empty())
            worker.detail += fmt::format(" during {}", last_step);
        return worker;
    };
    // A result as the run records it: the flags of the run updated, the journal written.
    auto record_result = [&](const nlohmann::json &payload) {
        ProbeResult r = result_from_json(payload);
        failed |= r.status == ProbeResult::Status::failed;
        if (r.status == ProbeResult::Status::suspect) ++outcome.suspect_results;
        verification_failed |= r.verification.status == Verification::Status::failed;
        journal.append(payload);
        return r;
    };
    auto record_worker_end = [&](const std::string &name, const WorkerOutcome &worker) {
        auto entry = std::find_if(backends.begin(), backends.end(), [&](const auto &b) { return b["name"] == name; });
        // The largest of the backend's workers (one per device side by side).
        if (worker.peak_resident_bytes > 0)
            (*entry)["peak_resident_bytes"] =
                std::max(worker.peak_resident_bytes, entry->value("peak_resident_bytes", uint64_t{0}));
        if (worker.kind == WorkerOutcome::Kind::interrupted) {
            interrupted = true;
            return;
        }
        if (worker.kind == WorkerOutcome::Kind::finished) return;
        failed = true;
        (*entry)["state"] = backend_state(worker.kind);
        (*entry)["reason"] = fmt::format("while running: {}", worker.detail);
    };

    if (request.concurrent) {
        ConcurrentRun run(targets);
        doc["run"]["concurrent_devices"] = run.device_ids();
        run.start(
            [&](const ConcurrentRun::Unit &unit, const std::function<void(const Frame &)> &on_frame) {
                return run_target(unit.backend, {unit.index}, on_frame);
            },
            [&](const Frame &frame) {
                if (frame.type == FrameType::result) record_result(frame.payload);
                if (frame.type == FrameType::progress && observer.progress)
                    observer.progress(frame.payload.value("what", ""), frame.payload.value("fraction", 0.0));
            });
        // What the workers found, in the order of the devices, as one after another would have.
        for (const auto &unit : run.units()) {
            for (const auto &device : unit.devices) {
                doc["devices"].push_back(device);
                if (observer.device_json) observer.device_json(device);
            }
            for (const auto &result : unit.results) {
                doc["results"].push_back(result);
                if (observer.result) observer.result(result_from_json(result));
            }
            record_worker_end(unit.backend, unit.outcome);
        }
    } else {
        for (const auto &target : targets) {
            if (cancel_requested()) {
                interrupted = true;
                break;
            }
            const WorkerOutcome worker = run_target(target.first, target.second, [&](const Frame &frame) {
                switch (frame.type) {
                case FrameType::device:
                    doc["devices"].push_back(frame.payload);
                    if (observer.device_json) observer.device_json(frame.payload);
                    break;
                case FrameType::result: {
                    const ProbeResult r = record_result(frame.payload);
                    doc["results"].push_back(frame.payload);
                    if (observer.result) observer.result(r);
                    break;
                }
                case FrameType::progress:
                    if (observer.progress)
                        observer.progress(frame.payload.value("what", ""), frame.payload.value("fraction", 0.0));
                    break;
                default: break;
                }
            });
            record_worker_end(target.first, worker);
            if (interrupted) break;
        }
    }
    for (auto &entry : backends)
        entry.erase("devices");
    doc["backends"] = backends;
    doc["run"]["finished"] = utc_now();
    if (interrupted) {
        doc["run"]["status"] = "interrupted";
        outcome.exit = ExitCode::interrupted;
    } else {
        doc["run"]["status"] = verification_failed ? "verification-failed" : failed ? "failed" : "complete";
        // A suspect figure is recorded as such; whether it fails the run is the caller's choice.
        const bool refused = verification_failed || (request.fail_on_suspect && outcome.suspect_results > 0);
        outcome.exit = refused ? ExitCode::verification : failed ? ExitCode::run_failed : ExitCode::ok;
    }
    return outcome;
}

} // namespace vrb
