// Validation of result files against the JSON Schema in results/schema/.
#pragma once

#include <vrambench/core/results/output_file.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

// What a command says when a JSON library exception escaped its reading of `files`:
// every reader refuses a schema-invalid set first (naming the JSON path), so a value a
// reader could not take from a valid set is the reader's fault, not the file's; the
// message names the files, the command and the library's words, never the bare exception.
std::string unreadable_value_message(const std::string &command, const std::vector<std::string> &files,
                                     const std::string &what);

// The same checks but the schema version's, on any JSON file (a device as `info --format
// json` prints it), and on text already in memory.
nlohmann::json read_json_file(const std::filesystem::path &file, uint64_t max_bytes = 512ull << 20);
nlohmann::json parse_json_text(const std::string &text, const std::string &source);
// Refuses a document that is no result set of this schema version; returns it.
nlohmann::json check_result_version(nlohmann::json document, const std::string &source);

// The same checks on text already in memory; `source` names it in messages.
nlohmann::json parse_result_text(const std::string &text, const std::string &source);

} // namespace vrb
