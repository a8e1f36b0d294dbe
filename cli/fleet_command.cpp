// `vrambench fleet`: one `vrambench run` per node, started by Slurm's srun, each writing
// a result set per card (named by host and card key) into a shared folder, then the
// fleet comparison over that folder. Slurm places the tasks; vrambench only measures
// and compares.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/publishing/fleet.hpp>
#include <vrambench/core/results/card_split.hpp>
#include <vrambench/core/results/output_file.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace vrb::cli {

namespace {

struct FleetOptions {
    std::string dir;
    std::string srun = "srun";
    std::vector<std::string> srun_options;
    std::vector<std::string> run_args;
    double mad_factor = 3, min_deviation = 0.05;
    std::string format = "text";
    std::vector<std::string> references;
};

// Runs a program with this process's stdin, stdout and stderr; returns its exit status
// (128 + the signal that ended it). Throws RunError when it cannot be started.
int spawn_and_wait(const std::vector<std::string> &argv)
{
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (const int rc = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ); rc != 0)
        throw RunError(fmt::format("cannot start {}: {}", argv[0], std::strerror(rc)));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw RunError(fmt::format("waiting for {}: {}", argv[0], std::strerror(errno)));
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

std::filesystem::path self_executable()
{
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw RunError(fmt::format("cannot find this executable's path: {}", ec.message()));
    return path;
}

// The options the fleet sets itself: each node's result set goes where the fleet says,
// and a plan measures nothing to compare.
void check_run_args(const std::vector<std::string> &args)
{
    for (const auto &a : args) {
        for (const char *owned : {"-o", "--output", "--format", "--plan"})
            if (a == owned || a.starts_with(std::string(owned) + "=") ||
                (std::string(owned) == "-o" && a.starts_with("-o") && a.size() > 2))
                throw UsageError(fmt::format("fleet sets {} of each node's run itself; leave it out of the run's "
                                             "arguments",
                                             owned));
    }
}

std::string short_host_name()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        throw RunError(fmt::format("cannot read this host's name: {}", std::strerror(errno)));
    std::string host = name;
    return host.substr(0, host.find('.'));
}

int run_fleet(const FleetOptions &o)
{
    check_run_args(o.run_args);
    const OutlierRule rule{o.mad_factor, o.min_deviation};
    std::error_code ec;
    std::filesystem::create_directories(o.dir, ec);
    if (!std::filesystem::is_directory(o.dir))
        throw UsageError(
            fmt::format("cannot use {} as the fleet's folder: {}", o.dir, ec ? ec.message() : "it is not a folder"));
    if (access(o.dir.c_str(), W_OK) != 0)
        throw UsageError(fmt::format("cannot use {} as the fleet's folder: {}", o.dir, std::strerror(errno)));
    // Every node reads the same path: the folder and the executable must lie on a file
    // system all of them share, under the same name.
    const std::filesystem::path folder = std::filesystem::absolute(o.dir);
    std::vector<std::string> argv{o.srun, "--ntasks-per-node=1"};
    argv.insert(argv.end(), o.srun_options.begin(), o.srun_options.end());
    argv.insert(argv.end(), {self_executable().string(), "__fleet-node", folder.string(), "--"});
    argv.insert(argv.end(), o.run_args.begin(), o.run_args.end());
    std::fprintf(stderr, "vrambench fleet: %s\n", fmt::format("{}", fmt::join(argv, " ")).c_str());
    const int srun = spawn_and_wait(argv);
    if (srun == 0) return run_fleet_comparison(folder.string(), rule, o.format, o.references);
    // A failed srun may still have let some nodes write their sets: show what there is.
    std::fprintf(stderr, "vrambench fleet: srun exited %d; comparing what was written\n", srun);
    try {
        run_fleet_comparison(folder.string(), rule, o.format, o.references);
    } catch (const UsageError &e) {
        std::fprintf(stderr, "vrambench fleet: %s\n", e.what());
    }
    return static_cast<int>(ExitCode::run_failed);
}

// One node's task: the run, then its result set split per card into the shared folder.
int run_fleet_node(const std::string &dir, const std::vector<std::string> &run_args)
{
    check_run_args(run_args);
    const std::string host = short_host_name();
    const char *procid = std::getenv("SLURM_PROCID");
    // Hidden, so the comparison never takes a half-written run for a result set.
    const std::filesystem::path partial =
        std::filesystem::path(dir) / fmt::format(".partial-{}-{}.json", host, procid ? procid : "0");
    std::vector<std::string> argv{self_executable().string(), "run"};
    argv.insert(argv.end(), run_args.begin(), run_args.end());
    argv.insert(argv.end(), {"-o", partial.string()});
    const int code = spawn_and_wait(argv);
    std::error_code ec;
    if (!std::filesystem::exists(partial, ec)) {
        std::fprintf(stderr, "vrambench fleet: %s: the run exited %d and wrote no result set\n", host.c_str(), code);
        return code != 0 ? code : static_cast<int>(ExitCode::run_failed);
    }
    const nlohmann::json document = read_result_file(partial);
    const auto parts = split_by_card(document);
    for (const auto &part : parts) {
        const auto file = std::filesystem::path(dir) / fleet_file_name(host, part.key);
        write_file_atomically(file, part.document.dump(2) + "\n");
        std::fprintf(stderr, "vrambench fleet: %s: %s\n", host.c_str(), file.c_str());
    }
    std::filesystem::remove(partial, ec);
    if (parts.empty()) {
        std::fprintf(stderr, "vrambench fleet: %s: the run measured no device\n", host.c_str());
        return code != 0 ? code : static_cast<int>(ExitCode::run_failed);
    }
    return code;
}

} // namespace

int run_fleet_comparison(const std::string &folder, const OutlierRule &rule, const std::string &format,
                         const std::vector<std::string> &references)
{
    FleetChecks checks;
    if (!references.empty()) {
        checks.references.emplace();
        for (const auto &path : references)
            checks.references->append(health::read_references(path));
    }
    const FleetComparison fleet = compare_fleet(folder, rule, checks);
    const std::string out = format == "json" ? fleet_json(fleet).dump(2) + "\n" : fleet_text(fleet);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    const auto named = fleet_outliers(fleet);
    for (const auto &[group, card] : named)
        std::fprintf(stderr, "vrambench: outlier: %s %s: %s %.4g %s, %+.1f%% from the median of %zu cards\n",
                     card->host.c_str(), card->key.c_str(), group->figure.c_str(), card->value, group->unit.c_str(),
                     card->deviation * 100, group->cards.size());
    for (const FleetCardHealth *h : fleet_unhealthy(fleet))
        std::fprintf(stderr, "vrambench: %s %s: %s\n", h->host.c_str(), h->key.c_str(), h->verdict.verdict.c_str());
    return fleet_exit_code(fleet);
}

void add_outlier_options(CLI::App *command, double &mad_factor, double &min_deviation)
{
    command
        ->add_option("--mad-factor", mad_factor,
                     "Name a card further from its model's median than this many MADs (default 3)")
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option("--min-deviation", min_deviation,
                     "... and further than this fraction of the median (default 0.05: 5%)")
        ->check(CLI::Range(0.0, 1.0));
}

void add_fleet_command(CLI::App &app)
{
    auto options = std::make_shared<FleetOptions>();
    auto *fleet = app.add_subcommand(
        "fleet", "Run on every node of a Slurm job through srun, one result set per card in a shared folder, "
                 "then name the outlier cards");
    fleet->add_option("--dir", options->dir, "The shared folder the result sets go to (made if missing)")->required();
    fleet->add_option("--srun", options->srun, "The srun to start the tasks with (default: srun on PATH)");
    fleet
        ->add_option("--srun-option", options->srun_options,
                     "Pass this to srun, e.g. --srun-option=--nodes=16 (repeatable)")
        ->allow_extra_args(false);
    add_outlier_options(fleet, options->mad_factor, options->min_deviation);
    fleet->add_option("--format", options->format, "How the comparison is printed: text or json")
        ->check(CLI::IsMember({"text", "json"}));
    fleet
        ->add_option("--reference", options->references,
                     "Check each card against this reference file, result set or folder (repeatable; default: the "
                     "published results/; docs/health.md)")
        ->check(CLI::ExistingPath);
    fleet->add_option("run_args", options->run_args, "After --: the arguments of each node's `vrambench run`");
    fleet->footer("Example, inside an allocation of 16 nodes:\n"
                  "  vrambench fleet --dir /shared/fleet -- --suite quick --backend cuda\n"
                  "Exit codes: 0 no card named; 2 usage error; 3 srun or a node's run failed; 4 a card failed "
                  "integrity or verification; 5 a card named (an outlier or a failed health check).");
    set_runner(fleet, [options] { return run_fleet(*options); });

    // What srun starts on each node; not for people.
    auto node = std::make_shared<std::pair<std::string, std::vector<std::string>>>();
    auto *task = app.add_subcommand("__fleet-node", "");
    task->group("");
    task->add_option("dir", node->first)->required();
    task->add_option("run_args", node->second);
    set_runner(task, [node] { return run_fleet_node(node->first, node->second); });
}

} // namespace vrb::cli
