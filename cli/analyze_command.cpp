// `vrambench analyze SET... [-o OUT]`: re-derives every derived figure of stored result
// sets (the plateaus each curve is named by, and so the memory latency every reader
// prints; each curve's headline; suspect marks; efficiencies) from their points and device
// descriptions with this version's rules, and says what changed. Measured values are never
// touched.
#include "commands.hpp"

#include <vrambench/core/analysis/curve_analysis.hpp>
#include <vrambench/core/analysis/efficiency.hpp>
#include <vrambench/core/analysis/headline.hpp>
#include <vrambench/core/analysis/suspect.hpp>
#include <vrambench/core/error.hpp>
#include <vrambench/core/results/output_file.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace vrb::cli {

namespace {

struct AnalyzeOptions {
    std::vector<std::string> sets;
    std::string output;
};

nlohmann::json read_valid(const std::string &file)
{
    nlohmann::json document = read_result_file(file);
    if (const auto violation = validate_result_json(document))
        throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file, schema_version, violation->path,
                                     violation->message));
    return document;
}

int run_analyze(const AnalyzeOptions &o)
{
    if (!o.output.empty() && o.sets.size() != 1)
        throw UsageError(fmt::format("analyze -o writes one set; {} were given", o.sets.size()));
    // Every set is read and checked before anything is written: a bad one loses nothing.
    std::vector<nlohmann::json> documents;
    for (const std::string &file : o.sets)
        documents.push_back(read_valid(file));
    std::string out;
    for (std::size_t i = 0; i < o.sets.size(); ++i) {
        // Headlines first: a mark and an efficiency are of the headline's value.
        const auto curves = analysis::reanalyze(documents[i]);
        const auto headlines = analysis::rederive_headlines(documents[i]);
        const auto marks = analysis::rederive_suspect_marks(documents[i]);
        const auto efficiencies = analysis::rederive_efficiencies(documents[i]);
        const auto changed = std::count_if(curves.begin(), curves.end(), [](const auto &c) { return c.changed(); });
        std::string summary =
            changed == 0 && headlines.empty() && marks.changes.empty() && efficiencies.empty()
                ? std::string("no derived figure changed")
                : fmt::format("{} of {} curves renamed, {} headlines re-derived, {} suspect marks re-derived", changed,
                              curves.size(), headlines.size(), marks.changes.size());
        if (!efficiencies.empty()) summary += fmt::format(", {} efficiencies re-derived", efficiencies.size());
        // A mark decided on less than its footprint would be a guess: it stays, and is counted.
        if (marks.kept > 0)
            summary += fmt::format("; {} suspect marks kept as recorded (their footprint or link is not recorded)",
                                   marks.kept);
        out += fmt::format("{}: {}\n", o.sets[i], summary);
        for (const analysis::Change &c : curves) {
            out += fmt::format("  {}: {}\n", c.where, c.after);
            if (c.changed()) out += fmt::format("    was: {}\n", c.before);
        }
        for (const auto *changes : {&headlines, &marks.changes, &efficiencies})
            for (const analysis::Change &c : *changes)
                out += fmt::format("  {}: {}\n    was: {}\n", c.where, c.after, c.before);
        if (const auto violation = validate_result_json(documents[i]))
            throw RunError(fmt::format("{}: re-derived set does not match schema v{}: at {}: {}", o.sets[i],
                                       schema_version, violation->path, violation->message));
    }
    if (!o.output.empty()) {
        write_file_atomically(o.output, documents.front().dump(2) + "\n");
        out += fmt::format("wrote {}\n", o.output);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace

void add_analyze_command(CLI::App &app)
{
    auto options = std::make_shared<AnalyzeOptions>();
    auto *command =
        app.add_subcommand("analyze", "Re-derive the plateaus, level names, headlines, suspect marks and "
                                      "efficiencies of stored result sets with this version's rules, and print "
                                      "what changed");
    command->add_option("sets", options->sets, "Result files")->required();
    command->add_option("-o,--output", options->output,
                        "Write the re-derived set here (one set; may be the set itself)");
    set_runner(command, [options] { return run_analyze(*options); });
}

} // namespace vrb::cli
