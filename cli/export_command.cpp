// `vrambench export FILE --format csv|json`: a result set for a spreadsheet (one row
// per figure and per curve point) or as indented JSON, after checking it is one.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/results/report.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace vrb::cli {

namespace {

struct ExportOptions {
    std::string file;
    std::string format = "csv";
};

int run_export(const ExportOptions &o)
{
    const nlohmann::json document = read_result_file(o.file);
    if (const auto violation = validate_result_json(document))
        throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", o.file, schema_version,
                                     violation->path, violation->message));
    const std::string out = o.format == "json" ? document.dump(2) + "\n" : csv_header() + csv_rows(document);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace

void add_export_command(CLI::App &app)
{
    auto options = std::make_shared<ExportOptions>();
    auto *command = app.add_subcommand("export", "Write a result set as CSV (one row per figure and curve point) "
                                                 "or indented JSON");
    command->add_option("file", options->file, "The result file")->required();
    command->add_option("--format", options->format, "csv or json")->check(CLI::IsMember({"csv", "json"}));
    set_runner(command, [options] { return run_export(*options); });
}

} // namespace vrb::cli
