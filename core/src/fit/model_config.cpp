// A Hugging Face config.json read into a model's shape and tensors. Each architecture's
// field names and defaults are the transformers library's for that model_type; the
// tensors are those its modelling code allocates (docs/fit.md, "Parameters").
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/model.hpp>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace vrb::fit {

namespace {

using nlohmann::json;

const char *const known_architectures =
    "llama, mistral, mixtral, qwen2, gemma, gemma2, gpt_neox, falcon (RefinedWeb, RefinedWebModel)";

class Fields {
  public:
    Fields(const json &config, std::string where, std::string architecture)
        : config_(config), where_(std::move(where)), architecture_(std::move(architecture))
    {
    }

    // The first of `names` present; UsageError when none is.
    double required(std::initializer_list<const char *> names, double most) const
    {
        for (const char *name : names)
            if (config_.contains(name) && !config_[name].is_null()) return checked(name, most);
        throw UsageError(fmt::format("{}: field '{}' is missing: a {} config gives {}", where_, *names.begin(),
                                     architecture_, describe(*names.begin())));
    }
    double optional(std::initializer_list<const char *> names, double most, double otherwise) const
    {
        for (const char *name : names)
            if (config_.contains(name) && !config_[name].is_null()) return checked(name, most);
        return otherwise;
    }
    bool flag(const char *name, bool otherwise) const
    {
        if (!config_.contains(name) || config_[name].is_null()) return otherwise;
        if (!config_[name].is_boolean())
            throw UsageError(
                fmt::format("{}: field '{}' is {}, expected true or false", where_, name, config_[name].dump()));
        return config_[name].get<bool>();
    }

  private:
    double checked(const char *name, double most) const
    {
        const json &v = config_[name];
        if (!v.is_number())
            throw UsageError(fmt::format("{}: field '{}' is {}, expected a positive whole number ({})", where_, name,
                                         v.dump(), describe(name)));
        const double x = v.get<double>();
        if (!(x > 0) || x != std::floor(x))
            throw UsageError(fmt::format("{}: field '{}' is {}, expected a positive whole number ({})", where_, name,
                                         v.dump(), describe(name)));
        if (x > most)
            throw UsageError(fmt::format("{}: field '{}' is {}, past the {:g} any model has: not taken for a model",
                                         where_, name, v.dump(), most));
        return x;
    }
    static std::string describe(std::string_view name)
    {
        if (name == "hidden_size") return "the width of the residual stream";
        if (name == "num_hidden_layers") return "the number of transformer layers";
        if (name == "num_attention_heads") return "the number of attention heads";
        if (name == "intermediate_size") return "the width of the feed-forward layer";
        if (name == "vocab_size") return "the number of tokens in the vocabulary";
        if (name == "num_local_experts") return "the experts of each layer";
        if (name == "num_experts_per_tok") return "how many experts each token goes through";
        if (name == "max_position_embeddings") return "the context the model was trained for";
        return "a size";
    }

    const json &config_;
    std::string where_, architecture_;
};

void add(Model &m, std::string name, double rows, double cols, double count, bool expert = false)
{
    m.tensors.push_back({std::move(name), rows, cols, count, expert});
}

// The input embedding table: read a row a sequence, unless it is the head as well. Set
// tied_embeddings before adding it.
void add_input_embedding(Model &m, std::string name)
{
    m.tensors.push_back({std::move(name), m.vocab, m.hidden, 1, false, !m.tied_embeddings});
}

// Llama and the models built like it: Mistral, Mixtral (experts), Qwen2 (q, k, v biases),
// Gemma (tied embeddings, its own head dim).
void decoder_with_gated_mlp(Model &m, const Fields &f, const json &config)
{
    const std::string &type = m.architecture;
    m.hidden = f.required({"hidden_size"}, most_hidden);
    m.layers = f.required({"num_hidden_layers"}, most_layers);
    m.heads = f.required({"num_attention_heads"}, most_heads);
    m.kv_heads = f.optional({"num_key_value_heads"}, most_heads, m.heads);
    m.intermediate = f.required({"intermediate_size"}, most_intermediate);
    m.vocab = f.required({"vocab_size"}, most_vocab);
    const bool gemma = type == "gemma" || type == "gemma2";
    m.tied_embeddings = f.flag("tie_word_embeddings", gemma);
    if (type == "mixtral") {
        m.experts = f.required({"num_local_experts"}, most_experts);
        m.experts_per_token = f.required({"num_experts_per_tok"}, most_experts);
    }
    // head_dim when the config names it (Gemma, later Mistrals); the even split otherwise.
    if (config.contains("head_dim") && !config["head_dim"].is_null())
        m.head_dim = f.required({"head_dim"}, most_hidden);
    else if (std::fmod(m.hidden, m.heads) == 0)
        m.head_dim = m.hidden / m.heads;
    const bool qkv_bias = type == "qwen2" || f.flag("attention_bias", false);
    const bool o_bias = type != "qwen2" && f.flag("attention_bias", false);
    const bool mlp_bias = f.flag("mlp_bias", false);
    const double q = m.heads * m.head_dim, kv = m.kv_heads * m.head_dim, L = m.layers;

    add_input_embedding(m, "embed_tokens");
    add(m, "q_proj", m.hidden, q, L);
    add(m, "k_proj, v_proj", m.hidden, kv, 2 * L);
    add(m, "o_proj", q, m.hidden, L);
    if (qkv_bias) {
        add(m, "q_proj.bias", 1, q, L);
        add(m, "k_proj.bias, v_proj.bias", 1, kv, 2 * L);
    }
    if (o_bias) add(m, "o_proj.bias", 1, m.hidden, L);
    const bool moe = m.experts > 1;
    add(m, "gate_proj, up_proj", m.hidden, m.intermediate, 2 * L * m.experts, moe);
    add(m, "down_proj", m.intermediate, m.hidden, L * m.experts, moe);
    if (mlp_bias) {
        add(m, "gate_proj.bias, up_proj.bias", 1, m.intermediate, 2 * L * m.experts, moe);
        add(m, "down_proj.bias", 1, m.hidden, L * m.experts, moe);
    }
    if (moe) add(m, "router", m.hidden, m.experts, L);
    // Gemma 2 norms before and after each block: four a layer, not two.
    add(m, "layer norms", 1, m.hidden, (type == "gemma2" ? 4 : 2) * L);
    add(m, "final norm", 1, m.hidden, 1);
    if (!m.tied_embeddings) add(m, "lm_head", m.vocab, m.hidden, 1);
}

void gpt_neox(Model &m, const Fields &f)
{
    m.hidden = f.required({"hidden_size"}, most_hidden);
    m.layers = f.required({"num_hidden_layers"}, most_layers);
    m.heads = f.required({"num_attention_heads"}, most_heads);
    m.kv_heads = m.heads;
    m.intermediate = f.required({"intermediate_size"}, most_intermediate);
    m.vocab = f.required({"vocab_size"}, most_vocab);
    m.tied_embeddings = f.flag("tie_word_embeddings", false);
    if (std::fmod(m.hidden, m.heads) == 0) m.head_dim = m.hidden / m.heads;
    const double h = m.hidden, L = m.layers;
    add_input_embedding(m, "embed_in");
    add(m, "query_key_value", h, 3 * h, L);
    add(m, "query_key_value.bias", 1, 3 * h, L);
    add(m, "dense", h, h, L);
    add(m, "dense_h_to_4h", h, m.intermediate, L);
    add(m, "dense_h_to_4h.bias", 1, m.intermediate, L);
    add(m, "dense_4h_to_h", m.intermediate, h, L);
    add(m, "dense.bias, dense_4h_to_h.bias", 1, h, 2 * L);
    add(m, "layer norms (weight and bias)", 1, h, 4 * L);
    add(m, "final layer norm (weight and bias)", 1, h, 2);
    if (!m.tied_embeddings) add(m, "embed_out", m.vocab, h, 1);
}

// Falcon: one fused query-key-value matrix with multi-query (7B) or grouped (40B, 180B,
// new_decoder_architecture) keys and values; embeddings tied.
void falcon(Model &m, const Fields &f)
{
    m.hidden = f.required({"hidden_size", "d_model"}, most_hidden);
    m.layers = f.required({"num_hidden_layers", "n_layer"}, most_layers);
    m.heads = f.required({"num_attention_heads", "n_head"}, most_heads);
    m.vocab = f.required({"vocab_size"}, most_vocab);
    const bool new_architecture = f.flag("new_decoder_architecture", false);
    if (new_architecture)
        m.kv_heads = f.optional({"num_kv_heads", "n_head_kv"}, most_heads, m.heads);
    else
        m.kv_heads = f.flag("multi_query", true) ? 1 : m.heads;
    m.intermediate = f.optional({"ffn_hidden_size"}, most_intermediate, 4 * m.hidden);
    m.tied_embeddings = f.flag("tie_word_embeddings", true);
    if (std::fmod(m.hidden, m.heads) == 0) m.head_dim = m.hidden / m.heads;
    const bool bias = f.flag("bias", false);
    const double h = m.hidden, L = m.layers, qkv = (m.heads + 2 * m.kv_heads) * m.head_dim;
    add_input_embedding(m, "word_embeddings");
    add(m, "query_key_value", h, qkv, L);
    add(m, "dense", h, h, L);
    add(m, "dense_h_to_4h", h, m.intermediate, L);
    add(m, "dense_4h_to_h", m.intermediate, h, L);
    if (bias) {
        add(m, "query_key_value.bias", 1, qkv, L);
        add(m, "dense.bias, dense_4h_to_h.bias", 1, h, 2 * L);
        add(m, "dense_h_to_4h.bias", 1, m.intermediate, L);
    }
    // Layer norms (weight and bias): two in parallel in the new architecture, one before
    // the parallel attention and MLP in the old, two when they run one after the other.
    const double norms = new_architecture ? 2 : (f.flag("parallel_attn", true) ? 1 : 2);
    add(m, "layer norms (weight and bias)", 1, h, 2 * norms * L);
    add(m, "ln_f (weight and bias)", 1, h, 2);
    if (!m.tied_embeddings) add(m, "lm_head", m.vocab, h, 1);
}

} // namespace

Model model_from_config(const json &config, const std::string &where)
{
    if (!config.is_object())
        throw UsageError(fmt::format("{}: a config.json is a JSON object, this is {}", where, config.type_name()));
    if (!config.contains("model_type") || !config["model_type"].is_string())
        throw UsageError(fmt::format("{}: field 'model_type' is missing: it names the architecture ({})", where,
                                     known_architectures));
    Model m;
    m.name = where;
    m.source = where;
    m.architecture = config["model_type"].get<std::string>();
    const Fields f(config, where, m.architecture);
    const std::string &type = m.architecture;
    if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" || type == "gemma" ||
        type == "gemma2")
        decoder_with_gated_mlp(m, f, config);
    else if (type == "gpt_neox")
        gpt_neox(m, f);
    else if (type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel")
        falcon(m, f);
    else
        throw UsageError(
            fmt::format("{}: unknown architecture (model_type '{}'): fit knows {}", where, type, known_architectures));

    if (m.head_dim == 0)
        throw UsageError(fmt::format("{}: hidden_size {:g} does not split evenly over {:g} attention heads and no "
                                     "head_dim is given",
                                     where, m.hidden, m.heads));
    if (m.kv_heads > m.heads || std::fmod(m.heads, m.kv_heads) != 0)
        throw UsageError(
            fmt::format("{}: {:g} key-value heads do not divide the {:g} attention heads", where, m.kv_heads, m.heads));
    if (m.experts_per_token > m.experts)
        throw UsageError(fmt::format("{}: num_experts_per_tok {:g} is more than the {:g} experts", where,
                                     m.experts_per_token, m.experts));
    // The context it was trained for, which fit takes when --context is not given: past
    // most_context it is refused here, by its own name.
    if (const double context = f.optional({"max_position_embeddings"}, most_context, 0); context > 0)
        m.context_tokens = context;
    const double parameters = parameter_count(m);
    if (parameters > most_parameters)
        throw UsageError(fmt::format("{}: the shape makes {:.3g} parameters, past the {:g} any model has: not taken "
                                     "for a model",
                                     where, parameters, most_parameters));
    return m;
}

Model model_from_config_file(const std::filesystem::path &given)
{
    std::error_code ec;
    std::filesystem::path file = given;
    if (std::filesystem::is_directory(file, ec)) file /= "config.json";
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UsageError(fmt::format("{}: cannot read the model's config", file.string()));
    std::ostringstream text;
    text << in.rdbuf();
    json config;
    try {
        config = json::parse(text.str());
    } catch (const json::parse_error &e) {
        throw UsageError(
            fmt::format("{}: not a whole JSON document (truncated or malformed): {}", file.string(), e.what()));
    }
    return model_from_config(config, file.string());
}

} // namespace vrb::fit
