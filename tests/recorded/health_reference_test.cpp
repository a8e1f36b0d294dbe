// Reference files are checked when read, and every refusal names the line; references
// made from result sets are the median of the model's figures, with the sets named.
#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using vrb::health::parse_reference_text;

fs::path health_data(const std::string &name)
{
    return fs::path(VRAMBENCH_TEST_DATA) / "health" / name;
}

std::string health_text_of(const fs::path &file)
{
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The valid file with one line replaced, as a person might mistype it.
std::string with_line(const std::string &from, const std::string &to)
{
    std::string text = health_text_of(health_data("reference-h200.json"));
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

std::string refusal_of(const std::string &text)
{
    try {
        parse_reference_text(text, "refs.json");
    } catch (const vrb::UsageError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(HealthReference, AFileWithATenfoldTypoIsRefusedNamingItsLine)
{
    try {
        vrb::health::read_reference_file(health_data("reference-typo.json"));
        FAIL() << "a triad of 41500 GB/s on an H200 was taken";
    } catch (const vrb::UsageError &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("reference-typo.json:11: reference 1 field 'value': 41500 GB/s is above the datasheet "
                            "peak of 4800 GB/s"),
                  std::string::npos)
            << what;
    }
}

TEST(HealthReference, AFigureUnderATenthOfThePeakIsRefusedNamingItsLine)
{
    const std::string why = refusal_of(with_line("\"value\": 4150,", "\"value\": 415,"));
    EXPECT_NE(why.find("refs.json:11: reference 1 field 'value': 415 GB/s is below a tenth"), std::string::npos) << why;
    const std::string floor = refusal_of(with_line("\"floor\": 3000,", "\"floor\": 300,"));
    EXPECT_NE(floor.find("refs.json:20: reference 2 field 'floor': 300 GB/s is below a tenth"), std::string::npos)
        << floor;
}

TEST(HealthReference, AUnitThatIsNotTheProbesIsRefusedNamingItsLine)
{
    const std::string why =
        refusal_of(with_line("\"unit\": \"GB/s\",\n      \"value\": 4150", "\"unit\": \"ns\",\n      \"value\": 4150"));
    EXPECT_NE(why.find("refs.json:10: reference 1 field 'unit': 'ns' does not match bandwidth.stream, whose figures "
                       "are in GB/s"),
              std::string::npos)
        << why;
}

TEST(HealthReference, AnUnknownCardKeyIsRefusedNamingItsLine)
{
    const std::string unknown = refusal_of(with_line(
        "\"card\": \"10de:2335, 140.4 GiB\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"copy\"",
        "\"card\": \"10de:9999, 80 GiB\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"copy\""));
    EXPECT_NE(unknown.find("refs.json:15: reference 2 field 'card': '10de:9999, 80 GiB' is not a card of the device "
                           "table: PCI id 10de:9999 is not in the device table"),
              std::string::npos)
        << unknown;
    const std::string wrong_memory = refusal_of(with_line(
        "\"card\": \"10de:2335, 140.4 GiB\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"triad\"",
        "\"card\": \"10de:2335, 40 GiB\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"triad\""));
    EXPECT_NE(wrong_memory.find("refs.json:6: reference 1 field 'card'"), std::string::npos) << wrong_memory;
    const std::string no_form = refusal_of(with_line(
        "\"card\": \"10de:2335, 140.4 GiB\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"triad\"",
        "\"card\": \"NVIDIA H200\",\n      \"probe\": \"bandwidth.stream\",\n      \"operation\": \"triad\""));
    EXPECT_NE(no_form.find("refs.json:6: reference 1 field 'card': 'NVIDIA H200' is not a card of the device table: "
                           "not a card key"),
              std::string::npos)
        << no_form;
}

TEST(HealthReference, MisspelledMissingAndRepeatedFieldsAreRefusedNamingTheLine)
{
    const std::string typo = refusal_of(with_line("\"value\": 53,", "\"vaule\": 53,"));
    EXPECT_NE(typo.find("refs.json:28: reference 3 field 'vaule': is not a field of a reference"), std::string::npos)
        << typo;
    const std::string no_source = refusal_of(with_line(",\n      \"source\": \"tests/data/health/published\"\n", "\n"));
    EXPECT_NE(no_source.find("refs.json:23: reference 3: field 'source' is missing"), std::string::npos) << no_source;
    const std::string twice = refusal_of(with_line("\"operation\": \"copy\"", "\"operation\": \"triad\""));
    EXPECT_NE(twice.find("refs.json:14: reference 2: bandwidth.stream triad (16 B) for 10de:2335, 140.4 GiB is given "
                         "already on line 5"),
              std::string::npos)
        << twice;
    const std::string stream_op = refusal_of(with_line("\"operation\": \"copy\"", "\"operation\": \"memcpy\""));
    EXPECT_NE(stream_op.find("refs.json:17: reference 2 field 'operation': 'memcpy' is not a stream operation"),
              std::string::npos)
        << stream_op;
    const std::string cut = refusal_of(with_line("\"value\": 53,", "\"value\": 53,,"));
    EXPECT_NE(cut.find("refs.json:28: not a whole JSON document"), std::string::npos) << cut;
}

TEST(HealthReference, AValidFileGivesEachFigureWithItsSourceAndLine)
{
    const auto refs = vrb::health::read_reference_file(health_data("reference-h200.json"));
    ASSERT_EQ(refs.entries.size(), 3u);
    EXPECT_EQ(refs.entries[0].line, 5u);
    EXPECT_EQ(refs.entries[0].figure.operation, "triad");
    EXPECT_EQ(refs.entries[0].figure.element_bytes, 16u);
    EXPECT_EQ(*refs.entries[0].value, 4150);
    EXPECT_EQ(*refs.entries[1].floor, 3000);
    EXPECT_NE(refs.entries[1].source.find("floor set by hand"), std::string::npos);
    EXPECT_EQ(refs.entries[2].figure.probe, "bandwidth.transfer");
    EXPECT_EQ(std::string(refs.entries[2].card.spec->name), "NVIDIA H200 SXM 141GB");
}

TEST(HealthReference, TheHandMadeReferenceFilesMatchTheirSchema)
{
    const auto schema_json =
        nlohmann::json::parse(std::ifstream(fs::path(VRAMBENCH_RESULTS_DIR) / "schema" / "reference-v1.schema.json"));
    valijson::Schema schema;
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter schema_adapter(schema_json);
    parser.populateSchema(schema_adapter, schema);
    for (const char *name : {"reference-h200.json", "reference-typo.json"}) {
        const auto document = nlohmann::json::parse(std::ifstream(health_data(name)));
        valijson::Validator validator;
        valijson::adapters::NlohmannJsonAdapter adapter(document);
        EXPECT_TRUE(validator.validate(schema, adapter, nullptr)) << name;
    }
    // The schema refuses what the reader refuses for want of a field.
    auto no_source = nlohmann::json::parse(std::ifstream(health_data("reference-h200.json")));
    no_source["references"][0].erase("source");
    valijson::Validator validator;
    valijson::adapters::NlohmannJsonAdapter adapter(no_source);
    EXPECT_FALSE(validator.validate(schema, adapter, nullptr));
}

TEST(HealthReference, ReferencesFromSetsAreTheMedianOfTheModelsFiguresWithTheSetsNamed)
{
    const auto refs = vrb::health::read_references(health_data("published"));
    vrb::health::FigureKey triad{"bandwidth.stream", "triad", 16};
    const auto card = vrb::health::card_model_of_key("10de:2335, 140.4 GiB");
    const auto r = refs.find(card, triad);
    ASSERT_TRUE(r);
    // 4150 x 0.98, 1.0, 1.01, 1.03: the median is of the middle two.
    EXPECT_NEAR(*r->value, 4150 * 1.005, 0.01);
    EXPECT_EQ(r->members.size(), 4u);
    EXPECT_NE(r->source.find("the median of 4 figures"), std::string::npos) << r->source;
    EXPECT_NE(r->source.find("h200-a.json (run pub000000000000)"), std::string::npos) << r->source;
    EXPECT_FALSE(refs.find(card, {"bandwidth.stream", "triad", 8})) << "another width is another figure";
}

TEST(HealthReference, ASetIsNotItsOwnReference)
{
    const auto slow = vrb::health::read_valid_result_set(health_data("slow.json"));
    const auto refs = vrb::health::references_from_sets({slow});
    const auto card = vrb::health::card_model_of_key("10de:2335, 140.4 GiB");
    const vrb::health::FigureKey read{"bandwidth.stream", "read", 16};
    EXPECT_TRUE(refs.find(card, read));
    const vrb::health::SetIdentity itself = vrb::health::identity_of(slow.set);
    EXPECT_FALSE(refs.find(card, read, &itself));
}

TEST(HealthReference, ALatencyCeilingAboveItsReferenceIsAcceptedAndOneBelowItRefused)
{
    const auto text = [](int ceiling) {
        return fmt::format(R"({{"schema_version": 1, "references": [
  {{"card": "10de:2335, 140.4 GiB", "probe": "latency.chase", "unit": "ns", "value": 335, "floor": {},
   "source": "results/nvidia-h200-cuda/standard.json"}}]}})",
                           ceiling);
    };
    const auto refs = parse_reference_text(text(420), "refs.json");
    ASSERT_EQ(refs.entries.size(), 1u);
    EXPECT_EQ(*refs.entries[0].floor, 420);
    const std::string refused = refusal_of(text(300));
    EXPECT_NE(refused.find("refs.json:2: reference 1 field 'floor': 300, a ceiling for latency.chase, is below the "
                           "reference value 335"),
              std::string::npos)
        << refused;
}

TEST(HealthReference, ADeviceWithoutPciIdsIsNoCardModelAndGivesNoReference)
{
    // The host and lavapipe of a published set: keyed "AMD EPYC, 23.5 GiB", which VMs of
    // three CPU generations share.
    const auto set =
        vrb::health::read_valid_result_set(fs::path(VRAMBENCH_RESULTS_DIR) / "ci-vm-epyc-zen5-2vcpu" / "standard.json");
    EXPECT_TRUE(vrb::health::references_from_sets({set}).entries.empty());
}

TEST(HealthReference, ThePublishedFolderIsTheSourceTreesResultsUnlessTheEnvironmentNamesAnother)
{
    const char *was = std::getenv("VRAMBENCH_RESULTS");
    const std::string saved = was ? was : "";
    ::unsetenv("VRAMBENCH_RESULTS");
    const auto found = vrb::health::published_results_folder();
    ASSERT_TRUE(found.has_value()) << "walking up from the test program finds the source tree's results/";
    EXPECT_TRUE(fs::equivalent(*found, VRAMBENCH_RESULTS_DIR)) << found->string();
    ::setenv("VRAMBENCH_RESULTS", "/srv/fleet-references", 1);
    EXPECT_EQ(vrb::health::published_results_folder(), fs::path("/srv/fleet-references"));
    ::setenv("VRAMBENCH_RESULTS", "", 1);
    EXPECT_FALSE(vrb::health::published_results_folder().has_value());
    if (was)
        ::setenv("VRAMBENCH_RESULTS", saved.c_str(), 1);
    else
        ::unsetenv("VRAMBENCH_RESULTS");
}
