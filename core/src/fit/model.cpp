// Counting a model's parameters, and MODEL as `fit` takes it: a file, a name or a count.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/model.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace vrb::fit {

double parameter_count(const Model &model)
{
    if (model.tensors.empty()) return model.stated_parameters;
    double sum = 0;
    for (const Tensor &t : model.tensors)
        sum += t.parameters();
    return sum;
}

double active_parameter_count(const Model &model)
{
    if (model.tensors.empty()) return model.stated_parameters;
    double sum = 0;
    for (const Tensor &t : model.tensors)
        sum += t.expert ? t.parameters() * model.experts_per_token / model.experts : t.parameters();
    return sum;
}

double experts_read_per_layer(const Model &model, double batch)
{
    const double e = model.experts, k = model.experts_per_token;
    if (!(e > 1)) return 1;
    // Each sequence misses a given expert with chance 1 - k/E; the batch misses it only
    // when every sequence does. pow keeps a batch of 2^24 finite (it tends to E).
    return e * (1 - std::pow(1 - k / e, batch));
}

double parameters_read_per_step(const Model &model, double batch)
{
    if (model.tensors.empty()) return model.stated_parameters;
    const double experts = experts_read_per_layer(model, batch);
    double sum = 0;
    for (const Tensor &t : model.tensors) {
        if (t.expert)
            sum += t.parameters() * experts / model.experts;
        else if (t.input_embedding)
            sum += std::min(batch, t.rows) * t.cols * t.count;
        else
            sum += t.parameters();
    }
    return sum;
}

double largest_tensor_parameters(const Model &model)
{
    double largest = 0;
    for (const Tensor &t : model.tensors)
        largest = std::max(largest, t.each());
    return largest;
}

double parse_parameter_count(std::string_view text)
{
    std::string s(text);
    const auto bad = [&](std::string_view why) {
        return UsageError(
            fmt::format("invalid parameter count '{}': {} (write it as 65B, 6.7B, 350M, 1.5T or 7e9)", text, why));
    };
    if (s.empty()) throw bad("empty");
    double factor = 1;
    switch (std::tolower(static_cast<unsigned char>(s.back()))) {
    case 'k': factor = 1e3; break;
    case 'm': factor = 1e6; break;
    case 'b': factor = 1e9; break;
    case 't': factor = 1e12; break;
    default: break;
    }
    if (factor != 1) s.pop_back();
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
        throw bad("not a number with a K, M, B or T suffix");
    value *= factor;
    if (!(value >= 1)) throw bad("a model has at least one parameter");
    if (value > most_parameters)
        throw bad(fmt::format("past the {:g} any model has: not taken for a model", most_parameters));
    return std::round(value);
}

Model model_from_count(std::string_view text, const ShapeOptions &shape)
{
    Model m;
    m.name = std::string(text);
    m.architecture = "count";
    m.stated_parameters = parse_parameter_count(text);
    m.source = "a parameter count given on the command line";
    const auto check = [](double value, const char *flag, double most) {
        if (value < 0 || value != std::floor(value))
            throw UsageError(fmt::format("{} {:g}: expected a positive whole number", flag, value));
        if (value > most)
            throw UsageError(
                fmt::format("{} {:g}: past the {:g} any model has: not taken for a model", flag, value, most));
    };
    check(shape.layers, "--layers", most_layers);
    check(shape.hidden, "--hidden", most_hidden);
    check(shape.heads, "--heads", most_heads);
    check(shape.kv_heads, "--kv-heads", most_heads);
    check(shape.head_dim, "--head-dim", most_hidden);
    m.layers = shape.layers;
    m.hidden = shape.hidden;
    m.heads = shape.heads;
    m.kv_heads = shape.kv_heads > 0 ? shape.kv_heads : shape.heads;
    m.head_dim = shape.head_dim > 0 ? shape.head_dim : (shape.heads > 0 ? shape.hidden / shape.heads : 0);
    // Without heads, keys and values span the hidden size: every head has its own (no
    // grouping), which is all a count with --layers and --hidden can say.
    if (m.kv_heads == 0 && shape.hidden > 0 && shape.head_dim == 0) {
        m.kv_heads = 1;
        m.head_dim = shape.hidden;
    }
    if (shape.head_dim > 0 && shape.heads == 0 && shape.kv_heads == 0)
        throw UsageError("--head-dim needs --heads or --kv-heads: the KV cache is key-value heads x head dim wide, "
                         "and a head dim alone does not say how many heads there are");
    if (shape.kv_heads > 0 && shape.heads == 0 && shape.head_dim == 0)
        throw UsageError("--kv-heads needs --heads (or --head-dim): a key-value head is hidden / heads wide");
    if (m.heads > 0 && m.kv_heads > m.heads)
        throw UsageError(fmt::format("--kv-heads {:g} is more than --heads {:g}", m.kv_heads, m.heads));
    if ((shape.layers > 0) != (shape.hidden > 0))
        throw UsageError("--layers and --hidden go together: the KV cache and the activations need both");
    return m;
}

Model resolve_model(const std::string &spec, const ShapeOptions &shape)
{
    const bool shaped =
        shape.layers > 0 || shape.hidden > 0 || shape.heads > 0 || shape.kv_heads > 0 || shape.head_dim > 0;
    std::error_code ec;
    const bool file = std::filesystem::exists(spec, ec);
    const CatalogueEntry *entry = file ? nullptr : find_catalogued(spec);
    if ((file || entry) && shaped)
        throw UsageError(fmt::format("--layers, --hidden, --heads, --kv-heads and --head-dim shape a bare parameter "
                                     "count; {} has its shape",
                                     spec));
    if (file) return model_from_config_file(spec);
    if (entry) return entry->model;
    if (!spec.empty() &&
        (std::isdigit(static_cast<unsigned char>(spec.front())) || spec.front() == '-' || spec.front() == '.'))
        return model_from_count(spec, shape);
    if (spec.ends_with(".json") || spec.find('/') != std::string::npos)
        throw UsageError(fmt::format("{}: no such file (MODEL is a config.json, a parameter count or a catalogued "
                                     "name)",
                                     spec));
    throw UsageError(fmt::format("unknown model '{}': MODEL is a config.json, a parameter count (65B) or one of {}",
                                 spec, catalogue_names()));
}

} // namespace vrb::fit
