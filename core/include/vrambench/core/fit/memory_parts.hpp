// What a model keeps in memory, part by part, each with its formula and the source of
// that formula (docs/fit.md): weights at a dtype, and for training the gradients, the
// master weights and the optimizer's states; the activations; the KV cache.
#pragma once

#include <vrambench/core/fit/model.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace vrb::fit {

enum class DType { fp32, bf16, fp16, fp8, int8, int4 };
enum class Mode { inference, training };
enum class Optimizer { adam, adamw, sgd, adafactor, adam_8bit };
// How attention is computed: memory-efficient (FlashAttention and its kin keep no
// heads x context^2 scores, what every current trainer and server runs) or eager (the
// scores, their softmax and its dropout mask kept, as Korthikanti et al. count them).
enum class Attention { memory_efficient, eager };

std::string_view to_string(DType dtype);
std::string_view to_string(Mode mode);
std::string_view to_string(Optimizer optimizer);
std::string_view to_string(Attention attention);
// UsageError naming `flag` and the accepted names for anything else.
DType parse_dtype(std::string_view text, std::string_view flag);
Mode parse_mode(std::string_view text);
Optimizer parse_optimizer(std::string_view text);
Attention parse_attention(std::string_view text);

// int4 weights carry one fp16 scale per group of this many (GPTQ's and AWQ's default).
inline constexpr double int4_group_size = 128;
// Bytes a weight takes at `dtype`: int4 is half a byte plus its group's scale.
double bytes_per_weight(DType dtype);
// Bytes one element of the KV cache or of an activation takes (int4 counts half a byte).
double bytes_per_element(DType dtype);

struct Workload {
    DType dtype = DType::fp16;
    DType kv_dtype = DType::fp16;
    Mode mode = Mode::inference;
    Optimizer optimizer = Optimizer::adamw;
    double batch = 1;
    double context = 4096; // tokens a sequence holds
    bool checkpointing = false;
    Attention attention = Attention::memory_efficient;
    double cards = 1; // the model split evenly over this many cards
    // How the context was chosen when --context was not given, in words; empty when given.
    std::string context_rule;
};

// The context a workload gets when --context is not given: for inference the model's
// own, else this; for training the smaller of the model's and this (a trainer's usual
// sequence length, not the longest the model was extended to).
inline constexpr double default_context_tokens = 4096;

struct Part {
    std::string name;    // "weights", "gradients", "master_weights", "optimizer_states", "activations", "kv_cache"
    double bytes = 0;    // over the whole job, before splitting over cards
    std::string formula; // worked with this model's figures
    std::string source;
    bool comes_and_goes = false; // allocated and freed as the job runs (what fragmentation costs)
};

// The KV cache a token adds: 2 (K and V) x layers x KV heads x head dim x bytes.
double kv_cache_bytes_per_token(const Model &model, DType kv_dtype);
// The activations the workload holds at its peak (Korthikanti et al. 2022): training
// keeps every layer's unless recomputed; inference holds one layer's at a time. The
// attention scores (5 a s^2 b a layer) only with Attention::eager.
double activation_bytes(const Model &model, const Workload &workload);
// The logits held in fp32: training keeps every position's for the loss (4 s b V);
// inference computes the prompt's last position a sequence (4 b V), as vLLM, llama.cpp
// and transformers' generate do. 0 without a vocabulary (a bare count).
double logit_bytes(const Model &model, const Workload &workload);
// Bytes per parameter the training states take besides the weights: gradients, master
// weights, optimizer states.
double gradient_bytes_per_parameter(DType dtype);
double master_bytes_per_parameter(DType dtype);
// Adafactor's factored second moment depends on the tensors' shapes, so it is in bytes.
double optimizer_state_bytes(const Model &model, Optimizer optimizer);

// Every part that applies. A part the model's shape cannot tell (a bare count without
// --layers and --hidden) is left out; why is in `unknown`.
struct Parts {
    std::vector<Part> parts;
    std::vector<std::string> unknown;
    double sum() const;
    double comes_and_goes() const;
};
// Formulas::left_out leaves every formula empty and keeps every byte: a search over
// workloads (the largest context or batch that fits) asks only whether the bytes fit, at
// every step, and writing the formulas had taken most of its time.
enum class Formulas { written, left_out };
Parts memory_parts(const Model &model, const Workload &workload, Formulas formulas = Formulas::written);

// The largest single allocation the job makes: the largest weight tensor, or one layer's
// K (or V) cache when a server keeps it as one pool.
double largest_allocation_bytes(const Model &model, const Workload &workload);

// What one decode step reads: the weights the batch goes through once
// (parameters_read_per_step: the experts the batch routes to, a row of the input
// embedding a sequence) and every sequence's KV cache at the context.
double weight_bytes_read_per_decode_step(const Model &model, const Workload &workload);
double bytes_read_per_decode_step(const Model &model, const Workload &workload);

} // namespace vrb::fit
