// The subcommands of the vrambench executable and the options they share.
#pragma once

#include <vrambench/core/publishing/fleet.hpp>
#include <vrambench/core/results/result_index.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vrb::cli {

struct Options {
    std::vector<std::string> plugins; // --plugin FILE
    // run
    std::vector<std::string> backends, devices, probes;
    std::string suite = "standard";
    std::string size; // parsed by vrb::parse_size, so its errors read the same everywhere
    int reps = 0;
    std::string output;
    double timeout = 600;
    double max_seconds = 0;                      // 0: no bound
    double probe_max_seconds = 0;                // 0: no bound
    std::optional<double> device_budget_seconds; // --budget: nothing, the suite's; 0, none
    std::string worker_mode;
    std::string format = "table";
    std::string estimator = "median";
    std::string memory_limit;      // "8G" or "50%"; parsed by vrb::parse_memory_limit
    std::string llc;               // --llc SIZE; parsed by vrb::parse_size
    bool plan = false;             // --plan: print what would run, measure nothing
    std::string describe;          // --describe FILE: plan for the devices it describes
    bool fail_on_suspect = false;  // --fail-on-suspect: exit 4 when a figure is suspect
    bool fail_on_throttle = false; // --fail-on-throttle: exit 4 when a result was measured throttled
    bool concurrent = false;       // --concurrent: one worker per device, all started together
    // info / validate
    std::string device;
    std::string file;
    std::string html; // index --html: the web page of the index, the sets' reports beside them
    // peak
    double data_rate_gbps = 0, memory_clock_mhz = 0, bus_bits = 0;
    std::string runtime = "CUDA", memory_type; // which convention a reported clock follows
};

std::string version_text();

// Subcommands that live in files of their own: add_<name>_command adds the subcommand
// and, through set_runner, what runs it; dispatch() calls that and returns its code.
void set_runner(CLI::App *command, std::function<int()> run);
void add_report_command(CLI::App &app);
// index --html: the index's web page, and each valid set's report (SET.html) beside it.
void write_index_html(const ResultIndex &index, const std::string &folder, const std::string &page);
void add_compare_command(CLI::App &app);
void add_export_command(CLI::App &app);
void add_analyze_command(CLI::App &app); // analyze_command.cpp
void add_commands(CLI::App &app, Options &options);
// Commands in files of their own; each runs from its CLI11 callback.
void add_plugin_check_command(CLI::App &app); // plugin_check_command.cpp
void add_fleet_command(CLI::App &app);        // fleet_command.cpp
void add_fit_command(CLI::App &app);          // fit_command.cpp
void add_health_command(CLI::App &app);       // health_command.cpp
// The fleet comparison of a folder of result sets, printed as text or json, each card
// through health's checks against `references` (files or folders; none: the published
// sets); returns 4 when a card fails integrity, 5 when one is named (an outlier or a
// failed check), 0 otherwise (fleet_command.cpp; `compare --fleet` too).
int run_fleet_comparison(const std::string &folder, const OutlierRule &rule, const std::string &format,
                         const std::vector<std::string> &references = {});
// --mad-factor and --min-deviation, the outlier rule's two numbers.
void add_outlier_options(CLI::App *command, double &mad_factor, double &min_deviation);
// Runs the parsed subcommand; returns the process exit code.
int dispatch(const CLI::App &app, const Options &options, int argc, char **argv);

} // namespace vrb::cli
