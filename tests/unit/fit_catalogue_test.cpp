// The catalogue's configs against the counts their authors publish: each computed count
// within 0.5%, one test per model, and every entry with its source.
#include <vrambench/core/fit/catalogue.hpp>

#include <gtest/gtest.h>

namespace {

using namespace vrb::fit;

void expect_published_count(const std::string &name)
{
    const CatalogueEntry *entry = find_catalogued(name);
    ASSERT_NE(entry, nullptr) << name << " is catalogued";
    const double computed = parameter_count(entry->model);
    EXPECT_NEAR(computed / entry->published_parameters, 1.0, 0.005)
        << name << ": computed " << computed << ", published " << entry->published_as << " (" << entry->published_source
        << ")";
    if (entry->published_active_parameters) {
        EXPECT_NEAR(active_parameter_count(entry->model) / *entry->published_active_parameters, 1.0, 0.005) << name;
    }
    EXPECT_FALSE(entry->source.empty());
    EXPECT_FALSE(entry->published_source.empty());
}

} // namespace

TEST(FitCatalogue, Llama7bCountsAsPublished)
{
    expect_published_count("llama-7b");
}
TEST(FitCatalogue, Llama13bCountsAsPublished)
{
    expect_published_count("llama-13b");
}
TEST(FitCatalogue, Llama33bCountsAsPublished)
{
    expect_published_count("llama-33b");
}
TEST(FitCatalogue, Llama65bCountsAsPublished)
{
    expect_published_count("llama-65b");
}
TEST(FitCatalogue, Llama2_70bCountsAsPublished)
{
    expect_published_count("llama-2-70b");
}
TEST(FitCatalogue, Llama3_8bCountsAsPublished)
{
    expect_published_count("llama-3-8b");
}
TEST(FitCatalogue, Llama3_70bCountsAsPublished)
{
    expect_published_count("llama-3-70b");
}
TEST(FitCatalogue, Llama3_1_405bCountsAsPublished)
{
    expect_published_count("llama-3.1-405b");
}
TEST(FitCatalogue, Mixtral8x7bCountsAsPublishedInAllAndAToken)
{
    expect_published_count("mixtral-8x7b");
}
TEST(FitCatalogue, Qwen2_5_72bCountsAsPublished)
{
    expect_published_count("qwen2.5-72b");
}

TEST(FitCatalogue, HoldsTheTenModelsEachWithItsShape)
{
    ASSERT_EQ(model_catalogue().size(), 10u);
    for (const auto &entry : model_catalogue()) {
        EXPECT_GT(entry.model.layers, 0) << entry.name;
        EXPECT_GT(entry.model.kv_heads, 0) << entry.name;
        EXPECT_TRUE(entry.model.context_tokens) << entry.name;
    }
    EXPECT_EQ(find_catalogued("gpt-5"), nullptr);
}

// The counts, worked by hand from the configs (the layer sums in docs/fit.md).
TEST(FitCatalogue, ExactCountsOfTheConfigs)
{
    EXPECT_EQ(parameter_count(find_catalogued("llama-7b")->model), 6738415616.0);
    EXPECT_EQ(parameter_count(find_catalogued("llama-2-70b")->model), 68976648192.0);
    EXPECT_EQ(parameter_count(find_catalogued("llama-3-8b")->model), 8030261248.0);
    EXPECT_EQ(parameter_count(find_catalogued("llama-3.1-405b")->model), 405853388800.0);
    EXPECT_EQ(parameter_count(find_catalogued("qwen2.5-72b")->model), 72706203648.0);
}
