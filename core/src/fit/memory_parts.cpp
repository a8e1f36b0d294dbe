// Each part's formula, in one place; docs/fit.md gives the same with its source.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/memory_parts.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace vrb::fit {

namespace {

constexpr std::array<std::pair<DType, const char *>, 6> dtype_names{{{DType::fp32, "fp32"},
                                                                     {DType::bf16, "bf16"},
                                                                     {DType::fp16, "fp16"},
                                                                     {DType::fp8, "fp8"},
                                                                     {DType::int8, "int8"},
                                                                     {DType::int4, "int4"}}};
constexpr std::array<std::pair<Optimizer, const char *>, 5> optimizer_names{{{Optimizer::adam, "adam"},
                                                                             {Optimizer::adamw, "adamw"},
                                                                             {Optimizer::sgd, "sgd"},
                                                                             {Optimizer::adafactor, "adafactor"},
                                                                             {Optimizer::adam_8bit, "adam-8bit"}}};

// Activations are kept at 16 bits unless the whole job is fp32 (Korthikanti et al.
// count 2 bytes an element); quantized weights compute in 16 bits.
double activation_scale(const Workload &w)
{
    return w.dtype == DType::fp32 ? 2.0 : 1.0;
}

std::string count_text(double n)
{
    return fmt::format("{:.4g}e9", n / 1e9);
}

const char *const zero_source = "Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion "
                                "Parameter Models (arXiv:1910.02054), section 3.1";
const char *const korthikanti_source = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large "
                                       "Transformer Models (arXiv:2205.05198), section 4";
const char *const korthikanti_flash_source =
    "Korthikanti et al. 2022 (arXiv:2205.05198), section 4, with FlashAttention (Dao et al. 2022, "
    "arXiv:2205.14135), which keeps no a s^2 scores";

// One layer's attention scores, softmax and dropout mask (Korthikanti et al.), held only
// when attention is eager: 5 a s^2 b.
double attention_scores(const Model &m, const Workload &w)
{
    return w.attention == Attention::eager ? 5 * m.heads * w.context * w.context * w.batch : 0;
}

std::string activation_formula(const Model &m, const Workload &w, const std::string &per)
{
    const bool eager = w.attention == Attention::eager;
    const std::string layer = eager ? "34 sbh + 5 a s^2 b" : "34 sbh";
    const std::string attention = eager ? "eager attention (--attention eager): the a s^2 scores kept"
                                        : "Korthikanti et al. with FlashAttention: no a s^2 scores kept";
    const std::string shape = fmt::format("s {:g}, b {:g}, h {:g}{}, at {}; {}", w.context, w.batch, m.hidden,
                                          eager ? fmt::format(", a {:g}", m.heads) : "", per, attention);
    if (w.mode == Mode::inference) return fmt::format("one layer at a time for the prompt: {}; {}", layer, shape);
    if (w.checkpointing)
        return fmt::format("recomputed: layers {:g} x 2 sbh + one layer's {}; {}", m.layers, layer, shape);
    return fmt::format("layers {:g} x {}; {}", m.layers, layer, shape);
}

} // namespace

std::string_view to_string(DType dtype)
{
    for (const auto &[d, name] : dtype_names)
        if (d == dtype) return name;
    return "?";
}

std::string_view to_string(Mode mode)
{
    return mode == Mode::training ? "training" : "inference";
}

std::string_view to_string(Attention attention)
{
    return attention == Attention::eager ? "eager" : "memory-efficient";
}

Attention parse_attention(std::string_view text)
{
    if (text == "memory-efficient" || text == "flash") return Attention::memory_efficient;
    if (text == "eager") return Attention::eager;
    throw UsageError(fmt::format("--attention '{}': expected memory-efficient (FlashAttention and its kin, the "
                                 "default) or eager (the a x s^2 scores kept)",
                                 text));
}

std::string_view to_string(Optimizer optimizer)
{
    for (const auto &[o, name] : optimizer_names)
        if (o == optimizer) return name;
    return "?";
}

DType parse_dtype(std::string_view text, std::string_view flag)
{
    for (const auto &[d, name] : dtype_names)
        if (text == name) return d;
    throw UsageError(fmt::format("{} '{}': expected fp32, bf16, fp16, fp8, int8 or int4", flag, text));
}

Mode parse_mode(std::string_view text)
{
    if (text == "inference") return Mode::inference;
    if (text == "training") return Mode::training;
    throw UsageError(fmt::format("--mode '{}': expected inference or training", text));
}

Optimizer parse_optimizer(std::string_view text)
{
    for (const auto &[o, name] : optimizer_names)
        if (text == name) return o;
    throw UsageError(fmt::format("--optimizer '{}': expected adam, adamw, sgd, adafactor or adam-8bit", text));
}

double bytes_per_weight(DType dtype)
{
    switch (dtype) {
    case DType::fp32: return 4;
    case DType::bf16:
    case DType::fp16: return 2;
    case DType::fp8:
    case DType::int8: return 1;
    case DType::int4: return 0.5 + 2 / int4_group_size;
    }
    return 0;
}

double bytes_per_element(DType dtype)
{
    return bytes_per_weight(dtype);
}

double kv_cache_bytes_per_token(const Model &m, DType kv_dtype)
{
    if (!m.has_kv_shape()) return 0;
    return 2 * m.layers * m.kv_heads * m.head_dim * bytes_per_element(kv_dtype);
}

double activation_bytes(const Model &m, const Workload &w)
{
    if (!m.has_activation_shape()) return 0;
    const double sbh = w.context * w.batch * m.hidden;
    // One layer's, as Korthikanti et al. count it (16-bit, no parallelism): 34 sbh for the
    // layer's tensors, and 5 a s^2 b for the attention scores, softmax and its dropout
    // when attention is eager (memory-efficient attention recomputes them in tiles).
    const double one_layer_kept = sbh * 34 + attention_scores(m, w);
    const double scale = activation_scale(w);
    if (w.mode == Mode::inference)
        // Nothing is kept for a backward pass: one layer's at a time, for the whole
        // context at once (a prompt's prefill).
        return scale * one_layer_kept;
    if (w.checkpointing)
        // Full recomputation: each layer's input (2 sbh) kept, one layer rebuilt at a time.
        return scale * (m.layers * 2 * sbh + one_layer_kept);
    return scale * m.layers * one_layer_kept;
}

double logit_bytes(const Model &m, const Workload &w)
{
    if (!(m.vocab > 0)) return 0;
    const double positions = w.mode == Mode::training ? w.context * w.batch : w.batch;
    return 4 * positions * m.vocab;
}

double gradient_bytes_per_parameter(DType dtype)
{
    return bytes_per_weight(dtype);
}

double master_bytes_per_parameter(DType dtype)
{
    return dtype == DType::fp32 ? 0 : 4;
}

double optimizer_state_bytes(const Model &m, Optimizer optimizer)
{
    const double p = parameter_count(m);
    switch (optimizer) {
    case Optimizer::adam:
    case Optimizer::adamw: return 8 * p; // two fp32 moments
    case Optimizer::sgd: return 4 * p;   // one fp32 momentum
    case Optimizer::adam_8bit:
        // Two 8-bit moments, each block of 2048 with one fp32 scale (Dettmers et al. 2022).
        return 2 * p + 2 * 4 * p / 2048;
    case Optimizer::adafactor: {
        // The second moment factored into a row and a column vector per matrix, fp32;
        // vectors keep theirs whole; no first moment (transformers' default, beta1 unset).
        if (m.tensors.empty()) return 0;
        double bytes = 0;
        for (const Tensor &t : m.tensors)
            bytes += 4 * t.count * (t.rows > 1 ? t.rows + t.cols : t.cols);
        return bytes;
    }
    }
    return 0;
}

double Parts::sum() const
{
    double s = 0;
    for (const Part &p : parts)
        s += p.bytes;
    return s;
}

double Parts::comes_and_goes() const
{
    double s = 0;
    for (const Part &p : parts)
        if (p.comes_and_goes) s += p.bytes;
    return s;
}

Parts memory_parts(const Model &m, const Workload &w, Formulas formulas)
{
    const bool say = formulas == Formulas::written;
    Parts out;
    const double p = parameter_count(m);
    const double weight = bytes_per_weight(w.dtype);
    std::string weight_formula;
    if (say) weight_formula = fmt::format("{} parameters x {:g} B ({})", count_text(p), weight, to_string(w.dtype));
    if (say && w.dtype == DType::int4)
        weight_formula = fmt::format("{} parameters x (0.5 B + one 2-byte fp16 scale a group of {:g}) = {:.6g} B",
                                     count_text(p), int4_group_size, weight);
    out.parts.push_back({"weights", p * weight, weight_formula,
                         w.dtype == DType::int4 ? "bytes per value; int4 groups as GPTQ (Frantar et al. 2022, "
                                                  "arXiv:2210.17323) and AWQ store them"
                                                : "bytes per value of the dtype",
                         false});
    if (w.mode == Mode::training) {
        const double g = gradient_bytes_per_parameter(w.dtype);
        out.parts.push_back(
            {"gradients", p * g,
             !say ? std::string()
                  : fmt::format("{} parameters x {:g} B ({} gradients)", count_text(p), g, to_string(w.dtype)),
             zero_source, false});
        if (const double master = master_bytes_per_parameter(w.dtype); master > 0)
            out.parts.push_back({"master_weights", p * master,
                                 !say ? std::string()
                                      : fmt::format("{} parameters x 4 B (fp32 copy of the {} weights)", count_text(p),
                                                    to_string(w.dtype)),
                                 zero_source, false});
        std::string formula, source = zero_source;
        switch (w.optimizer) {
        case Optimizer::adam:
        case Optimizer::adamw:
            formula = fmt::format("{} parameters x 8 B (fp32 momentum and variance)", count_text(p));
            break;
        case Optimizer::sgd: formula = fmt::format("{} parameters x 4 B (fp32 momentum)", count_text(p)); break;
        case Optimizer::adam_8bit:
            formula = fmt::format("{} parameters x (2 B + 8 B / 2048) (two 8-bit moments, an fp32 scale a block "
                                  "of 2048)",
                                  count_text(p));
            source = "Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization (arXiv:2110.02861)";
            break;
        case Optimizer::adafactor:
            formula = "sum over the tensors of 4 B x (rows + columns) (fp32 factored second moment, no momentum)";
            source = "Shazeer and Stern 2018, Adafactor: Adaptive Learning Rates with Sublinear Memory Cost "
                     "(arXiv:1804.04235)";
            if (m.tensors.empty())
                out.unknown.push_back("optimizer_states: adafactor's factored moments need the tensors' shapes: "
                                      "give a config.json or a catalogued name");
            break;
        }
        if (!(w.optimizer == Optimizer::adafactor && m.tensors.empty()))
            out.parts.push_back({"optimizer_states", optimizer_state_bytes(m, w.optimizer),
                                 say ? formula : std::string(), source, false});
    }
    if (m.has_activation_shape()) {
        const std::string per = activation_scale(w) > 1 ? "4 B (fp32)" : "2 B";
        out.parts.push_back({"activations", activation_bytes(m, w), say ? activation_formula(m, w, per) : std::string(),
                             w.attention == Attention::eager ? korthikanti_source : korthikanti_flash_source, true});
    } else
        out.unknown.push_back("activations: a bare count needs --layers and --hidden");
    if (m.vocab > 0)
        out.parts.push_back(
            {"logits", logit_bytes(m, w),
             !say ? std::string()
             : w.mode == Mode::training
                 ? fmt::format("4 B (fp32) x context {:g} x batch {:g} x vocabulary {:g}: every position's, for the "
                               "loss",
                               w.context, w.batch, m.vocab)
                 : fmt::format("4 B (fp32) x batch {:g} x vocabulary {:g}: the prompt's last position a sequence, "
                               "the one a runtime samples from",
                               w.batch, m.vocab),
             w.mode == Mode::training ? "Korthikanti et al. 2022 (arXiv:2205.05198), section 4.1: the loss keeps fp32 "
                                        "logits, 4 s b V"
                                      : "vLLM, llama.cpp and transformers' generate compute the prefill's logits at "
                                        "its last position only, in fp32",
             true});
    if (w.mode == Mode::inference) {
        if (m.has_kv_shape()) {
            const double per_token = kv_cache_bytes_per_token(m, w.kv_dtype);
            out.parts.push_back(
                {"kv_cache", per_token * w.context * w.batch,
                 !say ? std::string()
                      : fmt::format(
                            "2 x layers {:g} x KV heads {:g} x head dim {:g} x {:g} B ({}) x context {:g} x batch {:g}",
                            m.layers, m.kv_heads, m.head_dim, bytes_per_element(w.kv_dtype), to_string(w.kv_dtype),
                            w.context, w.batch),
                 "keys and values of every layer for every token held (Pope et al. 2022, Efficiently Scaling "
                 "Transformer Inference, arXiv:2211.05102, section 2)",
                 true});
        } else
            out.unknown.push_back("kv_cache: a bare count needs --layers and --hidden (and --heads, --kv-heads for "
                                  "grouped keys and values)");
    }
    return out;
}

double largest_allocation_bytes(const Model &m, const Workload &w)
{
    double largest = largest_tensor_parameters(m) * bytes_per_weight(w.dtype);
    if (w.mode == Mode::inference && m.has_kv_shape())
        largest = std::max(largest, kv_cache_bytes_per_token(m, w.kv_dtype) / (2 * m.layers) * w.context * w.batch);
    return largest / w.cards;
}

double weight_bytes_read_per_decode_step(const Model &m, const Workload &w)
{
    return parameters_read_per_step(m, w.batch) * bytes_per_weight(w.dtype);
}

double bytes_read_per_decode_step(const Model &m, const Workload &w)
{
    return weight_bytes_read_per_decode_step(m, w) + w.batch * kv_cache_bytes_per_token(m, w.kv_dtype) * w.context;
}

} // namespace vrb::fit
