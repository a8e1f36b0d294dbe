// The child's side of a worker: load one module, describe it or run a request, and
// stream every finding to the parent as it happens.
#include <vrambench/core/run/child_processes.hpp>
#include <vrambench/core/run/freed_memory.hpp>
#include <vrambench/core/run/runner.hpp>
#include <vrambench/core/run/worker.hpp>

#include <fmt/format.h>

#include <csignal>
#include <iostream>
#include <iterator>
#include <unistd.h>

namespace vrb {

namespace {

void send(FrameType type, nlohmann::json payload)
{
    // A parent that is gone cannot be told anything more; the worker just ends.
    if (!write_frame(worker_frame_fd, Frame{type, std::move(payload)})) ::_exit(0);
}

nlohmann::json backend_payload(const BackendEntry &entry, bool with_devices)
{
    nlohmann::json j = backends_json({entry}).at(0);
    nlohmann::json devices = nlohmann::json::array();
    if (entry.backend && with_devices) {
        const uint32_t count = entry.backend->device_count();
        for (uint32_t i = 0; i < count; ++i) {
            try {
                auto device = entry.backend->open(i);
                devices.push_back(to_json(describe_device(*entry.backend, device.get(), i)));
            } catch (const Error &e) {
                devices.push_back({{"id", fmt::format("{}:{}", entry.name, i)}, {"error", e.what()}});
            }
        }
    } else if (entry.backend) {
        for (uint32_t i = 0; i < entry.backend->device_count(); ++i)
            devices.push_back({{"id", fmt::format("{}:{}", entry.name, i)}});
    }
    j["devices"] = devices;
    return j;
}

} // namespace

int worker_main(const std::string &mode, const std::filesystem::path &module)
{
    // The parent decides when to stop; a terminal's Ctrl-C reaches the whole group.
    std::signal(SIGINT, SIG_IGN);
    // Whatever a plugin prints goes to stderr, never into a channel someone parses.
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    // A helper the module leaves behind stays this worker's while it lives, not the
    // supervisor's: workers run side by side, and a sibling that ends clears every
    // stray child of the supervisor, which must not include a helper this module is
    // still starting. Once this worker ends, its helpers pass to the supervisor, which
    // ends them (child_processes.hpp).
    adopt_orphans();
    return_freed_memory_to_the_system();
    if (mode != "describe" && mode != "run") {
        std::fprintf(stderr, "vrambench worker: unknown mode '%s'\n", mode.c_str());
        return static_cast<int>(ExitCode::usage);
    }
    nlohmann::json request;
    if (mode == "run") {
        const std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        request = nlohmann::json::parse(text, nullptr, false);
        if (request.is_discarded()) {
            std::fprintf(stderr, "vrambench worker: the run request is not JSON\n");
            return static_cast<int>(ExitCode::usage);
        }
    }
    const BackendEntry entry = open_backend(module);
    send(FrameType::backend, backend_payload(entry, mode == "describe"));
    int exit_code = 0;
    if (mode == "run" && entry.backend) {
        const auto probes = select_probes(request.value("probes", std::vector<std::string>{}));
        const ProbeOptions options = probe_options_from_json(request.value("options", nlohmann::json::object()));
        RunObserver observer;
        observer.device_started = [](const DeviceRecord &d) { send(FrameType::device, to_json(d)); };
        observer.result = [](const ProbeResult &r) { send(FrameType::result, to_json(r)); };
        observer.progress = [](std::string_view what, double fraction) {
            send(FrameType::progress, {{"what", what}, {"fraction", fraction}});
        };
        DeviceRunStatus status;
        for (uint32_t index : request.value("devices", std::vector<uint32_t>{})) {
            const DeviceRunStatus s = run_device(*entry.backend, index, probes, options, observer);
            status.failed |= s.failed;
            status.verification_failed |= s.verification_failed;
        }
        exit_code = static_cast<int>(status.verification_failed ? ExitCode::verification
                                     : status.failed            ? ExitCode::run_failed
                                                                : ExitCode::ok);
    }
    send(FrameType::done, {{"exit_code", exit_code}});
    return exit_code;
}

} // namespace vrb
