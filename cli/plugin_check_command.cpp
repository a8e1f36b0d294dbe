// `vrambench plugin-check MODULE.so`: the conformance kit against one module built
// anywhere, for the module's author. The report goes to stdout; the verdict ends the
// program through main's exit path, as every command's failure does.
#include "commands.hpp"

#include <vrambench/conformance/kit.hpp>
#include <vrambench/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vrb::cli {

namespace {

struct PluginCheckOptions {
    std::string module;
    bool allow_unavailable = false;
    bool large = false;
    double timeout = 600;
};

// The outcome as an exit code and a last line on stderr; ExitCode::ok for a pass.
struct Verdict : Error {
    Verdict(ExitCode code, const std::string &message) : Error(code, message) {}
};

void write_all(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

// In the child: the kit, its report on stdout, and over `channel` each check as it
// starts ("start CHECK SCOPE") and the verdict last ("verdict CODE MESSAGE").
[[noreturn]] void run_kit(const PluginCheckOptions &o, int channel)
{
    int code = static_cast<int>(ExitCode::verification);
    std::string message;
    try {
        const std::filesystem::path module(o.module);
        const conformance::Report report = conformance::check_module(
            module,
            [&](std::string_view check, std::string_view scope) {
                write_all(channel, fmt::format("start {} {}\n", check, scope));
            },
            conformance::KitOptions{o.large});
        const std::string text = conformance::report_text(report);
        std::fwrite(text.data(), 1, text.size(), stdout);
        const std::string name = module.filename().string();
        switch (report.outcome) {
        case conformance::Report::Outcome::passed:
            code = static_cast<int>(ExitCode::ok);
            message = fmt::format("plugin-check: {} passed every check", name);
            if (report.build == ModuleBuild::unoptimized)
                message += fmt::format("; but it was {}", unoptimized_warning());
            break;
        case conformance::Report::Outcome::unavailable:
            code = static_cast<int>(o.allow_unavailable ? ExitCode::ok : ExitCode::run_failed);
            message = o.allow_unavailable
                          ? fmt::format("plugin-check: {} is unavailable here ({}); accepted (--allow-unavailable)",
                                        name, report.reason)
                          : fmt::format("plugin-check: {} is unavailable here: {}; run it where its API and a device "
                                        "are present, or pass --allow-unavailable to accept the module checks alone",
                                        name, report.reason);
            break;
        case conformance::Report::Outcome::failed:
            message = fmt::format("plugin-check: {} failed {} of {} checks", name, report.failed_checks(),
                                  report.checks.size());
            break;
        }
    } catch (const std::exception &e) {
        message = fmt::format("plugin-check: the kit stopped: {}", e.what());
    }
    std::fflush(stdout);
    write_all(channel, fmt::format("verdict {} {}\n", code, message));
    ::close(channel);
    // Nothing of the parent's (atexit handlers, buffers) is the child's to run again.
    _exit(0);
}

// The kit runs in a child process: a module that crashes or hangs it is reported with
// the check it was in, instead of taking plugin-check down with it.
void run_plugin_check(const PluginCheckOptions &o)
{
    const std::filesystem::path module(o.module);
    std::error_code error;
    if (!std::filesystem::exists(module, error)) throw UsageError(fmt::format("{}: no such file", o.module));
    if (std::filesystem::is_directory(module, error))
        throw UsageError(fmt::format("{}: is a directory; name the module file, e.g. DIR/vrambench-NAME.so", o.module));

    int channel[2];
    if (::pipe(channel) != 0) throw RunError(fmt::format("plugin-check: pipe failed: {}", std::strerror(errno)));
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t child = ::fork();
    if (child < 0) throw RunError(fmt::format("plugin-check: fork failed: {}", std::strerror(errno)));
    if (child == 0) {
        ::close(channel[0]);
        run_kit(o, channel[1]);
    }
    ::close(channel[1]);

    std::string received;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.timeout);
    bool timed_out = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{channel[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char chunk[4096];
        const ssize_t n = ::read(channel[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        received.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(channel[0]);
    if (timed_out) ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }

    // The last line says how it ended, or which check the module was in when it did not.
    std::string last_started = "loading the module", verdict;
    std::size_t at = 0;
    while (at < received.size()) {
        const auto end = received.find('\n', at);
        const std::string line = received.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (line.rfind("start ", 0) == 0) last_started = line.substr(6);
        if (line.rfind("verdict ", 0) == 0) verdict = line.substr(8);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    const std::string name = module.filename().string();
    if (!verdict.empty() && !timed_out && WIFEXITED(status)) {
        const auto space = verdict.find(' ');
        const int code = std::stoi(verdict.substr(0, space));
        throw Verdict(static_cast<ExitCode>(code), verdict.substr(space + 1));
    }
    std::string what;
    if (timed_out)
        what = fmt::format("made no end within {} s (--timeout)", o.timeout);
    else if (WIFSIGNALED(status))
        what = fmt::format("killed the check with signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        what = fmt::format("ended the check's process with exit status {}", WEXITSTATUS(status));
    const std::string line = fmt::format("CRASHED  {}: the module {}\n", last_started, what);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
    throw Verdict(ExitCode::verification, fmt::format("plugin-check: {} {} in {}", name, what, last_started));
}

} // namespace

void add_plugin_check_command(CLI::App &app)
{
    auto options = std::make_shared<PluginCheckOptions>();
    auto *command = app.add_subcommand(
        "plugin-check", "Run the conformance kit against one backend module: ABI, every operation and width against "
                        "the host's answers, refusals, leaks");
    command->add_option("module", options->module, "The module file, e.g. build/vrambench-acme.so")->required();
    command->add_flag("--allow-unavailable", options->allow_unavailable,
                      "Exit 0 when the module says it is unavailable here (no driver or device) but passes the "
                      "module checks");
    command->add_flag("--large", options->large,
                      "Also check counts past 2^22 lanes (ops.large-counts: about 50 MiB per buffer set, each "
                      "operation and width)");
    command->add_option("--timeout", options->timeout, "Seconds the whole check may take before it is stopped")
        ->check(CLI::PositiveNumber);
    command->footer(
        "The kit runs in a process of its own: a module that crashes or hangs it is named with the check it was in.\n"
        "Exit codes: 0 every check passed; 2 no such file; 3 the module is unavailable here;\n"
        "            4 a check failed, or the module crashed or hung the kit (the report names the\n"
        "            operation, width, memory kind, count and first wrong lane).");
    command->callback([options] { run_plugin_check(*options); });
}

} // namespace vrb::cli
