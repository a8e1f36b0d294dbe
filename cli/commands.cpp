#include "commands.hpp"

#include <vrambench/core/card/telemetry.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/planning/peak.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/output_file.hpp>
#include <vrambench/core/results/report.hpp>
#include <vrambench/core/results/result_index.hpp>
#include <vrambench/core/results/schema.hpp>
#include <vrambench/core/run/estimate_check.hpp>
#include <vrambench/core/run/runner.hpp>
#include <vrambench/core/run/worker.hpp>
#include <vrambench/core/version.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace vrb::cli {

namespace {

std::map<const CLI::App *, std::function<int()>> &runners()
{
    static std::map<const CLI::App *, std::function<int()>> map;
    return map;
}

void add_plugin_option(CLI::App *command, Options &o)
{
    command->add_option("--plugin", o.plugins, "Load this backend module as well (repeatable)")
        ->check(CLI::ExistingPath);
}

void write_stdout(const std::string &text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

extern "C" void on_interrupt(int)
{
    request_cancel();
}

// The progress line: on stderr, only when stderr is a terminal, never mixed into stdout.
class ProgressLine {
  public:
    ProgressLine() : enabled_(isatty(STDERR_FILENO) == 1) {}
    void show(std::string_view what, double fraction)
    {
        if (!enabled_) return;
        std::fprintf(stderr, "\r\033[K[%3.0f%%] %.*s", fraction * 100, static_cast<int>(what.size()), what.data());
        std::fflush(stderr);
        shown_ = true;
    }
    void clear()
    {
        if (!shown_) return;
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        shown_ = false;
    }

  private:
    bool enabled_;
    bool shown_ = false;
};

Suite parse_suite(const std::string &s)
{
    if (s == "quick") return Suite::quick;
    if (s == "full") return Suite::full;
    return Suite::standard;
}

Estimator parse_estimator(const std::string &s)
{
    if (s == "min") return Estimator::min;
    if (s == "max") return Estimator::max;
    if (s == "mean") return Estimator::mean;
    return Estimator::median;
}

// Refuse an output path that cannot be written before spending minutes measuring: the
// journal goes beside the path as given, the temporary file beside the file a link names.
void check_output_path(const std::string &output)
{
    if (output.empty()) return;
    const std::filesystem::path path(output);
    const std::filesystem::path destination = output_destination(path);
    std::error_code ec;
    if (std::filesystem::is_directory(destination, ec))
        throw UsageError(fmt::format("cannot write {}: it is a directory", output));
    for (const auto &file : {path, destination}) {
        const auto folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        if (!std::filesystem::is_directory(folder, ec))
            throw UsageError(fmt::format("cannot write {}: folder {} does not exist", output, folder.string()));
        if (access(folder.c_str(), W_OK) != 0)
            throw UsageError(fmt::format("cannot write {}: folder {} is not writable ({})", output, folder.string(),
                                         std::strerror(errno)));
    }
}

DiscoveryOptions discovery_options(const Options &o)
{
    DiscoveryOptions d;
    for (const auto &p : o.plugins)
        d.extra_plugins.emplace_back(p);
    return d;
}

int cmd_list(const Options &o)
{
    const nlohmann::json backends = describe_backends_in_workers(discovery_options(o), o.timeout);
    write_stdout(o.format == "json" ? backends.dump(2) + "\n" : describe_backends(backends));
    return 0;
}

int cmd_info(const Options &o)
{
    const auto colon = o.device.find(':');
    if (colon == std::string::npos || colon + 1 == o.device.size() ||
        o.device.find_first_not_of("0123456789", colon + 1) != std::string::npos)
        throw UsageError(fmt::format("invalid device '{}': name a device as backend:index, e.g. host:0", o.device));
    const nlohmann::json backends = describe_backends_in_workers(discovery_options(o), o.timeout);
    const std::string name = o.device.substr(0, colon);
    for (const auto &b : backends) {
        if (b["name"] != name) continue;
        if (b["state"] != "available")
            throw RunError(fmt::format("backend '{}' is {}: {}", name, b["state"].get<std::string>(),
                                       b["reason"].is_string() ? b["reason"].get<std::string>() : ""));
        for (const auto &d : b["devices"]) {
            if (d["id"] != o.device) continue;
            if (d.contains("error")) throw RunError(fmt::format("{}: {}", o.device, d["error"].get<std::string>()));
            write_stdout(o.format == "json" ? d.dump(2) + "\n" : describe_device_text(d));
            return 0;
        }
        const auto count = b["devices"].size();
        throw UsageError(fmt::format("device {} does not exist: backend '{}' has {} device{}", o.device, name, count,
                                     count == 1 ? "" : "s"));
    }
    std::vector<std::string> names;
    for (const auto &b : backends)
        names.push_back(b["name"]);
    throw UsageError(fmt::format("unknown backend '{}' (found: {}); {}", name,
                                 names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", ")),
                                 plugin_search_hint()));
}

int cmd_probes()
{
    for (const auto &probe : all_probes())
        write_stdout(fmt::format("{:<20} {}\n", probe->id(), probe->summary()));
    return 0;
}

int cmd_validate(const Options &o)
{
    const nlohmann::json document = read_result_file(o.file);
    if (const auto violation = validate_result_json(document))
        throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", o.file, schema_version,
                                     violation->path, violation->message));
    write_stdout(fmt::format("{}: valid vrambench result set (schema v{}, {} results)\n", o.file, schema_version,
                             document["results"].size()));
    return 0;
}

int cmd_peak(const Options &o)
{
    const bool by_rate = o.data_rate_gbps > 0, by_clock = o.memory_clock_mhz > 0;
    if (by_rate == by_clock)
        throw UsageError("peak needs exactly one of --data-rate-gbps (datasheet, per pin) or --memory-clock-mhz "
                         "(as a runtime reports it)");
    std::optional<MemoryType> memory;
    for (const MemoryType type : {MemoryType::gddr6, MemoryType::gddr6x, MemoryType::gddr7, MemoryType::hbm2,
                                  MemoryType::hbm2e, MemoryType::hbm3, MemoryType::hbm3e})
        if (o.memory_type == to_string(type)) memory = type;
    if (!o.memory_type.empty() && !memory)
        throw UsageError(
            fmt::format("unknown memory type '{}': GDDR6, GDDR6X, GDDR7, HBM2, HBM2e, HBM3 or HBM3e", o.memory_type));
    const PeakBandwidth peak =
        by_rate ? peak_from_data_rate(o.data_rate_gbps, o.bus_bits)
                : peak_from_clock(o.memory_clock_mhz, o.bus_bits, clock_convention(o.runtime, memory));
    write_stdout(fmt::format("{:.1f} GB/s\n  convention: {}\n", peak.gb_per_s, peak.convention));
    return 0;
}

// `run --plan`: the devices as their workers describe them (no buffer is allocated),
// each planned with the probes and options the run would use.
// The devices `--describe FILE` names, as a backend list cmd_plan reads: a result set's
// devices, or one device as `info --format json` prints it, under the backend each names.
nlohmann::json described_backends(const std::string &file)
{
    const nlohmann::json document = read_json_file(file);
    nlohmann::json devices = nlohmann::json::array();
    if (document.is_object() && document.contains("devices") && document["devices"].is_array())
        devices = document["devices"];
    else if (document.is_object() && document.contains("id"))
        devices.push_back(document);
    else
        throw UsageError(fmt::format("{}: neither a result set nor a device as `vrambench info --format json` prints "
                                     "it (no devices[] and no id)",
                                     file));
    nlohmann::json backends = nlohmann::json::array();
    for (const auto &d : devices) {
        if (!d.is_object() || !d.contains("id") || !d["id"].is_string())
            throw UsageError(fmt::format("{}: a device without an id", file));
        const std::string id = d["id"];
        const std::string name = text_or(d, "backend", id.substr(0, id.find(':')));
        auto b = std::find_if(backends.begin(), backends.end(), [&](const auto &e) { return e["name"] == name; });
        if (b == backends.end()) {
            backends.push_back({{"name", name}, {"state", "available"}, {"devices", nlohmann::json::array()}});
            b = backends.end() - 1;
        }
        (*b)["devices"].push_back(d);
    }
    return backends;
}

int cmd_plan(const Options &o, const RunRequest &request)
{
    const auto probes = select_probes(request.probes);
    const nlohmann::json backends = o.describe.empty()
                                        ? describe_backends_in_workers(request.discovery, request.timeout_seconds)
                                        : described_backends(o.describe);
    nlohmann::json plans = nlohmann::json::array();
    std::string text;
    double seconds = 0;
    std::size_t devices = 0;
    for (const auto &b : backends) {
        const std::string name = b["name"].get<std::string>();
        const bool wanted_backend =
            request.backends.empty() ||
            std::find(request.backends.begin(), request.backends.end(), name) != request.backends.end();
        for (const auto &d : array_or_empty(b, "devices")) {
            const std::string id = text_or(d, "id", "");
            const bool wanted = request.devices.empty() ? wanted_backend
                                                        : std::find(request.devices.begin(), request.devices.end(),
                                                                    id) != request.devices.end();
            if (!wanted || b["state"] != "available") continue;
            if (d.contains("error")) throw RunError(fmt::format("{}: {}", id, d["error"].get<std::string>()));
            DeviceRecord record = device_record_from_json(d);
            record.llc_option = request.options.llc;
            // The interop probes costed for the backends the run would pair this one with
            // (a described set names no module file: its pairs are found as they run).
            ProbeOptions options = request.options;
            options.partner_modules = partner_modules_of(backends, name);
            const DevicePlan plan = plan_within_budget(record, probes, options);
            plans.push_back(to_json(plan));
            text += (devices++ ? "\n" : "") + plan_text(plan);
            seconds += plan.seconds;
        }
    }
    if (devices == 0)
        throw RunError("no device to plan for: none of the backends asked for is available (see vrambench list)");
    if (o.format == "json")
        write_stdout(
            nlohmann::json(
                {{"suite", to_string(request.options.suite)}, {"devices", plans}, {"estimate_seconds", seconds}})
                .dump(2) +
            "\n");
    else
        write_stdout(text + fmt::format("\nestimated duration of the run: {:.1f} s ({} device{})\n", seconds, devices,
                                        devices == 1 ? "" : "s"));
    return 0;
}

int cmd_run(const Options &o, int argc, char **argv)
{
    RunRequest request;
    request.backends = o.backends;
    request.devices = device_selection(o.devices);
    request.concurrent = o.concurrent;
    request.probes = o.probes;
    request.options.suite = parse_suite(o.suite);
    request.options.estimator = parse_estimator(o.estimator);
    if (!o.size.empty()) request.options.size = parse_size(o.size);
    if (o.reps > 0) request.options.repetitions = static_cast<uint32_t>(o.reps);
    if (!o.memory_limit.empty()) request.options.memory_limit = parse_memory_limit(o.memory_limit);
    if (!o.llc.empty()) request.options.llc = parse_size(o.llc);
    request.command_line.assign(argv, argv + argc);
    request.discovery = discovery_options(o);
    request.timeout_seconds = o.timeout;
    if (o.max_seconds > 0) request.max_seconds = o.max_seconds;
    if (o.probe_max_seconds > 0) request.options.probe_budget_seconds = o.probe_max_seconds;
    if (o.device_budget_seconds) request.options.device_budget_seconds = *o.device_budget_seconds;
    request.fail_on_suspect = o.fail_on_suspect;
    if (!o.describe.empty() && !o.plan)
        throw UsageError("--describe plans for devices described in a file: it needs --plan (nothing is measured)");
    if (o.plan) {
        if (o.format == "csv") throw UsageError("--plan prints a table or JSON (--format table or json), not CSV");
        if (!o.output.empty()) throw UsageError("--plan measures nothing, so there is no result set for --output");
        return cmd_plan(o, request);
    }
    check_output_path(o.output);

    if (!o.output.empty()) request.journal = o.output + ".journal";
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);

    const bool table = o.format == "table";
    ProgressLine progress;
    RunObserver observer;
    bool header_shown = false;
    observer.device_json = [&](const nlohmann::json &d) {
        if (!table) return;
        progress.clear();
        write_stdout((header_shown ? "\n" : "") + device_heading(d) + table_header());
        header_shown = true;
    };
    observer.result = [&](const ProbeResult &r) {
        if (!table) return;
        progress.clear();
        write_stdout(table_row(r));
    };
    observer.progress = [&](std::string_view what, double fraction) { progress.show(what, fraction); };

    RunOutcome outcome = supervise_run(request, observer);
    for (const auto &b : outcome.document["backends"]) {
        const std::string state = text_or(b, "state", ""), reason = text_or(b, "reason", "");
        // A second module of one name (--plugin beside an installed folder) is the
        // edit-build-run loop's normal case: a note, not a refusal that reads as an error.
        if (state == "refused")
            std::fprintf(stderr, "vrambench: note: %s\n", reason.c_str());
        else if (state != "available" && state != "unavailable")
            std::fprintf(stderr, "vrambench: backend %s %s: %s\n", text_or(b, "name", "").c_str(), state.c_str(),
                         reason.c_str());
    }
    progress.clear();
    const std::string json = outcome.document.dump(2) + "\n";
    if (o.format == "json") write_stdout(json);
    if (o.format == "csv") write_stdout(csv_header() + csv_rows(outcome.document));
    if (!o.output.empty()) {
        try {
            write_file_atomically(o.output, json);
        } catch (const Error &e) {
            // Measured but not written: the run failed, and the journal is what is left of it.
            throw RunError(fmt::format("{}; the {} results of this run are kept in {}", e.what(),
                                       outcome.document["results"].size(), request.journal.string()));
        }
        std::filesystem::remove(request.journal); // the result set now holds everything it held
    }
    for (const std::string &line : estimate_warnings(outcome.document))
        std::fprintf(stderr, "vrambench: warning: %s\n", line.c_str());
    // What each backend's worker took of the machine's memory at its peak, beside what
    // its devices were allowed of it.
    for (const auto &b : outcome.document["backends"]) {
        if (!b.contains("peak_resident_bytes")) continue;
        uint64_t allowed = 0;
        for (const auto &d : outcome.document["devices"])
            if (text_or(d, "backend", "") == text_or(b, "name", "") && d.contains("ram_budget"))
                allowed = std::max(allowed, d["ram_budget"].value("bytes", uint64_t{0}));
        std::fprintf(stderr, "vrambench: %s worker peak resident memory: %s%s\n", text_or(b, "name", "?").c_str(),
                     format_size(b["peak_resident_bytes"].get<uint64_t>()).c_str(),
                     allowed ? fmt::format(" (RAM budget {})", format_size(allowed)).c_str() : "");
    }
    if (outcome.exit == ExitCode::interrupted)
        std::fprintf(stderr, "vrambench: interrupted: the %zu results that finished are kept%s\n",
                     outcome.document["results"].size(), o.output.empty() ? "" : (" in " + o.output).c_str());
    if (outcome.suspect_results > 0)
        std::fprintf(stderr, "vrambench: %zu figure%s above the device's peak or its link (status suspect)%s\n",
                     outcome.suspect_results, outcome.suspect_results == 1 ? " is" : "s are",
                     o.fail_on_suspect ? "; --fail-on-suspect makes that a failure" : "");
    if (const std::size_t throttled = throttled_results(outcome.document); throttled > 0) {
        std::fprintf(stderr,
                     "vrambench: %zu result%s measured while the card throttled (power, thermal or "
                     "hardware slowdown, or clocked down while idle: see each result's throttled)%s\n",
                     throttled, throttled == 1 ? " was" : "s were",
                     o.fail_on_throttle ? "; --fail-on-throttle makes that a failure" : "");
        if (o.fail_on_throttle && outcome.exit == ExitCode::ok) outcome.exit = ExitCode::verification;
    }
    if (outcome.exit == ExitCode::verification && outcome.document["run"]["status"] == "verification-failed")
        std::fprintf(stderr, "vrambench: a result failed verification: its figure is not to be trusted\n");
    else if (outcome.exit == ExitCode::run_failed)
        std::fprintf(stderr, "vrambench: some measurements failed (see the status column)\n");
    return static_cast<int>(outcome.exit);
}

// A refused file still leaves the index written, with the file listed as refused, and
// makes the exit status that of bad input, so a publishing pipeline stops on it.
int cmd_index(const Options &o)
{
    const ResultIndex index = index_result_sets(o.file);
    if (o.output.empty())
        write_stdout(index.markdown);
    else
        write_file_atomically(o.output, index.markdown);
    for (const auto &refused : index.refused)
        std::fprintf(stderr, "vrambench: %s: %s\n", (std::filesystem::path(o.file) / refused.file).c_str(),
                     refused.reason.c_str());
    if (!o.output.empty())
        std::fprintf(stderr, "vrambench: %s: %zu result sets indexed, %zu refused\n", o.output.c_str(),
                     index.result_sets, index.refused.size());
    if (!o.html.empty()) write_index_html(index, o.file, o.html);
    return index.refused.empty() ? 0 : static_cast<int>(ExitCode::usage);
}

} // namespace

std::string version_text()
{
    return fmt::format("vrambench {} (commit {}, plugin ABI {}.{}, result schema v{})", tool_version(),
                       tool_git_commit(), VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR, schema_version);
}

void set_runner(CLI::App *command, std::function<int()> run)
{
    runners()[command] = std::move(run);
}

void add_commands(CLI::App &app, Options &o)
{
    auto *list =
        app.add_subcommand("list", "List backends, their devices and memory kinds, and why any is unavailable");
    list->add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}));
    add_plugin_option(list, o);
    list->footer("Backends are modules named vrambench-NAME.so, looked for in this order: each --plugin FILE,\n"
                 "the folder of the vrambench executable, ../lib/vrambench beside it, then each folder of\n"
                 "VRAMBENCH_PLUGIN_PATH (':'-separated). The first module of a name wins.");

    auto *info = app.add_subcommand("info", "Describe one device in full");
    info->add_option("device", o.device, "The device, as backend:index")->required();
    info->add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}));
    add_plugin_option(info, o);

    app.add_subcommand("probes", "List the probes");

    auto *run = app.add_subcommand("run", "Run probes on devices and report the results");
    run->add_option("--backend,-b", o.backends, "Only these backends (repeatable)");
    run->add_option("--device,-d", o.devices, "Only these devices, as backend:index (repeatable); all: every device");
    run->add_flag("--concurrent", o.concurrent,
                  "Measure the devices at the same time, one worker per device started together; each result "
                  "records the devices that ran alongside it");
    run->add_option("--probe,-p", o.probes, "Only probes matching these patterns, e.g. 'bandwidth.*' (repeatable)");
    run->add_option("--suite", o.suite, "How thorough: quick, standard or full")
        ->check(CLI::IsMember({"quick", "standard", "full"}));
    run->add_option("--size", o.size, "Bytes per buffer, with a unit if you like: 256M, 4GiB");
    run->add_option("--reps", o.reps, "Timed repetitions per figure")->check(CLI::Range(1, 100000));
    run->add_option("--estimator", o.estimator, "The reported statistic: median, min, max or mean")
        ->check(CLI::IsMember({"median", "min", "max", "mean"}));
    run->add_option("--memory-limit", o.memory_limit,
                    "Most memory the capacity probes may take: bytes (8G) or a share of free memory (50%)");
    run->add_option("--llc", o.llc,
                    "The last-level cache size to plan sizes from, over what the API and the device table say: 256M");
    run->add_flag("--plan", o.plan,
                  "Print every probe's sizes, the rule that chose them, the peak and an estimated duration; "
                  "measure nothing");
    run->add_option("--describe", o.describe,
                    "With --plan: plan for the devices a file describes (a result set, or `info --format json` "
                    "output) instead of this machine's")
        ->check(CLI::ExistingFile);
    run->add_option("-o,--output", o.output, "Also write the result set (JSON) to this file");
    run->add_flag("--fail-on-suspect", o.fail_on_suspect,
                  "Exit 4 when a figure is suspect (above the device's peak past its cache, or above the PCIe link its "
                  "bytes cross), as for a failed verification");
    run->add_flag("--fail-on-throttle", o.fail_on_throttle,
                  "Exit 4 when a result was measured while the card throttled (power cap, thermal or hardware "
                  "slowdown, or clocks a quarter below the run's peak, as its telemetry reports)");
    run->add_option("--format", o.format, "What stdout carries: table, json or csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));
    add_plugin_option(run, o);

    run->add_option("--timeout", o.timeout, "Seconds a backend may go without progress before it is stopped")
        ->check(CLI::PositiveNumber);
    run->add_option("--max-seconds", o.max_seconds,
                    "Bound the whole run: probes that would start past it are listed as skipped")
        ->check(CLI::PositiveNumber);
    run->add_option("--probe-max-seconds", o.probe_max_seconds,
                    "Bound each probe: one whose plan estimates more (run --plan) is listed as skipped")
        ->check(CLI::PositiveNumber);
    run->add_option("--budget", o.device_budget_seconds,
                    "Seconds the standard suite keeps each device within by its plan (default 90; 0: none): over "
                    "it, fewer repetitions, then fewer points, never smaller sizes")
        ->check(CLI::NonNegativeNumber);
    for (auto *command : {list, info})
        command->add_option("--timeout", o.timeout, "Seconds a backend may take to describe itself")
            ->check(CLI::PositiveNumber);

    // The worker mode `run` uses for each backend; not for people.
    auto *worker = app.add_subcommand("__worker", "");
    worker->group("");
    worker->add_option("mode", o.worker_mode)->required();
    worker->add_option("module", o.file)->required();

    auto *validate = app.add_subcommand("validate", "Check a result file against the result schema");
    validate->add_option("file", o.file, "The result file")->required();

    auto *index = app.add_subcommand("index", "Write the Markdown index of the result sets in a folder");
    index->add_option("folder", o.file, "The folder of result sets, e.g. results")->required();
    index->add_option("-o,--output", o.output, "Write the index to this file instead of stdout");
    index->add_option("--html", o.html, "Also write the index as a web page here, and each set's report beside it");

    auto *peak = app.add_subcommand("peak", "Theoretical peak bandwidth from a datasheet or a runtime's report");
    peak->add_option("--data-rate-gbps", o.data_rate_gbps, "Per-pin data rate in Gbit/s, as datasheets give it");
    peak->add_option("--memory-clock-mhz", o.memory_clock_mhz, "Memory clock in MHz, as CUDA, HIP or NVML report it");
    peak->add_option("--bus-bits", o.bus_bits, "Memory bus width in bits")->required();
    peak->add_option("--runtime", o.runtime, "The runtime that reported the clock: CUDA or HIP")
        ->check(CLI::IsMember({"CUDA", "HIP"}));
    peak->add_option("--memory-type", o.memory_type,
                     "The memory the clock drives (HIP reports HBM3 and HBM3e at a quarter of the pin rate)");
    add_plugin_check_command(app);
    add_report_command(app);
    add_compare_command(app);
    add_export_command(app);
    add_analyze_command(app);
    add_fleet_command(app);
    add_fit_command(app);
    add_health_command(app);
}

namespace {

// The files and folders a command was given, by any of its options or arguments.
std::vector<std::string> files_named(const CLI::App &command)
{
    std::vector<std::string> files;
    for (const CLI::Option *option : command.get_options())
        for (const std::string &value : option->results()) {
            std::error_code ec;
            if (std::filesystem::is_regular_file(value, ec) || std::filesystem::is_directory(value, ec))
                files.push_back(value);
        }
    return files;
}

int run_command(const CLI::App &app, const Options &o, int argc, char **argv);

} // namespace

int dispatch(const CLI::App &app, const Options &o, int argc, char **argv)
{
    try {
        return run_command(app, o, argc, argv);
    } catch (const nlohmann::json::exception &e) {
        const CLI::App &command = *app.get_subcommands().front();
        throw RunError(unreadable_value_message(command.get_name(), files_named(command), e.what()));
    }
}

namespace {

int run_command(const CLI::App &app, const Options &o, int argc, char **argv)
{
    const CLI::App *command = app.get_subcommands().front();
    if (const auto runner = runners().find(command); runner != runners().end()) return runner->second();
    const std::string name = command->get_name();
    if (name == "list") return cmd_list(o);
    if (name == "info") return cmd_info(o);
    if (name == "probes") return cmd_probes();
    if (name == "run") return cmd_run(o, argc, argv);
    if (name == "validate") return cmd_validate(o);
    if (name == "index") return cmd_index(o);
    if (name == "peak") return cmd_peak(o);
    if (name == "__worker") return worker_main(o.worker_mode, o.file);
    throw UsageError("unknown command " + name);
}

} // namespace

} // namespace vrb::cli
