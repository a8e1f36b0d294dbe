#include <vrambench/core/error.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include "vrambench_schema_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace vrb {

namespace {

const valijson::Schema &compiled_schema()
{
    static const std::unique_ptr<valijson::Schema> schema = [] {
        std::string text;
        for (const char *chunk : vrambench_schema_text)
            text += chunk;
        const nlohmann::json document = nlohmann::json::parse(text);
        auto s = std::make_unique<valijson::Schema>();
        valijson::SchemaParser parser;
        valijson::adapters::NlohmannJsonAdapter adapter(document);
        parser.populateSchema(adapter, *s);
        return s;
    }();
    return *schema;
}

// valijson's context is a list like ["<root>", "[results]", "[3]", "[unit]"].
std::string json_path(const std::vector<std::string> &context)
{
    std::string path = "$";
    for (const auto &part : context) {
        if (part == "<root>") continue;
        if (part.size() > 2 && part.front() == '[' && part.back() == ']') {
            const std::string inner = part.substr(1, part.size() - 2);
            const bool index = !inner.empty() && inner.find_first_not_of("0123456789") == std::string::npos;
            path += index ? "[" + inner + "]" : "." + inner;
        } else {
            path += "." + part;
        }
    }
    return path;
}

} // namespace

std::optional<SchemaViolation> validate_result_json(const nlohmann::json &document)
{
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter adapter(document);
    if (validator.validate(compiled_schema(), adapter, &results)) return std::nullopt;
    // valijson reports from the outside in; the deepest error names the real culprit.
    valijson::ValidationResults::Error error, deepest;
    std::size_t depth = 0;
    bool first = true;
    while (results.popError(error)) {
        if (first || error.context.size() > depth) {
            deepest = error;
            depth = error.context.size();
            first = false;
        }
    }
    return SchemaViolation{json_path(deepest.context), deepest.description};
}

nlohmann::json read_result_file(const std::filesystem::path &file, uint64_t max_bytes)
{
    return check_result_version(read_json_file(file, max_bytes), file.string());
}

nlohmann::json read_json_file(const std::filesystem::path &file, uint64_t max_bytes)
{
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw UsageError(fmt::format("{}: is a directory, not a result file", file.string()));
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) throw UsageError(fmt::format("{}: cannot read: {}", file.string(), ec.message()));
    if (size > max_bytes)
        throw UsageError(fmt::format("{}: {} bytes is larger than the {} bytes a result file may have", file.string(),
                                     size, max_bytes));
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UsageError(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return parse_json_text(text.str(), file.string());
}

nlohmann::json parse_result_text(const std::string &text, const std::string &source)
{
    return check_result_version(parse_json_text(text, source), source);
}

nlohmann::json parse_json_text(const std::string &text, const std::string &source)
{
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &e) {
        // A syntax error or a number out of range (1e400), e.g. "[json.exception.parse_error.101]
        // parse error at line L, column C: ..."; the bracketed code means nothing to a user.
        std::string what = e.what();
        const auto close = what.find("] ");
        const auto at = close == std::string::npos ? std::string::npos : close + 2;
        throw UsageError(
            fmt::format("{}: not valid JSON: {}", source, at == std::string::npos ? what : what.substr(at)));
    }
    return document;
}

nlohmann::json check_result_version(nlohmann::json document, const std::string &source)
{
    if (!document.is_object() || !document.contains("schema_version"))
        throw UsageError(fmt::format("{}: not a vrambench result set (no schema_version)", source));
    if (document["schema_version"] != schema_version)
        throw UsageError(fmt::format("{}: schema version {} is not supported (this vrambench reads version {})", source,
                                     document["schema_version"].dump(), schema_version));
    return document;
}

std::string unreadable_value_message(const std::string &command, const std::vector<std::string> &files,
                                     const std::string &what)
{
    if (files.empty()) return fmt::format("internal error: {} met a JSON value it could not read: {}", command, what);
    return fmt::format("{}: could not read a value of {}: {}; result sets are checked against the schema before "
                       "they are read, so the reader, not the file, is at fault: please report it with the file",
                       command, fmt::join(files, ", "), what);
}

} // namespace vrb
