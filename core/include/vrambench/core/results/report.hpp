// Turning results into what a person reads: an aligned table, or CSV for a spreadsheet.
#pragma once

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/result.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace vrb {

// One line per result, aligned under table_header(); a curve adds a few compact lines
// of its points, each marked with its plateau, and the plateaus found.
std::string table_header();
std::string table_row(const ProbeResult &result);
// "vulkan:0: llvmpipe (Vulkan, 2 GiB, peak ...)" from a device as the result set records it.
std::string device_heading(const nlohmann::json &device);

// A result set as CSV: one row per result and one per point of a curve, under a
// header whose column names carry their units; numbers print in full precision.
std::string csv_header();
std::string csv_rows(const nlohmann::json &document);

// `vrambench list` and `vrambench info`.
// `vrambench list`: backends as describe_backends_in_workers() reports them.
std::string describe_backends(const nlohmann::json &backends);
std::string describe_device_text(const nlohmann::json &device);

} // namespace vrb
