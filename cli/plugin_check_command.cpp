// `vrambench plugin-check MODULE.so`: the conformance kit against one module built
// anywhere, for the module's author. The report goes to stdout; the verdict ends the
// program through main's exit path, as every command's failure does.
#include "commands.hpp"

#include <vrambench/conformance/kit.hpp>
#include <vrambench/core/error.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace vrb::cli {

namespace {

struct PluginCheckOptions {
    std::string module;
    bool allow_unavailable = false;
};

// The outcome as an exit code and a last line on stderr; ExitCode::ok for a pass.
struct Verdict : Error {
    Verdict(ExitCode code, const std::string &message) : Error(code, message) {}
};

void run_plugin_check(const PluginCheckOptions &o)
{
    const std::filesystem::path module(o.module);
    std::error_code error;
    if (!std::filesystem::exists(module, error)) throw UsageError(fmt::format("{}: no such file", o.module));
    if (std::filesystem::is_directory(module, error))
        throw UsageError(fmt::format("{}: is a directory; name the module file, e.g. DIR/vrambench-NAME.so", o.module));

    const conformance::Report report = conformance::check_module(module);
    const std::string text = conformance::report_text(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    const std::string name = module.filename().string();
    switch (report.outcome) {
    case conformance::Report::Outcome::passed:
        throw Verdict(ExitCode::ok, fmt::format("plugin-check: {} passed every check", name));
    case conformance::Report::Outcome::unavailable:
        if (o.allow_unavailable)
            throw Verdict(ExitCode::ok,
                          fmt::format("plugin-check: {} is unavailable here ({}); accepted (--allow-unavailable)", name,
                                      report.reason));
        throw Verdict(ExitCode::run_failed,
                      fmt::format("plugin-check: {} is unavailable here: {}; run it where its API and a device are "
                                  "present, or pass --allow-unavailable to accept the module checks alone",
                                  name, report.reason));
    case conformance::Report::Outcome::failed: break;
    }
    throw Verdict(ExitCode::verification, fmt::format("plugin-check: {} failed {} of {} checks", name,
                                                      report.failed_checks(), report.checks.size()));
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
    command->footer("Exit codes: 0 every check passed; 2 no such file; 3 the module is unavailable here;\n"
                    "            4 a check failed (the report names the operation, width, memory kind, count and\n"
                    "            first wrong lane).");
    command->callback([options] { run_plugin_check(*options); });
}

} // namespace vrb::cli
