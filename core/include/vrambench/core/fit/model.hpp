// A model as `fit` sizes it: the shape that decides its memory (hidden size, layers,
// heads, KV heads, head dim, intermediate size, vocabulary, experts) and the tensors that
// shape makes, read from a Hugging Face config.json, a catalogued name or a bare count.
// Formulas and sources: docs/fit.md.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrb::fit {

// One kind of tensor: `count` of them, each rows x cols parameters (a vector is 1 x n).
struct Tensor {
    std::string name;
    double rows = 0, cols = 0, count = 0;
    bool expert = false; // one expert's: a token reads experts_per_token of the experts' copies
    // The input embedding table when it is not also the output head: a decode step reads
    // one row of it a sequence, not the whole table.
    bool input_embedding = false;
    double parameters() const { return rows * cols * count; }
    double each() const { return rows * cols; }
};

struct Model {
    std::string name;         // "llama-65b", the config's path, or "65B"
    std::string source;       // where its shape comes from
    std::string architecture; // the config's model_type: "llama", "mixtral", ...; "count" for a bare count
    // The shape; 0 where a bare count leaves it unknown.
    double hidden = 0, layers = 0, heads = 0, kv_heads = 0, head_dim = 0, intermediate = 0, vocab = 0;
    double experts = 1, experts_per_token = 1;
    bool tied_embeddings = false;
    std::optional<double> context_tokens; // max_position_embeddings: the context it was trained for
    std::vector<Tensor> tensors;          // empty for a bare count
    double stated_parameters = 0;         // a bare count as given ("65B")

    bool has_kv_shape() const { return layers > 0 && kv_heads > 0 && head_dim > 0; }
    bool has_activation_shape() const { return layers > 0 && hidden > 0; }
};

// Every parameter: the sum over the tensors, or the count as given.
double parameter_count(const Model &model);
// What one token reads: all but the experts, and experts_per_token of each layer's experts.
double active_parameter_count(const Model &model);
// The experts of a layer a decode step of `batch` sequences reads, each routed to its own
// top k of E: the expected union, E (1 - (1 - k/E)^batch); 1 for a dense model.
double experts_read_per_layer(const Model &model, double batch);
// The parameters one decode step of `batch` sequences reads: every tensor but the experts
// and the input embedding whole; the experts the batch routes to (experts_read_per_layer
// of E); one input embedding row a sequence (the whole table when it is also the head).
double parameters_read_per_step(const Model &model, double batch);
// The largest single tensor, in parameters (0 for a bare count).
double largest_tensor_parameters(const Model &model);

// Past these a value is taken for a mistake, not a model (docs/fit.md, "Bad input").
inline constexpr double most_parameters = 1e14; // 100 T: ten times past the largest model trained
inline constexpr double most_hidden = 1 << 20, most_layers = 10000, most_heads = 1 << 16, most_vocab = 1e8,
                        most_intermediate = 1 << 24, most_experts = 1 << 16;
// Past this a context (--context, or a config's max_position_embeddings) is a mistake.
inline constexpr double most_context = double(1ull << 31);

// A config.json's fields, for the architectures docs/fit.md lists. Throws UsageError
// naming `where` and the field for an unknown model_type, a missing, non-numeric, zero,
// negative or absurd field, and a shape that contradicts itself.
Model model_from_config(const nlohmann::json &config, const std::string &where);
// Reads and parses a config.json (a folder holding one will do): UsageError for a file
// that is missing, unreadable, not JSON or truncated, naming it.
Model model_from_config_file(const std::filesystem::path &file);

// What a bare parameter count knows of the shape: --layers, --hidden, --heads,
// --kv-heads, --head-dim (each 0 when not given).
struct ShapeOptions {
    double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
};
// "65B", "6.7b", "350M", "1.5T", "7e9": decimal multiples. Throws UsageError for
// anything else, zero, negative, or past most_parameters.
double parse_parameter_count(std::string_view text);
Model model_from_count(std::string_view text, const ShapeOptions &shape);

// MODEL as `fit` takes it: a config.json file (or a folder with one), a catalogued
// name, or a parameter count. Shape options belong to a count only.
Model resolve_model(const std::string &spec, const ShapeOptions &shape);

} // namespace vrb::fit
