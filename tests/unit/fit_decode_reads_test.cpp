// What a decode step reads, against hand computation: a mixture of experts reads the
// union of the experts its batch routes to, E (1 - (1 - k/E)^b); every model reads one
// row of its input embedding a sequence and its output head whole.
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <gtest/gtest.h>

namespace {

using namespace vrb::fit;

const Model &mixtral()
{
    return find_catalogued("mixtral-8x7b")->model;
}

double tensor_parameters(const Model &m, bool expert)
{
    double sum = 0;
    for (const Tensor &t : m.tensors)
        if (t.expert == expert) sum += t.parameters();
    return sum;
}

// A small Gemma-shaped config, its embedding tied or not.
Model small_model(bool tied)
{
    return model_from_config({{"model_type", "llama"},
                              {"hidden_size", 64},
                              {"num_hidden_layers", 2},
                              {"num_attention_heads", 4},
                              {"intermediate_size", 128},
                              {"vocab_size", 1000},
                              {"tie_word_embeddings", tied}},
                             "small.json");
}

} // namespace

// Top 2 of 8: a sequence misses an expert with chance 3/4; a batch of b misses it with
// 0.75^b. b 1: 8 x 0.25 = 2; b 4: 8 x (1 - 0.31640625) = 5.46875; b 32: 0.75^32 =
// 0.000100452, 8 x 0.999899548 = 7.999196.
TEST(FitDecodeReads, AMixtureReadsTheUnionOfTheExpertsItsBatchRoutesTo)
{
    EXPECT_DOUBLE_EQ(experts_read_per_layer(mixtral(), 1), 2.0);
    EXPECT_DOUBLE_EQ(experts_read_per_layer(mixtral(), 4), 5.46875);
    EXPECT_NEAR(experts_read_per_layer(mixtral(), 32), 7.999196, 1e-6);
    EXPECT_DOUBLE_EQ(experts_read_per_layer(find_catalogued("llama-3-8b")->model, 32), 1.0) << "a dense model";
    // The experts' share of the parameters a step reads at batch 4, the rest whole but
    // the input embedding's 32000 rows, of which 4 are read.
    const double dense = tensor_parameters(mixtral(), false) - (32000.0 - 4) * 4096;
    EXPECT_DOUBLE_EQ(parameters_read_per_step(mixtral(), 4), dense + tensor_parameters(mixtral(), true) * 5.46875 / 8);
}

// The issue's own figure: int8 weights, batch 32, context 4096 on 2039 GB/s reads 7.999
// of 8 experts a layer; 46.7e9 parameters less 31,968 embedding rows of 4096 (int8, 1 B
// each) and 32 x 4096 tokens of 131,072 B of fp16 KV cache: 63.75 GB a step, 1023.5
// tokens a second.
TEST(FitDecodeReads, MixtralAtBatch32ReadsAllButATenThousandthOfItsExperts)
{
    Workload w;
    w.dtype = DType::int8;
    w.kv_dtype = DType::fp16;
    w.batch = 32;
    w.context = 4096;
    const Answer a = fit_model(mixtral(), w, card_by_hand(200e9, 2039));
    EXPECT_NEAR(a.experts_read_per_layer / 7.999, 1.0, 0.001);
    const double weights = 46702792704.0 - 45097156608.0 * (1 - 7.999196380594235 / 8) - 31968.0 * 4096;
    EXPECT_NEAR(a.weight_bytes_read_per_step, weights, 1);
    EXPECT_NEAR(a.bytes_read_per_step, weights + 32.0 * 4096 * 131072, 1);
    EXPECT_NEAR(*a.decode_ceiling, 1023.5, 0.5);
    EXPECT_NE(fit_table(a).find("reads 7.999 of the 8 experts a layer: E (1 - (1 - k/E)^b) = 8 x (1 - (1 - 2/8)^32)"),
              std::string::npos)
        << fit_table(a);
}

// Untied, a step reads b rows of the embedding and the head whole; tied, the table is the
// head and is read whole.
TEST(FitDecodeReads, OnlyTheBatchsRowsOfAnUntiedInputEmbeddingAreRead)
{
    const Model untied = small_model(false), tied = small_model(true);
    EXPECT_EQ(parameter_count(untied) - parameter_count(tied), 1000.0 * 64) << "the head";
    EXPECT_EQ(parameters_read_per_step(untied, 1), parameter_count(untied) - 999.0 * 64);
    EXPECT_EQ(parameters_read_per_step(untied, 8), parameter_count(untied) - 992.0 * 64);
    EXPECT_EQ(parameters_read_per_step(untied, 5000), parameter_count(untied)) << "past the vocabulary, every row";
    EXPECT_EQ(parameters_read_per_step(tied, 1), parameter_count(tied));
    // Llama-3-8B: 128,256 rows of 4096; a step at batch 1 reads one, 1.05 GB less in fp16.
    const Model &llama3 = find_catalogued("llama-3-8b")->model;
    EXPECT_EQ(parameters_read_per_step(llama3, 1), parameter_count(llama3) - 128255.0 * 4096);
}

// The logits a runtime keeps, in fp32: the prompt's last position a sequence at
// inference, every position for training's loss.
TEST(FitDecodeReads, TheLogitsAreCountedInFp32)
{
    const Model &llama3 = find_catalogued("llama-3-8b")->model;
    Workload w;
    w.batch = 2;
    w.context = 1024;
    EXPECT_EQ(logit_bytes(llama3, w), 4.0 * 2 * 128256);
    w.mode = Mode::training;
    EXPECT_EQ(logit_bytes(llama3, w), 4.0 * 1024 * 2 * 128256);
    bool counted = false;
    for (const Part &p : memory_parts(llama3, w).parts)
        counted = counted || (p.name == "logits" && p.bytes == 4.0 * 1024 * 2 * 128256);
    EXPECT_TRUE(counted);
}
