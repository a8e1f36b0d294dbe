// Validation of result files against the JSON Schema in results/schema/.
#pragma once

#include <vrambench/core/results/output_file.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace vrb {

struct SchemaViolation {
    std::string path;    // JSON path of the offending value, "$.results[3].unit"
    std::string message; // what is wrong with it
};

// The first violation, or nothing when the document is valid.
std::optional<SchemaViolation> validate_result_json(const nlohmann::json &document);

// Reads a result file: refuses a file that is missing, too large (over max_bytes),
// not JSON (with the line and column), or of another schema version. Throws
// UsageError with one clear line naming the file.
nlohmann::json read_result_file(const std::filesystem::path &file, uint64_t max_bytes = 512ull << 20);

// The same checks on text already in memory; `source` names it in messages.
nlohmann::json parse_result_text(const std::string &text, const std::string &source);

} // namespace vrb
