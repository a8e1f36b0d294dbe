// Each of fit's formulas against figures worked by hand (docs/fit.md): LLaMA-65B's
// parameters, weights and KV cache, the training states of mixed-precision Adam, the
// activations of Korthikanti et al., and the decode ceiling.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace vrb::fit;

const Model &llama65b()
{
    return find_catalogued("llama-65b")->model;
}

double part(const std::vector<Part> &parts, const std::string &name)
{
    for (const Part &p : parts)
        if (p.name == name) return p.bytes;
    ADD_FAILURE() << "no part " << name;
    return -1;
}

Workload inference(DType dtype, double context)
{
    Workload w;
    w.dtype = dtype;
    w.kv_dtype = DType::fp16;
    w.context = context;
    return w;
}

} // namespace

// 80 layers x (4 x 8192^2 attention + 3 x 8192 x 22016 MLP + 2 x 8192 norms)
// + 2 x 32000 x 8192 (embeddings and head) + 8192 (final norm).
TEST(FitFormulas, Llama65bHas65Point2BillionParameters)
{
    EXPECT_EQ(parameter_count(llama65b()), 65285660672.0);
    EXPECT_NEAR(parameter_count(llama65b()) / 65.2e9, 1.0, 0.005);
}

TEST(FitFormulas, Llama65bWeights130GBInFp16)
{
    const Parts parts = memory_parts(llama65b(), inference(DType::fp16, 2048));
    EXPECT_EQ(part(parts.parts, "weights"), 130571321344.0);
    EXPECT_EQ(part(memory_parts(llama65b(), inference(DType::int8, 2048)).parts, "weights"), 65285660672.0);
}

// 2 x 80 layers x 64 KV heads x 128 head dim x 2 bytes = 2,621,440 bytes: 2.6 MB a token.
TEST(FitFormulas, Llama65bKvCacheIs2Point6MBATokenInFp16)
{
    EXPECT_EQ(kv_cache_bytes_per_token(llama65b(), DType::fp16), 2621440.0);
    const Parts parts = memory_parts(llama65b(), inference(DType::fp16, 2048));
    EXPECT_EQ(part(parts.parts, "kv_cache"), 2621440.0 * 2048);
}

// Grouped keys and values: LLaMA-2-70B keeps 8 KV heads of its 64, a token 320 KiB in fp16.
TEST(FitFormulas, GroupedKeyValueHeadsShrinkTheKvCache)
{
    EXPECT_EQ(kv_cache_bytes_per_token(find_catalogued("llama-2-70b")->model, DType::fp16), 2.0 * 80 * 8 * 128 * 2);
    EXPECT_EQ(kv_cache_bytes_per_token(llama65b(), DType::int8), 2621440.0 / 2);
}

// 0.5 B for the value and one fp16 scale a group of 128: 0.515625 B a weight.
TEST(FitFormulas, Int4WeightsCarryTheirGroupScales)
{
    EXPECT_DOUBLE_EQ(bytes_per_weight(DType::int4), 0.515625);
    EXPECT_EQ(bytes_per_weight(DType::fp8), 1.0);
    EXPECT_EQ(bytes_per_weight(DType::bf16), 2.0);
    EXPECT_EQ(bytes_per_weight(DType::fp32), 4.0);
}

// fp16 weights 2 + fp16 gradients 2 + fp32 master 4 + fp32 momentum and variance 8.
TEST(FitFormulas, MixedPrecisionAdamTrainingTakes16BytesAParameter)
{
    Workload w = inference(DType::fp16, 2048);
    w.mode = Mode::training;
    w.optimizer = Optimizer::adam;
    const Parts parts = memory_parts(llama65b(), w);
    const double states = part(parts.parts, "weights") + part(parts.parts, "gradients") +
                          part(parts.parts, "master_weights") + part(parts.parts, "optimizer_states");
    EXPECT_EQ(states / parameter_count(llama65b()), 16.0);
}

// The searches for the largest context and batch ask for the bytes alone; they must be
// the bytes the answer shows, part by part.
TEST(FitFormulas, PartsWithoutFormulasKeepEveryByteAndEveryUnknown)
{
    Workload training = inference(DType::bf16, 4096);
    training.mode = Mode::training;
    training.batch = 8;
    Model bare;
    bare.stated_parameters = 7e9;
    for (const auto &[model, w] : std::vector<std::pair<Model, Workload>>{{llama65b(), inference(DType::fp16, 2048)},
                                                                          {llama65b(), inference(DType::int4, 8192)},
                                                                          {llama65b(), training},
                                                                          {bare, inference(DType::fp16, 2048)}}) {
        const Parts written = memory_parts(model, w), bytes = memory_parts(model, w, Formulas::left_out);
        ASSERT_EQ(written.parts.size(), bytes.parts.size());
        for (std::size_t i = 0; i < written.parts.size(); ++i) {
            EXPECT_EQ(bytes.parts[i].name, written.parts[i].name);
            EXPECT_EQ(bytes.parts[i].bytes, written.parts[i].bytes) << written.parts[i].name;
            EXPECT_EQ(bytes.parts[i].comes_and_goes, written.parts[i].comes_and_goes);
            EXPECT_FALSE(written.parts[i].formula.empty()) << written.parts[i].name;
            EXPECT_TRUE(bytes.parts[i].formula.empty()) << written.parts[i].name;
        }
        EXPECT_EQ(bytes.unknown, written.unknown);
    }
}

TEST(FitFormulas, EachOptimizerKeepsItsOwnStates)
{
    const Model &m = llama65b();
    const double p = parameter_count(m);
    EXPECT_EQ(optimizer_state_bytes(m, Optimizer::adamw), 8 * p);
    EXPECT_EQ(optimizer_state_bytes(m, Optimizer::sgd), 4 * p);
    EXPECT_DOUBLE_EQ(optimizer_state_bytes(m, Optimizer::adam_8bit), 2 * p + 8 * p / 2048);
    // Adafactor: a row and a column accumulator for each matrix, the whole vector for the
    // norms: embeddings and head 2 x (32000 + 8192), per layer 4 x (8192 + 8192) attention,
    // 3 x (8192 + 22016) MLP, 2 x 8192 norms; the final norm 8192; 4 bytes each.
    const double adafactor = 4 * (2 * (32000 + 8192) + 80 * (4 * 16384 + 3 * 30208 + 2 * 8192) + 8192);
    EXPECT_EQ(optimizer_state_bytes(m, Optimizer::adafactor), adafactor);
    // fp32 training keeps no master copy: 4 + 4 + 8.
    Workload w = inference(DType::fp32, 2048);
    w.mode = Mode::training;
    const Parts parts = memory_parts(m, w);
    for (const Part &x : parts.parts)
        EXPECT_NE(x.name, "master_weights");
    EXPECT_EQ(part(parts.parts, "gradients"), 4 * p);
}

// Korthikanti et al. 2022: a layer keeps s b h (34 + 5 a s / h) bytes with eager
// attention, 34 s b h with FlashAttention (no a s^2 scores); with full recomputation only
// its 2 s b h input, and one layer is rebuilt at a time. LLaMA-65B, s 2048, b 1:
// 34 sbh = 570,425,344, 5 a s^2 b = 1,342,177,280.
TEST(FitFormulas, ActivationsFollowKorthikantiWithAndWithoutRecomputation)
{
    Workload w = inference(DType::fp16, 2048);
    EXPECT_EQ(activation_bytes(llama65b(), w), 570425344.0);
    w.mode = Mode::training;
    EXPECT_EQ(activation_bytes(llama65b(), w), 80 * 570425344.0) << "memory-efficient attention by default";
    w.attention = Attention::eager;
    EXPECT_EQ(activation_bytes(llama65b(), w), 80 * (570425344.0 + 1342177280.0));
    w.checkpointing = true;
    EXPECT_EQ(activation_bytes(llama65b(), w), 80 * 2 * 2048.0 * 8192 + 570425344.0 + 1342177280.0);
    w.batch = 2;
    EXPECT_EQ(activation_bytes(llama65b(), w), 2 * (80 * 2 * 2048.0 * 8192 + 570425344.0 + 1342177280.0));
    w.attention = Attention::memory_efficient;
    EXPECT_EQ(activation_bytes(llama65b(), w), 2 * (80 * 2 * 2048.0 * 8192 + 570425344.0));
    w.checkpointing = false;
    const Parts parts = memory_parts(llama65b(), w);
    for (const Part &p : parts.parts)
        if (p.name == "activations") {
            EXPECT_NE(p.formula.find("Korthikanti et al. with FlashAttention"), std::string::npos) << p.formula;
            EXPECT_EQ(p.formula.find("5 a s^2 b"), std::string::npos) << p.formula;
        }
}

// A practitioner's training run: the context at most 4096 (Qwen2.5-72B names 131072),
// FlashAttention. By hand: 16 B x 72.7e9 (mixed-precision AdamW) + 34 s h L with
// s 4096, h 8192, L 80 = 1.163e12 + 0.0912e12 = 1.254e12 B.
TEST(FitFormulas, TrainingQwen72bDefaultsToA4096ContextAndNoScores)
{
    const Model &qwen = find_catalogued("qwen2.5-72b")->model;
    Workload w;
    w.mode = Mode::training;
    w = complete_workload(w, qwen, false, false);
    EXPECT_EQ(w.context, 4096);
    EXPECT_NE(w.context_rule.find("the smaller of the model's 131072 and 4096"), std::string::npos) << w.context_rule;
    const Answer a = fit_model(qwen, w, card_by_hand(80.0 * (1ull << 30), 0));
    const double by_hand = 16 * 72.7e9 + 34.0 * 4096 * 8192 * 80;
    EXPECT_NEAR(by_hand, 1.25e12, 0.01e12);
    EXPECT_NEAR(a.total_bytes / by_hand, 1.0, 0.25);
    EXPECT_FALSE(a.decode_ceiling) << "training has none";
    EXPECT_NE(fit_table(a).find("training's default"), std::string::npos);
    // Inference keeps the model's own context.
    EXPECT_EQ(complete_workload(Workload{}, qwen, false, false).context, 131072);
}

TEST(FitFormulas, EagerAttentionWithoutHeadsIsRefused)
{
    Workload w;
    w.mode = Mode::training;
    const Model count = model_from_count("1B", ShapeOptions{16, 2048, 0, 0, 0});
    EXPECT_NO_THROW(fit_model(count, w, card_by_hand(80e9, 0)));
    w.attention = Attention::eager;
    EXPECT_THROW(fit_model(count, w, card_by_hand(80e9, 0)), vrb::UsageError);
    EXPECT_THROW(parse_attention("sdpa-ish"), vrb::UsageError);
    EXPECT_EQ(parse_attention("eager"), Attention::eager);
}

// A decode step reads every weight once but the embedding's 31,999 rows no token
// asks for (2 B x 8192 each), and the whole KV cache:
// 2039e9 / (130,571,321,344 - 524,271,616 + 2048 x 2,621,440) = 15.06 tokens/s.
TEST(FitFormulas, DecodeCeilingIsReadBandwidthOverBytesATokenReads)
{
    const Answer a = fit_model(llama65b(), inference(DType::fp16, 2048), card_by_hand(80.0 * (1ull << 30), 2039));
    EXPECT_EQ(a.bytes_read_per_step, 130571321344.0 - 524271616.0 + 2048 * 2621440.0);
    EXPECT_NEAR(*a.decode_ceiling, 2039e9 / (130571321344.0 - 524271616.0 + 2048 * 2621440.0), 1e-9);
    EXPECT_NEAR(*a.decode_ceiling, 15.06, 0.01);
    EXPECT_FALSE(a.host_decode_ceiling) << "no host RAM figure is given by hand";
}

// A mixture of experts keeps every expert resident and reads two of eight a token.
TEST(FitFormulas, MixtralKeepsEveryExpertAndReadsTwoAToken)
{
    const Model &m = find_catalogued("mixtral-8x7b")->model;
    EXPECT_EQ(parameter_count(m), 46702792704.0);
    EXPECT_EQ(active_parameter_count(m), 12879925248.0);
    const Answer a = fit_model(m, inference(DType::fp16, 1), card_by_hand(200.0 * (1ull << 30), 1000));
    EXPECT_EQ(part(a.parts, "weights"), 2 * 46702792704.0);
    EXPECT_EQ(a.bytes_read_per_step, 2 * (12879925248.0 - 31999.0 * 4096) + kv_cache_bytes_per_token(m, DType::fp16));
}

// 130.6 GB of weights, 5.4 GB of KV cache, 0.57 GB of activations and 128 kB of fp32
// logits: 127.14 GiB of 80.
TEST(Fit, ALlama65bInFp16DoesNotFitIn80GiB)
{
    const Answer a = fit_model(llama65b(), inference(DType::fp16, 2048), card_by_hand(80.0 * (1ull << 30), 2039));
    EXPECT_FALSE(a.fits);
    EXPECT_EQ(a.total_bytes, 130571321344.0 + 5368709120.0 + 570425344.0 + 4 * 32000.0);
    EXPECT_NEAR((a.total_bytes - a.available_bytes) / (1ull << 30), 47.14, 0.01);
    ASSERT_EQ(a.reasons.size(), 1u);
    EXPECT_NE(a.reasons[0].find("47.14 GiB short"), std::string::npos) << a.reasons[0];
    EXPECT_EQ(*a.max_context_tokens, 0);
    EXPECT_EQ(*a.cards_needed, 2);
}

// In int8 the weights leave 80 GiB - 65,285,660,672 B = 20,613,685,248 B, and a token
// takes 2,621,440 B of KV cache and 34 x 8192 B of activations: 7108 tokens.
TEST(Fit, ALlama65bInInt8FitsIn80GiBAndLeaves7108TokensOfContext)
{
    const Answer a = fit_model(llama65b(), inference(DType::int8, 2048), card_by_hand(80.0 * (1ull << 30), 2039));
    EXPECT_TRUE(a.fits);
    EXPECT_EQ(*a.max_context_tokens, 7108);
    EXPECT_EQ(*a.max_batch, 3); // 3 x 2048 tokens of 2,899,968 B fit in 20.6 GB, 4 do not
    EXPECT_EQ(*a.cards_needed, 1);
}

// 16 B x 65.29e9 + 80 layers of 34 sbh at context 2048 + 4 s V of fp32 logits:
// 1015.6 GiB, 13 cards of 80; eager attention keeps 80 x 5 a s^2 b more: 14.
TEST(Fit, TrainingLlama65bWithAdamNeeds13CardsOf80GiB)
{
    Workload w = inference(DType::fp16, 2048);
    w.mode = Mode::training;
    w.optimizer = Optimizer::adam;
    const Answer a = fit_model(llama65b(), w, card_by_hand(80.0 * (1ull << 30), 2039));
    EXPECT_FALSE(a.fits);
    EXPECT_EQ(a.total_bytes, 16 * 65285660672.0 + 80 * 570425344.0 + 4 * 2048.0 * 32000);
    EXPECT_EQ(*a.cards_needed, 13);
    w.cards = 13;
    EXPECT_TRUE(fit_model(llama65b(), w, card_by_hand(80.0 * (1ull << 30), 2039)).fits);
    w.cards = 12;
    EXPECT_FALSE(fit_model(llama65b(), w, card_by_hand(80.0 * (1ull << 30), 2039)).fits);
    w.cards = 1;
    w.attention = Attention::eager;
    EXPECT_EQ(*fit_model(llama65b(), w, card_by_hand(80.0 * (1ull << 30), 2039)).cards_needed, 14);
}

// What the card keeps for itself and what fragmentation takes count against it.
TEST(Fit, TheRuntimeShareAndFragmentationCountAgainstTheCard)
{
    Card card = card_by_hand(80.0 * (1ull << 30), 2039);
    card.available_bytes = 79.0 * (1ull << 30);
    card.fragmentation_lost_share = 0.5;
    const Workload w = inference(DType::int8, 2048);
    const Answer a = fit_model(llama65b(), w, card);
    EXPECT_EQ(part(a.parts, "runtime"), 1.0 * (1ull << 30));
    EXPECT_EQ(part(a.parts, "fragmentation"), 0.5 * (5368709120.0 + 570425344.0 + 4 * 32000.0));
    // The longest context shrinks by what the runtime takes and by half the growth again.
    EXPECT_EQ(*a.max_context_tokens,
              std::floor((79.0 * (1ull << 30) - 65285660672.0 - 1.5 * 4 * 32000) / (1.5 * 2899968)));
}

// The largest single tensor must fit capacity.max-alloc: LLaMA-65B's embedding table is
// 32000 x 8192 x 2 B = 500 MiB.
TEST(Fit, ALargestTensorPastMaxAllocDoesNotFit)
{
    Card card = card_by_hand(200.0 * (1ull << 30), 2039);
    card.max_alloc_bytes = 400.0 * (1 << 20);
    Workload w = inference(DType::fp16, 16);
    const Answer a = fit_model(llama65b(), w, card);
    EXPECT_EQ(a.largest_allocation_bytes, 32000.0 * 8192 * 2);
    EXPECT_FALSE(a.fits);
    card.max_alloc_bytes = 600.0 * (1 << 20);
    EXPECT_TRUE(fit_model(llama65b(), w, card).fits);
}
