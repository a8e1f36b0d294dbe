// What the report's builders share: reading figures out of a result set, and the shape
// of a chart as report/report.js draws it.
//
// A chart is {title, type: "bar" | "line", horizontal, x, y, series, bands}. An axis is
// {title, scale}: "category" (x only, with the category labels in `labels`), "linear",
// "log", or "log-bytes" (a log axis whose ticks read as KiB, MiB, GiB). A series is
// {label, style: "" | "peak", points: [{x, y}]}; a peak series is drawn as a dashed line.
// A band is {from, to, label}: a shaded range of x, named (the plateaus of a curve).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb::report {

using nlohmann::json;

// The stream operations in the order people read them.
const std::vector<std::string> &stream_operations();

// A result that carries a figure: measured (ok) or above the peak (suspect).
bool usable(const json &result);
std::vector<const json *> results_of(const json &set, const std::string &device, const std::string &probe);
std::string parameter_text(const json &result, const char *name);
double parameter_number(const json &result, const char *name);

// The points of a curve probe's result: x from each point's `x_field`, y its value.
json curve_points(const json &result, const char *x_field, double y_scale = 1);
const json &plateaus_of(const json &result);

// The stream figure of `operation` at the widest element the device measured.
std::optional<double> widest_stream_figure(const json &set, const std::string &device, const std::string &operation);
// The latency plateau named memory, when the chase reached past the caches.
std::optional<double> memory_latency_ns(const json &set, const std::string &device);
std::optional<double> capacity_figure(const json &set, const std::string &device, const std::string &probe,
                                      const std::string &operation = "");

json make_chart(std::string title, std::string type, json x, json y);
json axis(std::string title, std::string scale);
json category_axis(std::string title, const std::vector<std::string> &labels);
// Adds the series unless it has no points: a chart never shows an empty legend entry.
void add_series(json &chart, std::string label, json points, std::string style = "");
// The device's peak as a dashed line across the x values the chart already shows.
void add_peak_line(json &chart, const json &device);
bool has_points(const json &chart);

json make_table(std::vector<std::string> columns);
void add_row(json &table, std::vector<std::string> cells);

json make_section(std::string title);

std::string fixed(double value, int decimals);
// `decimals` from 10 up; three significant digits below, so small figures do not read 0.0.
std::string figure_text(double value, int decimals);
std::string gbps_text(std::optional<double> value);
std::string bytes_text(std::optional<double> value);
std::string percent_text(std::optional<double> fraction);

// The peak the device's figures are set against, in one sentence.
std::string peak_sentence(const json &device);
std::optional<double> peak_of(const json &device);

} // namespace vrb::report
