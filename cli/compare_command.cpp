// `vrambench compare BASE OTHER [MORE...]`: the same figures of several result sets
// side by side, and a gate for pipelines (--fail-below).
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/health/rank.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace vrb::cli {

namespace {

struct CompareOptions {
    std::vector<std::string> files;
    std::string match = "model";
    std::string format = "text";
    double fail_below = 0; // 0: no gate
    std::string fleet;     // --fleet DIR: the cards of a folder lined up by model
    double mad_factor = 3, min_deviation = 0.05;
    std::vector<std::string> pairs;      // --pair BASE=OTHER
    std::vector<std::string> references; // --fleet: what each card is checked against
};

nlohmann::json read_valid_result_set(const std::string &file)
{
    nlohmann::json document = read_result_file(file);
    if (const auto violation = validate_result_json(document))
        throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file, schema_version, violation->path,
                                     violation->message));
    return document;
}

int run_compare(const CompareOptions &o)
{
    if (!o.fleet.empty()) {
        if (!o.files.empty()) throw UsageError("compare --fleet DIR reads the folder's result sets; name no file");
        if (o.format != "text" && o.format != "json")
            throw UsageError("compare --fleet prints text or json (--format text or json)");
        if (o.fail_below > 0)
            throw UsageError("compare --fleet names outliers by their peers; --fail-below does not apply");
        if (!o.pairs.empty()) throw UsageError("compare --fleet lines cards up by model; --pair does not apply");
        return run_fleet_comparison(o.fleet, OutlierRule{o.mad_factor, o.min_deviation}, o.format, o.references);
    }
    if (!o.references.empty()) throw UsageError("--reference is for compare --fleet (and health)");
    if (o.files.size() < 2) throw UsageError("compare needs a base result file and at least one other");
    std::vector<ChosenPair> chosen;
    for (const auto &text : o.pairs)
        chosen.push_back(parse_chosen_pair(text, "--pair"));
    if (!chosen.empty() && o.files.size() != 2)
        throw UsageError("compare --pair names devices of two files (BASE OTHER); give exactly two");
    // Every file is read and checked before anything is printed, so a bad one costs no partial output.
    std::vector<nlohmann::json> documents;
    for (const auto &file : o.files)
        documents.push_back(read_valid_result_set(file));
    const DeviceMatch match = o.match == "card" ? DeviceMatch::card : DeviceMatch::model;
    std::vector<Comparison> comparisons;
    for (std::size_t i = 1; i < documents.size(); ++i)
        comparisons.push_back(chosen.empty()
                                  ? compare_result_sets(documents[0], o.files[0], documents[i], o.files[i], match)
                                  : compare_chosen_devices(documents[0], o.files[0], documents[i], o.files[i], chosen));

    // Where each card stands among every set of its model, given or published.
    std::vector<health::SetRef> given;
    for (std::size_t i = 0; i < documents.size(); ++i)
        given.push_back({o.files[i], &documents[i]});
    const auto ranks = health::rank_among_published(given);
    std::string out;
    if (o.format == "json") {
        auto j = compare_json(comparisons);
        j["rank"] = health::rank_json(ranks);
        out = j.dump(2) + "\n";
    } else if (o.format == "text")
        out = compare_text(comparisons) + health::rank_text(ranks);
    else if (o.format == "csv")
        out = compare_csv(comparisons);
    else if (o.format == "markdown")
        out = compare_markdown(comparisons);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);

    // Nothing lined up is no comparison: a pipeline must not read it as a pass.
    if (nothing_compared(comparisons)) {
        for (const Comparison &c : comparisons)
            std::fprintf(stderr, "vrambench: compare %s %s: nothing was compared: %s\n", c.base_file.c_str(),
                         c.other_file.c_str(),
                         c.devices.empty() ? no_match_hint(c).c_str()
                                           : "the paired devices share no probe with the same parameters");
        return static_cast<int>(ExitCode::usage);
    }
    if (o.fail_below <= 0) return 0;
    const auto below = figures_below(comparisons, o.fail_below);
    for (const ComparedFigure *f : below)
        std::fprintf(stderr, "vrambench: below %g: %s %s%s%s on %s: ratio %.3f\n", o.fail_below, f->probe.c_str(),
                     f->parameters_text.c_str(), f->point.empty() ? "" : " at ", f->point.c_str(),
                     f->other_device.c_str(), *f->ratio);
    return below.empty() ? 0 : static_cast<int>(ExitCode::below_threshold);
}

} // namespace

void add_compare_command(CLI::App &app)
{
    auto options = std::make_shared<CompareOptions>();
    auto *compare = app.add_subcommand(
        "compare", "Line up the figures of result sets against the first (the base), with ratios and noise");
    compare->add_option("files", options->files, "BASE.json OTHER.json [MORE.json ...]");
    compare
        ->add_option("--match", options->match,
                     "Pair devices by card (the same physical card: PCI address or UUID) or model (PCI ids "
                     "and memory size)")
        ->check(CLI::IsMember({"card", "model"}));
    compare
        ->add_option("--pair", options->pairs,
                     "Line up these devices only, whatever their cards: BASE_DEVICE=OTHER_DEVICE, each a device's id "
                     "(backend:index) or key as its result set names it, e.g. --pair host:0=acme:0; repeatable")
        ->excludes("--match");
    compare->add_option("--format", options->format, "text, json, csv or markdown")
        ->check(CLI::IsMember({"text", "json", "csv", "markdown"}));
    compare
        ->add_option("--fail-below", options->fail_below,
                     "Exit 5 when any ratio (above 1 is better) is below this, e.g. 0.95")
        ->check(CLI::PositiveNumber);
    compare->add_option("--fleet", options->fleet,
                        "Line up every card of the same model across the result sets in this folder and name the "
                        "outliers (copy, triad or latency far from the model's median); exit 5 when any is named");
    add_outlier_options(compare, options->mad_factor, options->min_deviation);
    compare
        ->add_option("--reference", options->references,
                     "--fleet: check each card against this reference file, result set or folder (repeatable; "
                     "default: the published results/; docs/health.md)")
        ->check(CLI::ExistingPath);
    set_runner(compare, [options] { return run_compare(*options); });
}

} // namespace vrb::cli
