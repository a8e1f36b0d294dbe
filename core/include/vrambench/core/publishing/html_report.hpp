// `vrambench report`: result sets turned into one HTML page that opens offline. The
// core reads the sets into the page's data (every chart's series, every table's cells,
// every note); the page's small script (report/report.js) only draws that data with the
// Chart.js build compiled in, so what a page shows is decided, and tested, here.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace vrb {

struct ReportInput {
    std::string name;   // what the page calls the set: its file name
    nlohmann::json set; // a valid result set
};

// Reads and validates each file; throws UsageError naming the first that is missing,
// not JSON or not a valid result set, so no page is written from bad input.
std::vector<ReportInput> read_report_inputs(const std::vector<std::filesystem::path> &files);

// The page's data: per card (a device in a set) its sections, each with charts, tables
// and notes; the overlaid views across cards; the VRAM against RAM table. Throws
// UsageError when `sets` is empty or a set has no devices.
nlohmann::json report_data(const std::vector<ReportInput> &sets);

// The whole page: the template with the style, Chart.js, `data` and the script inlined.
std::string report_page(const nlohmann::json &data);

// The number of points a page's charts must show: the sum over every chart's series.
std::size_t report_chart_points(const nlohmann::json &chart);

} // namespace vrb
