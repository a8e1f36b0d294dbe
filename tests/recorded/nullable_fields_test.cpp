// Every command that reads result sets takes every document the schema allows: a field
// the schema lets be null is null, an optional field is absent, an array is empty, a
// free-form value (parameters, extra) is null. The variants are made by walking a
// published set against the schema itself, so a field added to the schema is covered
// the day it is added, and each variant is checked to be valid before it is read.
#include "../sanitized_build.hpp"
#include "../scratch_folder.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/publishing/fleet.hpp>
#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/report.hpp>
#include <vrambench/core/results/result_index.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using nlohmann::json;

namespace {

json read_json(const std::filesystem::path &file)
{
    std::ifstream in(file);
    return json::parse(in);
}

// Keeps the first `most` entries of an array, wherever it is.
void shorten(json &array, std::size_t most)
{
    if (array.is_array() && array.size() > most)
        array.erase(array.begin() + static_cast<std::ptrdiff_t>(most), array.end());
}

// One result per probe and device of a published standard set, each with a few samples
// and curve points: every shape of result the readers meet, in a document small enough
// to read hundreds of times.
json base_document()
{
    json set = read_json(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "ci-vm-epyc-zen5-2vcpu" / "standard.json");
    std::set<std::string> kept;
    json results = json::array();
    for (auto &r : set["results"]) {
        if (!kept.insert(r["probe"].get<std::string>() + " " + r["device"].get<std::string>()).second) continue;
        shorten(r["samples"], 3);
        shorten(r["seconds"], 3);
        if (r.contains("extra") && r["extra"].contains("curve")) {
            json &curve = r["extra"]["curve"];
            shorten(curve["points"], 4);
            shorten(curve["plateaus"], 2);
            for (auto &point : curve["points"]) {
                shorten(point["samples"], 3);
                shorten(point["seconds"], 3);
            }
        }
        results.push_back(r);
    }
    set["results"] = std::move(results);
    return set;
}

struct Variant {
    std::string pointer; // the JSON pointer of what was changed
    std::string change;  // "null", "absent" or "empty"
};

class SchemaWalk {
  public:
    explicit SchemaWalk(json schema) : schema_(std::move(schema)) {}

    // Every change the schema allows at or below `value`, each once per schema location
    // (and per probe, for results: readers branch on the probe).
    void walk(const json &value, const json &schema, const std::string &pointer, const std::string &pattern)
    {
        const json &s = resolve(schema);
        if (nullable(s) && !value.is_null()) add(pointer, pattern, "null");
        if (s.contains("oneOf"))
            for (const auto &alternative : s["oneOf"])
                walk(value, alternative, pointer, pattern);
        if (value.is_object() && s.contains("properties")) {
            const std::set<std::string> required = s.value("required", std::set<std::string>{});
            const std::string probe = value.contains("probe") && value["probe"].is_string()
                                          ? "[" + value["probe"].get<std::string>() + "]"
                                          : "";
            for (const auto &[key, member] : value.items()) {
                const std::string p = pointer + "/" + key, pat = pattern + probe + "/" + key;
                if (!required.count(key)) add(p, pat, "absent");
                if (s["properties"].contains(key))
                    walk(member, s["properties"][key], p, pat);
                else if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
                    walk(member, s["additionalProperties"], p, pat);
            }
        } else if (value.is_object() && free_form(s)) {
            // parameters and extra: the schema allows anything, so every member may be null.
            for (const auto &[key, member] : value.items())
                free_walk(member, pointer + "/" + key, pattern + "/" + key);
        }
        if (value.is_array() && s.contains("items")) {
            if (!value.empty() && !s.contains("minItems")) add(pointer, pattern, "empty");
            for (std::size_t i = 0; i < value.size(); ++i)
                walk(value[i], s["items"], pointer + "/" + std::to_string(i), pattern + "/*");
        }
    }

    const std::vector<Variant> &variants() const { return variants_; }

  private:
    const json &resolve(const json &s) const
    {
        if (!s.is_object() || !s.contains("$ref")) return s;
        const std::string ref = s["$ref"].get<std::string>(); // "#/definitions/name"
        return resolve(schema_.at(json::json_pointer(ref.substr(1))));
    }

    static bool nullable(const json &s)
    {
        if (!s.is_object()) return false;
        if (s.contains("type")) {
            const json &t = s["type"];
            if (t == "null" || (t.is_array() && std::find(t.begin(), t.end(), "null") != t.end())) return true;
        }
        if (s.contains("enum"))
            for (const auto &e : s["enum"])
                if (e.is_null()) return true;
        if (s.contains("oneOf"))
            for (const auto &alternative : s["oneOf"])
                if (alternative.value("type", json()) == "null") return true;
        return false;
    }

    static bool free_form(const json &s)
    {
        return s.value("type", json()) == "object" && !s.contains("properties") && !s.contains("additionalProperties");
    }

    void free_walk(const json &value, const std::string &pointer, const std::string &pattern)
    {
        if (!value.is_null()) add(pointer, pattern, "null");
        if (value.is_object())
            for (const auto &[key, member] : value.items())
                free_walk(member, pointer + "/" + key, pattern + "/" + key);
        if (value.is_array() && !value.empty()) {
            add(pointer, pattern, "empty");
            free_walk(value[0], pointer + "/0", pattern + "/*");
        }
    }

    void add(const std::string &pointer, const std::string &pattern, const std::string &change)
    {
        if (seen_.insert(pattern + " " + change).second) variants_.push_back({pointer, change});
    }

    json schema_;
    std::set<std::string> seen_;
    std::vector<Variant> variants_;
};

json apply(json document, const Variant &v)
{
    const json::json_pointer at(v.pointer);
    if (v.change == "null")
        document[at] = nullptr;
    else if (v.change == "empty")
        document[at] = json::array();
    else
        document[at.parent_pointer()].erase(at.back());
    return document;
}

using vrb::test::ScratchFolder;

void write(const std::filesystem::path &file, const json &document)
{
    std::ofstream(file) << document.dump();
}

// Runs `document` through what report, compare, export, index, fleet and the run table
// read; returns the first exception's text, or nothing.
std::string read_by_every_command(const json &document, const json &base, const ScratchFolder &folder)
{
    try {
        const auto file = folder.path() / "set.json";
        write(file, document);
        const std::string page = vrb::report_page(vrb::report_data(vrb::read_report_inputs({file})));
        if (page.empty()) return "the report page is empty";
        for (const auto match : {vrb::DeviceMatch::card, vrb::DeviceMatch::model}) {
            std::vector<vrb::Comparison> c{vrb::compare_result_sets(base, "base.json", document, "set.json", match),
                                           vrb::compare_result_sets(document, "set.json", base, "base.json", match)};
            (void)vrb::compare_text(c);
            (void)vrb::compare_markdown(c);
            (void)vrb::compare_csv(c);
            (void)vrb::compare_json(c);
            (void)vrb::figures_below(c, 0.95);
        }
        (void)vrb::csv_rows(document);
        for (const auto &d : document["devices"]) {
            (void)vrb::device_heading(d);
            (void)vrb::describe_device_text(d);
        }
        const vrb::ResultIndex index = vrb::index_result_sets(folder.path());
        if (!index.refused.empty()) return "index refused it: " + index.refused.front().reason;
        (void)vrb::result_index_html(index, folder.path(), folder.path() / "index.html");
        const auto fleet = vrb::compare_fleet_documents({{"a.json", document}, {"b.json", base}, {"c.json", base}});
        (void)vrb::fleet_text(fleet);
        (void)vrb::fleet_json(fleet);
    } catch (const std::exception &e) {
        return e.what();
    }
    return {};
}

// The sanitized build reads every thirty-second variant, the release build every one.
constexpr std::size_t variant_step = vrb::test::variant_step(32);

TEST(NullableFields, EveryCommandReadsEverySetTheSchemaAllowsWithAFieldNullAbsentOrEmpty)
{
    const json schema = read_json(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "schema" / "result-v1.schema.json");
    const json base = base_document();
    ASSERT_FALSE(vrb::validate_result_json(base).has_value());
    SchemaWalk walk(schema);
    walk.walk(base, schema, "", "");
    // The walk must reach the fields a module with nothing optional leaves null.
    std::set<std::string> pointers;
    for (const auto &v : walk.variants())
        pointers.insert(v.pointer + " " + v.change);
    EXPECT_TRUE(pointers.count("/devices/0/last_level_cache/bytes null"));
    EXPECT_TRUE(pointers.count("/devices/0/total_memory_bytes null"));
    EXPECT_TRUE(pointers.count("/results/0/value null"));
    EXPECT_GT(walk.variants().size(), 200u);

    ScratchFolder folder("vrambench-nullable");
    std::vector<std::string> failures;
    // Every variant is read against the schema by report and index first: a change the
    // schema refuses would fail here as "does not match schema", a mistake of the walk.
    for (std::size_t i = 0; i < walk.variants().size(); i += variant_step) {
        const Variant &v = walk.variants()[i];
        const json document = apply(base, v);
        const std::string error = read_by_every_command(document, base, folder);
        // A set of no device is the one the schema allows that has nothing to show: the
        // report says so, naming the file.
        if (v.pointer == "/devices" && v.change == "empty") {
            EXPECT_NE(error.find("set.json: the result set measured no device"), std::string::npos) << error;
            continue;
        }
        if (!error.empty()) failures.push_back(v.pointer + " " + v.change + ": " + error);
    }
    EXPECT_TRUE(failures.empty()) << failures.size() << " of " << walk.variants().size()
                                  << " variants failed, the first ones:\n"
                                  << [&] {
                                         std::string text;
                                         for (std::size_t i = 0; i < failures.size() && i < 30; ++i)
                                             text += failures[i] + "\n";
                                         return text;
                                     }();
}

// A module that reports only what every API must: one device, no caches, no PCI ids,
// no clocks, no peak. Every reader takes the set its run writes.
TEST(NullableFields, ASetOfAModuleReportingNothingOptionalIsReadByEveryCommand)
{
    json set = base_document();
    for (auto &d : set["devices"]) {
        for (const char *field :
             {"api_version", "driver_version", "pci", "uuid", "total_memory_bytes", "free_memory_bytes",
              "memory_bus_width_bits", "memory_clock_khz", "compute_units", "core_clock_khz", "peak_bandwidth_gbps"})
            d[field] = nullptr;
        d["caches"] = json::array();
        d["heaps"] = json::array();
        d["properties"] = json::object();
        d["last_level_cache"] = {{"bytes", nullptr}, {"source", "none"}, {"detail", "the module reports no cache"}};
        d["peak"] = {{"gb_per_s", nullptr},
                     {"source", "none"},
                     {"convention", nullptr},
                     {"datasheet_gb_per_s", nullptr},
                     {"runtime_clock_gb_per_s", nullptr},
                     {"card", nullptr},
                     {"partitioned", false},
                     {"disagreement", false},
                     {"note", "no peak known"}};
    }
    for (auto &r : set["results"])
        r["efficiency"] = nullptr;
    ASSERT_FALSE(vrb::validate_result_json(set).has_value());
    ScratchFolder folder("vrambench-nullable");
    EXPECT_EQ(read_by_every_command(set, base_document(), folder), "");
}

} // namespace
