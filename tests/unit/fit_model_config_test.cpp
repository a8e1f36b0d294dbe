// Hugging Face configs of each architecture read into a shape, and bad configs refused
// with a message that names the file and the field.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/model.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using namespace vrb::fit;
using nlohmann::json;

std::string refusal(const json &config)
{
    try {
        model_from_config(config, "config.json");
    } catch (const vrb::UsageError &e) {
        return e.what();
    }
    return "accepted";
}

json llama_like()
{
    return {{"model_type", "llama"},    {"hidden_size", 4096},
            {"num_hidden_layers", 32},  {"num_attention_heads", 32},
            {"num_key_value_heads", 8}, {"intermediate_size", 14336},
            {"vocab_size", 32000},      {"max_position_embeddings", 32768}};
}

} // namespace

// GPT-NeoX-20B: 44 layers of 12 h^2 + 9 h biases + 4 h norms, untied 50432 x 6144
// embeddings, a final norm: 20,554,567,680.
TEST(FitConfig, GptNeox20bCountsItsBiasesAndUntiedEmbeddings)
{
    const Model m = model_from_config({{"model_type", "gpt_neox"},
                                       {"hidden_size", 6144},
                                       {"num_hidden_layers", 44},
                                       {"num_attention_heads", 64},
                                       {"intermediate_size", 24576},
                                       {"vocab_size", 50432},
                                       {"tie_word_embeddings", false}},
                                      "gpt-neox-20b");
    EXPECT_EQ(parameter_count(m), 20554567680.0);
    EXPECT_EQ(m.kv_heads, 64);
}

// Falcon-7B: multi-query (one KV head), parallel attention, tied embeddings: 32 layers of
// h x 73 x 64 query-key-value, h^2 dense, 2 x h x 4h MLP and one norm (2h), 65024 x h
// embeddings once, ln_f: 6,921,720,704.
TEST(FitConfig, Falcon7bIsMultiQueryWithTiedEmbeddings)
{
    const Model m = model_from_config({{"model_type", "falcon"},
                                       {"hidden_size", 4544},
                                       {"num_hidden_layers", 32},
                                       {"num_attention_heads", 71},
                                       {"vocab_size", 65024},
                                       {"multi_query", true},
                                       {"parallel_attn", true},
                                       {"bias", false}},
                                      "falcon-7b");
    EXPECT_EQ(m.kv_heads, 1);
    EXPECT_EQ(m.head_dim, 64);
    EXPECT_EQ(parameter_count(m), 6921720704.0);
}

// Gemma-7B: head dim 256 given (16 heads of 3072 would be 192), embeddings tied by default.
TEST(FitConfig, GemmaTakesItsHeadDimAndTiesEmbeddings)
{
    const Model m = model_from_config({{"model_type", "gemma"},
                                       {"hidden_size", 3072},
                                       {"num_hidden_layers", 28},
                                       {"num_attention_heads", 16},
                                       {"num_key_value_heads", 16},
                                       {"head_dim", 256},
                                       {"intermediate_size", 24576},
                                       {"vocab_size", 256000}},
                                      "gemma-7b");
    EXPECT_EQ(m.head_dim, 256);
    EXPECT_TRUE(m.tied_embeddings);
    // Per layer: q, k, v, o 4 x 3072 x 4096, MLP 3 x 3072 x 24576, 2 norms; embeddings once.
    const double layer = 4.0 * 3072 * 4096 + 3.0 * 3072 * 24576 + 2 * 3072;
    EXPECT_EQ(parameter_count(m), 28 * layer + 256000.0 * 3072 + 3072);
    EXPECT_NEAR(parameter_count(m) / 8.54e9, 1.0, 0.005); // Gemma's report: 8.54B
}

// Qwen2 adds biases to q, k and v; Mistral is Llama's shape.
TEST(FitConfig, Qwen2CountsItsQueryKeyValueBiases)
{
    json qwen = llama_like();
    qwen["model_type"] = "qwen2";
    json mistral = llama_like();
    mistral["model_type"] = "mistral";
    EXPECT_EQ(parameter_count(model_from_config(qwen, "q")) - parameter_count(model_from_config(mistral, "m")),
              32 * (4096.0 + 2 * 1024));
}

TEST(FitConfig, RefusesAnUnknownArchitectureNamingIt)
{
    json c = llama_like();
    c["model_type"] = "mamba";
    EXPECT_NE(refusal(c).find("unknown architecture (model_type 'mamba')"), std::string::npos) << refusal(c);
    c.erase("model_type");
    EXPECT_NE(refusal(c).find("'model_type' is missing"), std::string::npos) << refusal(c);
}

TEST(FitConfig, RefusesAMissingFieldNamingIt)
{
    json c = llama_like();
    c.erase("hidden_size");
    EXPECT_NE(refusal(c).find("config.json: field 'hidden_size' is missing"), std::string::npos) << refusal(c);
    c = llama_like();
    c["model_type"] = "mixtral";
    EXPECT_NE(refusal(c).find("'num_local_experts' is missing"), std::string::npos) << refusal(c);
}

TEST(FitConfig, RefusesZeroNegativeFractionalAndTextSizes)
{
    for (const json &bad : {json(0), json(-4096), json(4096.5), json("4096"), json(true)}) {
        json c = llama_like();
        c["hidden_size"] = bad;
        EXPECT_NE(refusal(c).find("field 'hidden_size' is " + bad.dump() + ", expected a positive whole number"),
                  std::string::npos)
            << refusal(c);
    }
}

TEST(FitConfig, RefusesAbsurdSizes)
{
    json c = llama_like();
    c["num_hidden_layers"] = 1e9;
    EXPECT_NE(refusal(c).find("not taken for a model"), std::string::npos) << refusal(c);
    // Each field plausible, the whole past 10^14 parameters.
    c = llama_like();
    c["hidden_size"] = 1 << 20;
    c["intermediate_size"] = 1 << 24;
    c["num_hidden_layers"] = 10000;
    EXPECT_NE(refusal(c).find("parameters, past the 1e+14"), std::string::npos) << refusal(c);
}

// A context past 2^31 is refused by the field that gives it, not by --context, which
// was never given.
TEST(FitConfig, RefusesAnAbsurdMaxPositionEmbeddingsByItsName)
{
    json c = llama_like();
    c["max_position_embeddings"] = 1e12;
    EXPECT_NE(refusal(c).find("field 'max_position_embeddings' is 1000000000000.0, past the 2.14748e+09"),
              std::string::npos)
        << refusal(c);
    c["max_position_embeddings"] = double(1ull << 31);
    EXPECT_EQ(model_from_config(c, "config.json").context_tokens, double(1ull << 31));
}

TEST(FitConfig, RefusesAShapeThatContradictsItself)
{
    json c = llama_like();
    c["num_key_value_heads"] = 5;
    EXPECT_NE(refusal(c).find("5 key-value heads do not divide the 32"), std::string::npos) << refusal(c);
    c = llama_like();
    c["num_attention_heads"] = 30;
    c["num_key_value_heads"] = 30;
    EXPECT_NE(refusal(c).find("does not split evenly over 30"), std::string::npos) << refusal(c);
}

TEST(FitConfig, RefusesATruncatedOrMalformedFileNamingIt)
{
    const auto dir = std::filesystem::temp_directory_path() / ("vrb-fit-config-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string text = llama_like().dump();
    std::ofstream(dir / "truncated.json") << text.substr(0, text.size() / 2);
    try {
        model_from_config_file(dir / "truncated.json");
        ADD_FAILURE() << "a truncated config was accepted";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("truncated.json: not a whole JSON document"), std::string::npos)
            << e.what();
    }
    std::ofstream(dir / "config.json") << text;
    EXPECT_EQ(model_from_config_file(dir).hidden, 4096) << "a folder holding config.json is read";
    EXPECT_THROW(model_from_config_file(dir / "missing.json"), vrb::UsageError);
    std::filesystem::remove_all(dir);
}

TEST(FitModel, ParameterCountsReadWithTheirSuffixes)
{
    EXPECT_EQ(parse_parameter_count("65B"), 65e9);
    EXPECT_EQ(parse_parameter_count("6.7b"), 6.7e9);
    EXPECT_EQ(parse_parameter_count("350M"), 350e6);
    EXPECT_EQ(parse_parameter_count("1.5T"), 1.5e12);
    EXPECT_EQ(parse_parameter_count("7e9"), 7e9);
    for (const char *bad : {"", "B", "0", "-7B", "65X", "1e15", "1000T", "nanB"})
        EXPECT_THROW(parse_parameter_count(bad), vrb::UsageError) << bad;
}

TEST(FitModel, ABareCountTakesItsShapeFromFlags)
{
    const Model m = model_from_count("65B", {80, 8192, 64, 8, 0});
    EXPECT_EQ(parameter_count(m), 65e9);
    EXPECT_EQ(m.head_dim, 128);
    EXPECT_EQ(m.kv_heads, 8);
    // --layers and --hidden alone: keys and values as wide as the hidden size.
    const Model mha = model_from_count("65B", {80, 8192, 0, 0, 0});
    EXPECT_EQ(mha.kv_heads * mha.head_dim, 8192);
    EXPECT_THROW(model_from_count("65B", {80, 0, 0, 0, 0}), vrb::UsageError);
    EXPECT_THROW(model_from_count("65B", {80, 8192, 0, 8, 0}), vrb::UsageError);
    EXPECT_THROW(model_from_count("65B", {-1, 8192, 0, 0, 0}), vrb::UsageError);
    EXPECT_THROW(resolve_model("llama-65b", {80, 8192, 0, 0, 0}), vrb::UsageError);
    // A head dim alone cannot say how many heads share the KV cache.
    try {
        model_from_count("65B", {80, 8192, 0, 0, 128});
        ADD_FAILURE() << "--head-dim without --heads was accepted";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("--head-dim needs --heads or --kv-heads"), std::string::npos) << e.what();
    }
    EXPECT_EQ(model_from_count("65B", {80, 8192, 0, 8, 128}).kv_heads, 8) << "with --kv-heads it is whole";
    EXPECT_THROW(resolve_model("no-such-model", {}), vrb::UsageError);
}
