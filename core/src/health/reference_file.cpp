// The reference file's reader. nlohmann's values carry no line, so a small scan over
// the text finds where each entry of "references" and each of its fields begins, and
// every refusal names that line.
#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/health/thresholds.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace vrb::health {

namespace {

using nlohmann::json;

constexpr int reference_schema_version = 1;

struct EntryLines {
    std::size_t line = 0;                      // where the entry's '{' is
    std::map<std::string, std::size_t> fields; // where each of its keys is
};

// The lines of the entries of the top-level "references" array, in order. The text is
// valid JSON (nlohmann parsed it first), so strings, escapes and nesting are all
// that need following.
std::vector<EntryLines> entry_lines(const std::string &text, std::size_t &references_line)
{
    struct Frame {
        char kind;
        bool expect_key;
        std::string last_key;
    };
    std::vector<EntryLines> entries;
    std::vector<Frame> stack;
    std::size_t line = 1, array_depth = 0; // array_depth: the stack size inside "references", 0 outside
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (c == '"') {
            const std::size_t at = line;
            std::string s;
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\' && i + 1 < text.size()) ++i;
                s += text[i];
            }
            if (!stack.empty() && stack.back().kind == '{' && stack.back().expect_key) {
                stack.back().expect_key = false;
                stack.back().last_key = s;
                if (stack.size() == 1 && s == "references") references_line = at;
                if (array_depth && stack.size() == array_depth + 1 && !entries.empty()) entries.back().fields[s] = at;
            }
        } else if (c == '{' || c == '[') {
            if (c == '{' && array_depth && stack.size() == array_depth) entries.push_back({line, {}});
            const bool references = c == '[' && stack.size() == 1 && stack[0].last_key == "references";
            stack.push_back({c, c == '{', ""});
            if (references) array_depth = stack.size();
        } else if (c == '}' || c == ']') {
            if (!stack.empty()) stack.pop_back();
            if (stack.size() < array_depth) array_depth = 0;
        } else if (c == ',' && !stack.empty() && stack.back().kind == '{') {
            stack.back().expect_key = true;
        }
    }
    return entries;
}

std::size_t line_at(const std::string &text, std::size_t byte)
{
    return 1 + std::count(text.begin(), text.begin() + std::min(byte, text.size()), '\n');
}

const std::set<std::string> known_fields{"card",  "probe", "operation", "element_bytes", "unit",
                                         "value", "floor", "source",    "note"};

class EntryReader {
  public:
    EntryReader(const std::string &source, const json &entry, const EntryLines &lines, std::size_t index)
        : source_(source), entry_(entry), lines_(lines), index_(index)
    {
    }

    [[noreturn]] void refuse(const std::string &field, const std::string &what) const
    {
        const auto at = lines_.fields.find(field);
        const std::size_t line = at != lines_.fields.end() ? at->second : lines_.line;
        throw UsageError(fmt::format("{}:{}: reference {}{}: {}", source_, line, index_ + 1,
                                     field.empty() ? "" : fmt::format(" field '{}'", field), what));
    }

    std::string text(const char *field, bool required) const
    {
        if (!entry_.contains(field)) {
            if (required) refuse("", fmt::format("field '{}' is missing", field));
            return "";
        }
        if (!entry_[field].is_string() || entry_[field].get<std::string>().empty())
            refuse(field, "must be a non-empty string");
        return entry_[field].get<std::string>();
    }

    std::optional<double> positive(const char *field) const
    {
        if (!entry_.contains(field)) return std::nullopt;
        if (!entry_[field].is_number() || !(entry_[field].get<double>() > 0))
            refuse(field, fmt::format("must be a number above 0, not {}", entry_[field].dump()));
        return entry_[field].get<double>();
    }

    Reference read() const
    {
        if (!entry_.is_object()) refuse("", "must be an object");
        for (const auto &[key, _] : entry_.items())
            if (!known_fields.contains(key))
                refuse(key, fmt::format("is not a field of a reference (known: card, probe, operation, "
                                        "element_bytes, unit, value, floor, source, note)"));
        Reference r;
        r.line = lines_.line;
        r.card = card_model_of_key(text("card", true));
        if (!r.card.spec)
            refuse("card", fmt::format("'{}' is not a card of the device table: {}", r.card.key, r.card.spec_why));
        r.figure.probe = text("probe", true);
        const auto unit = figure_unit(r.figure.probe);
        if (!unit)
            refuse("probe", fmt::format("'{}' has no figure health judges (bandwidth.stream, bandwidth.transfer, "
                                        "latency.chase)",
                                        r.figure.probe));
        r.figure.operation = text("operation", r.figure.probe != "latency.chase");
        if (r.figure.probe == "bandwidth.stream" && !is_stream_operation(r.figure.operation))
            refuse("operation", fmt::format("'{}' is not a stream operation (read, write, copy, scale, add, triad, "
                                            "dot)",
                                            r.figure.operation));
        if (entry_.contains("element_bytes")) {
            if (r.figure.probe != "bandwidth.stream") refuse("element_bytes", "only bandwidth.stream has one");
            const uint64_t width = count_or(entry_, "element_bytes", 0);
            if (width != 4 && width != 8 && width != 16) refuse("element_bytes", "must be 4, 8 or 16");
            r.figure.element_bytes = width;
        } else if (r.figure.probe == "bandwidth.stream") {
            r.figure.element_bytes = 16; // the width every suite measures
        }
        r.unit = text("unit", true);
        if (r.unit != *unit)
            refuse("unit",
                   fmt::format("'{}' does not match {}, whose figures are in {}", r.unit, r.figure.probe, *unit));
        r.value = positive("value");
        r.floor = positive("floor");
        if (!r.value && !r.floor) refuse("", "gives neither 'value' (a measured reference) nor 'floor'");
        // A latency's floor is a ceiling: it lies above its reference, a bandwidth's below.
        const bool ceiling = figure_lower_is_better(r.figure.probe);
        if (r.value && r.floor && !ceiling && *r.floor > *r.value)
            refuse("floor", fmt::format("{:g} is above the reference value {:g}", *r.floor, *r.value));
        if (r.value && r.floor && ceiling && *r.floor < *r.value)
            refuse("floor", fmt::format("{:g}, a ceiling for {}, is below the reference value {:g}: the card the "
                                        "reference was measured on would fail it",
                                        *r.floor, r.figure.probe, *r.value));
        r.source = text("source", true);
        check_against_peak(r);
        return r;
    }

  private:
    // Device memory's figures against the datasheet: a figure past the peak, or under a
    // tenth of it, is a slip of a digit, not a card.
    void check_against_peak(const Reference &r) const
    {
        if (r.figure.probe != "bandwidth.stream") return;
        const double peak = r.card.spec->peak_gb_per_s;
        for (const auto &[field, figure] : {std::pair{"value", r.value}, std::pair{"floor", r.floor}}) {
            if (!figure) continue;
            if (*figure > most_peak_share * peak)
                refuse(field, fmt::format("{:g} GB/s is above the datasheet peak of {:g} GB/s of the {} ({}): a "
                                          "figure of its memory cannot be",
                                          *figure, peak, r.card.spec->name, r.card.spec->source));
            if (*figure < least_peak_share * peak)
                refuse(field, fmt::format("{:g} GB/s is below a tenth of the datasheet peak of {:g} GB/s of the {}: "
                                          "a digit too few?",
                                          *figure, peak, r.card.spec->name));
        }
    }

    const std::string &source_;
    const json &entry_;
    const EntryLines &lines_;
    std::size_t index_;
};

} // namespace

References parse_reference_text(const std::string &text, const std::string &source)
{
    json document;
    try {
        document = json::parse(text);
    } catch (const json::parse_error &e) {
        throw UsageError(fmt::format("{}:{}: not a whole JSON document: {}", source, line_at(text, e.byte), e.what()));
    }
    if (!document.is_object()) throw UsageError(fmt::format("{}:1: a reference file is a JSON object", source));
    std::size_t references_line = 1;
    const std::vector<EntryLines> lines = entry_lines(text, references_line);
    if (!document.contains("schema_version") || document["schema_version"] != reference_schema_version)
        throw UsageError(fmt::format("{}:1: 'schema_version' must be {} (results/schema/reference-v1.schema.json)",
                                     source, reference_schema_version));
    if (!document.contains("references") || !document["references"].is_array() || document["references"].empty())
        throw UsageError(
            fmt::format("{}:{}: 'references' must be a list of at least one reference", source, references_line));
    References out;
    out.origins.push_back(source);
    std::map<std::pair<std::string, FigureKey>, std::size_t> seen;
    const json &entries = document["references"];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const EntryLines here = i < lines.size() ? lines[i] : EntryLines{references_line, {}};
        Reference r = EntryReader(source, entries[i], here, i).read();
        const auto [at, fresh] = seen.try_emplace({std::string(r.card.spec->name), r.figure}, r.line);
        if (!fresh)
            throw UsageError(fmt::format("{}:{}: reference {}: {} for {} is given already on line {}", source, r.line,
                                         i + 1, figure_text(r.figure), r.card.key, at->second));
        out.entries.push_back(std::move(r));
    }
    return out;
}

References read_reference_file(const std::filesystem::path &file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UsageError(fmt::format("{}: cannot read the reference file", file.string()));
    std::ostringstream text;
    text << in.rdbuf();
    return parse_reference_text(text.str(), file.string());
}

} // namespace vrb::health
