// `vrambench health`: is this card normal, and why not. The core judges (core/health);
// this file parses and prints.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/health/measure.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/health/verdict.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <unistd.h>

namespace vrb::cli {

namespace {

struct HealthOptions {
    std::string result, format = "text";
    std::vector<std::string> devices, references, plugins;
    double floor = health::default_floor;
    double timeout = 600;
};

int run_health(const HealthOptions &o)
{
    if (o.result.empty() && o.devices.empty())
        throw UsageError("health judges a card measured now (--device ID) or a result set (--result SET.json)");
    if (!o.result.empty() && o.devices.size() > 1)
        throw UsageError("--result judges one --device of the set, or every card in it without --device");
    const health::HealthOptions options{o.floor};
    // References first: a bad reference file costs no measurement.
    health::References references;
    for (const auto &path : o.references)
        references.append(health::read_references(path));
    // The published sets after the given references: --reference adds, it does not replace.
    {
        std::error_code ec;
        if (const auto published = health::published_results_folder();
            published && std::filesystem::is_directory(*published, ec)) {
            health::References made = health::published_references();
            made.origins.push_back(published->string());
            references.append(std::move(made));
        }
    }
    std::vector<health::CardVerdict> verdicts;
    if (!o.result.empty()) {
        const health::NamedSet set = health::read_valid_result_set(o.result);
        verdicts =
            health::judge_set(set.set, set.name, o.devices.empty() ? "" : o.devices.front(), references, options);
    } else {
        DiscoveryOptions discovery;
        for (const auto &p : o.plugins)
            discovery.extra_plugins.emplace_back(p);
        if (isatty(STDERR_FILENO) == 1)
            std::fprintf(stderr, "vrambench health: measuring %s (%s)...\n",
                         fmt::format("{}", fmt::join(o.devices, ", ")).c_str(),
                         fmt::format("{}", fmt::join(health::health_probes(), ", ")).c_str());
        const nlohmann::json set = health::measure_for_health(o.devices, discovery, o.timeout);
        verdicts = health::judge_measured(set, o.devices, references, options);
    }
    const std::string out = o.format == "json" ? health::health_json(verdicts, references, options).dump(2) + "\n"
                                               : health::health_text(verdicts, references, options);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return static_cast<int>(health::health_exit(verdicts));
}

} // namespace

void add_health_command(CLI::App &app)
{
    auto o = std::make_shared<HealthOptions>();
    auto *health = app.add_subcommand(
        "health", "Is this card normal: its figures against references and the datasheet, its link, integrity and "
                  "throttling, one line a check and a verdict");
    health->add_option("--device", o->devices,
                       "The card, measured now (the quick suite's stream, integrity and transfer; repeatable), or "
                       "the one to judge in --result's set");
    health->add_option("--result", o->result, "Judge this result set's figures instead of measuring");
    health
        ->add_option("--reference", o->references,
                     "A reference file (results/schema/reference-v1.schema.json), a result set or a folder of "
                     "them (repeatable; the first that has a figure wins), before the published sets (installed "
                     "with vrambench, share/vrambench/results) and the datasheet floor")
        ->check(CLI::ExistingPath);
    health->add_option("--floor", o->floor, "A figure fails below this fraction of its reference (default 0.75)")
        ->check(CLI::Range(0.01, 1.0));
    health->add_option("--format", o->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
    health->add_option("--plugin", o->plugins, "Load this backend module as well (repeatable; --device)")
        ->check(CLI::ExistingPath);
    health->add_option("--timeout", o->timeout, "Stop a backend silent this many seconds (--device; default 600)")
        ->check(CLI::PositiveNumber);
    health->footer("Thresholds and their sources, and a Slurm HealthCheckProgram: docs/health.md.\n"
                   "Exit codes: 0 healthy (the stream read and one more figure judged and held); 2 bad input; 3 "
                   "could not measure; 4 integrity or verification failed; 5 below a floor (a figure, the link "
                   "under load, a thermal or hardware slowdown); 6 not judged (nothing to judge against: give "
                   "--reference).");
    set_runner(health, [o] { return run_health(*o); });
}

} // namespace vrb::cli
