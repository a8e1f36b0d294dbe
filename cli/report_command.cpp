// `vrambench report`: result sets to one HTML page that opens offline.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace vrb::cli {

namespace {

struct ReportOptions {
    std::vector<std::string> files;
    std::string output;
};

int run_report(const ReportOptions &o)
{
    std::vector<std::filesystem::path> files(o.files.begin(), o.files.end());
    if (!o.output.empty()) {
        std::error_code ec;
        if (std::filesystem::is_directory(o.output, ec))
            throw UsageError(fmt::format("cannot write {}: it is a directory", o.output));
        for (const auto &file : files)
            if (std::filesystem::equivalent(file, o.output, ec))
                throw UsageError(fmt::format("cannot write {}: it is one of the result sets to report", o.output));
    }
    const std::string page = report_page(report_data(read_report_inputs(files)));
    if (o.output.empty()) {
        std::fwrite(page.data(), 1, page.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    write_file_atomically(o.output, page);
    std::fprintf(stderr, "vrambench: report of %zu result set%s written to %s\n", files.size(),
                 files.size() == 1 ? "" : "s", o.output.c_str());
    return 0;
}

} // namespace

void write_index_html(const ResultIndex &index, const std::string &folder, const std::string &page)
{
    const std::filesystem::path root(folder);
    for (const auto &set : index.sets) {
        auto report = root / set;
        report.replace_extension(".html");
        write_file_atomically(report, report_page(report_data(read_report_inputs({root / set}))));
    }
    write_file_atomically(page, result_index_html(index, root, page));
    std::fprintf(stderr, "vrambench: %s: the index as a web page, with %zu report%s beside the sets\n", page.c_str(),
                 index.sets.size(), index.sets.size() == 1 ? "" : "s");
}

void add_report_command(CLI::App &app)
{
    auto options = std::make_shared<ReportOptions>();
    auto *report = app.add_subcommand(
        "report", "Write one HTML page (charts and tables, opens offline) from one or more result sets");
    report->add_option("files", options->files, "RESULTS.json [MORE.json ...]")->required()->expected(1, -1);
    report->add_option("-o,--output", options->output, "Write the page to this file instead of stdout");
    set_runner(report, [options] { return run_report(*options); });
}

} // namespace vrb::cli
