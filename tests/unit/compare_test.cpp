#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using vrb::ComparedFigure;
using vrb::Comparison;
using vrb::DeviceMatch;

// Hand-made result sets: two nodes with two H200s each, and node a's first card
// measured again through Vulkan.
nlohmann::json fixture(const std::string &name)
{
    return vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/compare/" + name);
}

Comparison compare(const std::string &base, const std::string &other, DeviceMatch match)
{
    return vrb::compare_result_sets(fixture(base), base, fixture(other), other, match);
}

const ComparedFigure *find(const Comparison &c, const std::string &device, const std::string &probe,
                           const std::string &operation, const std::string &point = "")
{
    for (const auto &f : c.figures)
        if (f.base_device == device && f.probe == probe && f.parameters.value("operation", "") == operation &&
            f.point == point)
            return &f;
    return nullptr;
}

bool listed(const std::vector<std::string> &lines, const std::string &needle)
{
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string &line) { return line.find(needle) != std::string::npos; });
}

} // namespace

TEST(Compare, TheFixturesAreValidResultSets)
{
    for (const char *name : {"node-a.json", "node-b.json", "node-a-vulkan.json"}) {
        const auto violation = vrb::validate_result_json(fixture(name));
        EXPECT_FALSE(violation) << name << ": " << violation->path << ": " << violation->message;
    }
}

TEST(Compare, MatchingByCardLinesUpOneCardSeenThroughTwoApis)
{
    const Comparison c = compare("node-a.json", "node-a-vulkan.json", DeviceMatch::card);
    ASSERT_EQ(c.devices.size(), 1u);
    EXPECT_EQ(c.devices[0].base_id, "cuda:0");
    EXPECT_EQ(c.devices[0].other_id, "vulkan:0");
    EXPECT_EQ(c.devices[0].match, "pci:0000:19:00.0");
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->other_device, "vulkan:0");
    EXPECT_DOUBLE_EQ(*read->ratio, 3998.0 / 4002.0);
    EXPECT_TRUE(listed(c.only_in_base, "device cuda:1"));
}

TEST(Compare, MatchingByCardKeepsTwoHostsCardsApart)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::card);
    EXPECT_TRUE(c.devices.empty());
    EXPECT_TRUE(c.figures.empty());
    EXPECT_EQ(c.only_in_base.size(), 2u);
    EXPECT_EQ(c.only_in_other.size(), 2u);
}

TEST(Compare, MatchingByModelLinesUpTwoHostsCardsInTheOrderOfTheirKeys)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    ASSERT_EQ(c.devices.size(), 2u);
    EXPECT_EQ(c.devices[0].base_id, "cuda:0");
    EXPECT_EQ(c.devices[0].other_id, "cuda:0");
    EXPECT_EQ(c.devices[0].match, "10de:2335, 140.4 GiB");
    EXPECT_EQ(c.devices[1].base_id, "cuda:1");
    EXPECT_EQ(c.devices[1].other_id, "cuda:1");
}

TEST(Compare, AFigureMeasuredWithOtherRepetitionsIsStillTheSameFigure)
{
    // node b's stream read ran 10 repetitions, node a's 5: how, not what.
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->parameters.contains("repetitions"));
    EXPECT_EQ(read->parameters["array_bytes"], 1073741824);
}

TEST(Compare, AFigureThatRecordsItsPageSizeLinesUpWithOneOfASetWrittenBeforePageSizes)
{
    // Which pages the OS gave a run explains a figure; it does not make it another one.
    nlohmann::json other = fixture("node-b.json");
    for (auto &r : other.at("results"))
        r["parameters"]["page_bytes"] = 2097152;
    const Comparison c =
        vrb::compare_result_sets(fixture("node-a.json"), "node-a.json", other, "node-b.json", DeviceMatch::model);
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->parameters.contains("page_bytes"));
    const Comparison before = compare("node-a.json", "node-b.json", DeviceMatch::model);
    EXPECT_EQ(c.figures.size(), before.figures.size());
    EXPECT_EQ(c.only_in_other, before.only_in_other);
}

TEST(Compare, AFasterCardHasARatioAboveOneBeyondTheNoise)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_DOUBLE_EQ(*read->base, 4002.0);
    EXPECT_DOUBLE_EQ(*read->other, 4202.0);
    EXPECT_DOUBLE_EQ(*read->ratio, 4202.0 / 4002.0);
    EXPECT_FALSE(read->lower_is_better);
    EXPECT_EQ(read->test.verdict, vrb::RankTest::Verdict::beyond_noise);
    EXPECT_NEAR(*read->test.p, 2.0 / 252, 1e-12);
    const ComparedFigure *slow = find(c, "cuda:1", "bandwidth.stream", "read");
    ASSERT_TRUE(slow);
    EXPECT_LT(*slow->ratio, 1);
}

TEST(Compare, LatencyRatiosAreInvertedSoAboveOneIsBetter)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    const ComparedFigure *memory = find(c, "cuda:0", "latency.chase", "chase", "plateau memory");
    ASSERT_TRUE(memory);
    EXPECT_TRUE(memory->lower_is_better);
    EXPECT_DOUBLE_EQ(*memory->ratio, 601.0 / 661.0); // slower memory: below 1
    EXPECT_EQ(memory->kind, ComparedFigure::Kind::plateau);
    const ComparedFigure *l1 = find(c, "cuda:0", "latency.chase", "chase", "working_set_bytes 4 KiB");
    ASSERT_TRUE(l1);
    EXPECT_DOUBLE_EQ(*l1->ratio, 20.2 / 20.3);
    EXPECT_EQ(l1->kind, ComparedFigure::Kind::point);
    EXPECT_EQ(l1->test.verdict, vrb::RankTest::Verdict::within_noise); // 3 samples a side never reach p < 0.05
    EXPECT_TRUE(vrb::lower_is_better("time", "s"));
    EXPECT_TRUE(vrb::lower_is_better("other", "ns"));
    EXPECT_FALSE(vrb::lower_is_better("capacity", "bytes"));
}

TEST(Compare, RowsInOneFileOnlyAreListedNotDropped)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    EXPECT_TRUE(listed(c.only_in_base, "bandwidth.stream operation=triad")) << c.only_in_base.front();
    EXPECT_TRUE(listed(c.only_in_other, "bandwidth.stream operation=copy"));
    EXPECT_TRUE(listed(c.only_in_base, "at working_set_bytes 16 KiB"));
    EXPECT_TRUE(listed(c.only_in_other, "at working_set_bytes 32 KiB"));
    EXPECT_FALSE(find(c, "cuda:0", "bandwidth.stream", "triad"));
}

TEST(Compare, ASingleSampleIsTooFewForTheRankTest)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::model);
    const ComparedFigure *alloc = find(c, "cuda:0", "capacity.max-alloc", "largest-allocation");
    ASSERT_TRUE(alloc);
    EXPECT_DOUBLE_EQ(*alloc->ratio, 1.0);
    EXPECT_EQ(alloc->test.verdict, vrb::RankTest::Verdict::too_few_samples);
    EXPECT_FALSE(alloc->test.p);
}

TEST(Compare, TheGateNamesEveryFigureBelowItsRatio)
{
    const std::vector<Comparison> c{compare("node-a.json", "node-b.json", DeviceMatch::model)};
    const auto below = vrb::figures_below(c, 0.95);
    ASSERT_FALSE(below.empty());
    for (const ComparedFigure *f : below)
        EXPECT_LT(*f->ratio, 0.95);
    EXPECT_TRUE(
        std::any_of(below.begin(), below.end(), [](const ComparedFigure *f) { return f->base_device == "cuda:1"; }));
    EXPECT_TRUE(vrb::figures_below(c, 0.5).empty());
}

TEST(Compare, EveryFormatStatesTheTestAndKeepsTheRowsOfOneFile)
{
    const std::vector<Comparison> c{compare("node-a.json", "node-b.json", DeviceMatch::model)};
    const std::string text = vrb::compare_text(c);
    EXPECT_NE(text.find("Mann-Whitney U"), std::string::npos) << text;
    EXPECT_NE(text.find("only in BASE (node-a.json)"), std::string::npos) << text;
    EXPECT_NE(text.find("beyond noise"), std::string::npos) << text;
    EXPECT_NE(text.find("too few samples"), std::string::npos) << text;
    const std::string markdown = vrb::compare_markdown(c);
    EXPECT_NE(markdown.find("Mann-Whitney U"), std::string::npos);
    EXPECT_NE(markdown.find("| figure | base | other |"), std::string::npos);
    const std::string csv = vrb::compare_csv(c);
    EXPECT_NE(csv.find("only-in-other"), std::string::npos);
    EXPECT_NE(csv.find("mann-whitney-u exact"), std::string::npos);
    const nlohmann::json j = vrb::compare_json(c);
    EXPECT_EQ(j["test"]["name"], "two-sided Mann-Whitney U");
    EXPECT_EQ(j["comparisons"][0]["figures"].size(), c[0].figures.size());
}

TEST(Compare, AFigureThatFailedOnOneSideHasNoRatioAndCannotTripTheGate)
{
    auto other = fixture("node-b.json");
    for (auto &r : other["results"])
        if (r["device"] == "cuda:1") {
            r["value"] = nullptr;
            r["status"] = "failed";
            r["error"] = "the device was lost";
        }
    const std::vector<Comparison> c{
        vrb::compare_result_sets(fixture("node-a.json"), "a", other, "b", DeviceMatch::model)};
    const ComparedFigure *lost = find(c[0], "cuda:1", "bandwidth.stream", "read");
    ASSERT_TRUE(lost);
    EXPECT_FALSE(lost->ratio);
    EXPECT_NE(vrb::compare_text(c).find("no figure"), std::string::npos);
    for (const ComparedFigure *f : vrb::figures_below(c, 0.95))
        EXPECT_NE(f->base_device, "cuda:1");
}

TEST(Compare, OneCardSeenThroughTwoApisPairsWithTheSameApiFirst)
{
    // The base measured node a's first card through CUDA and Vulkan; the other file
    // only through Vulkan: Vulkan pairs with Vulkan, CUDA's figures are only in the base.
    auto base = fixture("node-a.json");
    const auto vulkan = fixture("node-a-vulkan.json");
    base["devices"].push_back(vulkan["devices"][0]);
    base["results"].push_back(vulkan["results"][0]);
    const Comparison c = vrb::compare_result_sets(base, "a", vulkan, "v", DeviceMatch::card);
    ASSERT_EQ(c.devices.size(), 1u);
    EXPECT_EQ(c.devices[0].base_id, "vulkan:0");
    EXPECT_EQ(c.devices[0].other_id, "vulkan:0");
    EXPECT_TRUE(listed(c.only_in_base, "device cuda:0"));
    const ComparedFigure *read = find(c, "vulkan:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_DOUBLE_EQ(*read->ratio, 1.0);
}

TEST(Compare, ChosenPairsLineUpDevicesThatShareNoCardByIdOrKey)
{
    const auto base = fixture("node-a.json"), other = fixture("node-b.json");
    ASSERT_TRUE(vrb::compare_result_sets(base, "a", other, "b", DeviceMatch::card).devices.empty());
    const std::string other_key = other["devices"][1]["key"];
    const Comparison c = vrb::compare_chosen_devices(
        base, "a", other, "b", {{"cuda:0", other["devices"][1]["id"]}, {base["devices"][1]["key"], "cuda:0"}});
    ASSERT_EQ(c.devices.size(), 2u);
    EXPECT_EQ(c.match, DeviceMatch::chosen);
    EXPECT_EQ(c.devices[0].base_id, "cuda:0");
    EXPECT_EQ(c.devices[0].other_id, other["devices"][1]["id"]);
    EXPECT_EQ(c.devices[1].base_id, base["devices"][1]["id"]);
    EXPECT_EQ(c.devices[1].other_id, "cuda:0");
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->other_device, other["devices"][1]["id"]);
    EXPECT_FALSE(vrb::nothing_compared({c}));
}

TEST(Compare, AChosenDeviceAFileDoesNotHoldIsNamedWithTheDevicesItHas)
{
    const auto base = fixture("node-a.json"), other = fixture("node-b.json");
    try {
        vrb::compare_chosen_devices(base, "a.json", other, "b.json", {{"cuda:0", "acme:7"}});
        FAIL() << "acme:7 is no device of b.json";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("b.json: --pair names device 'acme:7', which this file does not hold; "
                                             "its devices: cuda:0"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(vrb::compare_chosen_devices(base, "a", other, "b", {{"cuda:0", "cuda:0"}, {"cuda:1", "cuda:0"}}),
                 vrb::UsageError);
}

TEST(Compare, APairIsTwoDevicesAroundOneEqualsSign)
{
    const vrb::ChosenPair p = vrb::parse_chosen_pair("host:0=acme:0", "--pair");
    EXPECT_EQ(p.base, "host:0");
    EXPECT_EQ(p.other, "acme:0");
    for (const char *bad : {"host:0", "=acme:0", "host:0=", "a=b=c"}) {
        SCOPED_TRACE(bad);
        try {
            vrb::parse_chosen_pair(bad, "--pair");
            FAIL();
        } catch (const vrb::UsageError &e) {
            EXPECT_NE(std::string(e.what()).find("expected BASE_DEVICE=OTHER_DEVICE"), std::string::npos) << e.what();
        }
    }
}

TEST(Compare, NoMatchNamesPairAndReportAndNothingIsCompared)
{
    const Comparison c = compare("node-a.json", "node-b.json", DeviceMatch::card);
    EXPECT_TRUE(vrb::nothing_compared({c}));
    const std::string hint = vrb::no_match_hint(c);
    EXPECT_NE(hint.find("--pair cuda:0=cuda:0"), std::string::npos) << hint;
    EXPECT_NE(hint.find("`vrambench report node-a.json node-b.json`"), std::string::npos) << hint;
    EXPECT_NE(vrb::compare_text({c}).find(hint), std::string::npos);
}

TEST(Compare, ATransferWithoutAnEngineIsTheCopyEnginesAndPairsWithOneThatNamesIt)
{
    const nlohmann::json old_set = {{"probe", "bandwidth.transfer"},
                                    {"parameters", {{"direction", "device-to-device"}, {"repetitions", 5}}}};
    nlohmann::json by_engine = old_set, by_sms = old_set;
    by_engine["parameters"]["engine"] = "ce";
    by_sms["parameters"]["engine"] = "sm";
    EXPECT_EQ(vrb::identity_parameters(old_set), vrb::identity_parameters(by_engine));
    EXPECT_NE(vrb::identity_parameters(old_set), vrb::identity_parameters(by_sms));
    // Only a transfer's engine goes without saying.
    const nlohmann::json stream = {{"probe", "bandwidth.stream"}, {"parameters", {{"operation", "copy"}}}};
    EXPECT_FALSE(vrb::identity_parameters(stream).contains("engine"));
}

TEST(Compare, AHandMadePairLinesUpEachDevicesFiguresOnItsOwnDefaultKindAndNamesBoth)
{
    // The host's stream and chase run on pageable RAM, a module's on what it names "device".
    auto base = fixture("node-a.json");
    for (auto &r : base["results"])
        if (r["device"] == "cuda:0") {
            r["parameters"]["memory_kind"] = "pageable";
            if (r["parameters"].contains("array_bytes"))
                r["parameters"]["array_bytes"] = 2ull << 30; // its own rule's size
        }
    const auto other = fixture("node-b.json");
    const Comparison c = vrb::compare_chosen_devices(base, "host.json", other, "acme.json", {{"cuda:0", "cuda:0"}});
    const ComparedFigure *read = find(c, "cuda:0", "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->parameters.value("memory_kind", ""), "pageable / device");
    EXPECT_NE(read->parameters_text.find("memory_kind=pageable / device"), std::string::npos) << read->parameters_text;
    EXPECT_NE(read->parameters_text.find("array_bytes=2 GiB / 1 GiB"), std::string::npos) << read->parameters_text;
    const bool chase = std::any_of(c.figures.begin(), c.figures.end(),
                                   [](const ComparedFigure &f) { return f.probe == "latency.chase"; });
    EXPECT_TRUE(chase);
    // A capacity figure names the kind it was measured on: two kinds stay two things.
    EXPECT_TRUE(listed(c.only_in_base, "capacity.max-alloc"));
    // Matched by model, the kinds keep their figures apart as before.
    const Comparison by_model = vrb::compare_result_sets(base, "host.json", other, "acme.json", DeviceMatch::model);
    EXPECT_FALSE(find(by_model, "cuda:0", "bandwidth.stream", "read"));
}
