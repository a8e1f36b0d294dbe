// The vrambench executable: parses the command line, calls the core, prints. Nothing else.
#include "commands.hpp"

#include <vrambench/core/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

int main(int argc, char **argv)
{
    CLI::App app{"vrambench: measures GPU memory the same way on every vendor's card.\n"
                 "Backends (host, vulkan, cuda, hip, opencl) run one set of probes; results share one schema."};
    app.require_subcommand(1);
    app.footer("Devices are named backend:index (host:0, vulkan:1).\n"
               "Exit codes: 0 ok; 2 usage error (bad flag, value or file); 3 a run, backend or device failed;\n"
               "            4 a result failed verification (or, with --fail-on-suspect, a figure is suspect;\n"
               "              with --fail-on-throttle, a result was measured while the card throttled);\n"
               "            5 a compared figure fell below --fail-below, or fit: the model does not fit;\n"
               "            130 interrupted (finished results are kept).");
    app.set_version_flag("--version", vrb::cli::version_text());

    vrb::cli::Options options;
    vrb::cli::add_commands(app, options);
    try {
        app.parse(argc, argv);
        return vrb::cli::dispatch(app, options, argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::fprintf(stderr, "vrambench: %s (see vrambench --help)\n", e.what());
        return static_cast<int>(vrb::ExitCode::usage);
    } catch (const vrb::Error &e) {
        std::fprintf(stderr, "vrambench: %s\n", e.what());
        return static_cast<int>(e.code());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "vrambench: internal error: %s\n", e.what());
        return static_cast<int>(vrb::ExitCode::run_failed);
    }
}
