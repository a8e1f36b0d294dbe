// The answer: the parts on one card against its memory, the limits that fit, and the
// decode ceiling from the measured read bandwidth.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <fmt/format.h>

#include <cmath>

namespace vrb::fit {

namespace {

// Past these a value is taken for a mistake (docs/fit.md, "Bad input").
constexpr double most_batch = 1 << 24, most_context = double(1ull << 31), most_cards = 1 << 20;

struct OnOneCard {
    std::vector<Part> parts;
    std::vector<std::string> unknown;
    double total = 0, largest = 0;
};

OnOneCard on_one_card(const Model &model, const Workload &w, const Card &card)
{
    OnOneCard out;
    Parts parts = memory_parts(model, w);
    out.unknown = std::move(parts.unknown);
    const double dynamic = parts.comes_and_goes() / w.cards;
    for (Part &p : parts.parts) {
        if (w.cards > 1) {
            p.bytes /= w.cards;
            p.formula += fmt::format(", / {:g} cards", w.cards);
        }
        out.parts.push_back(std::move(p));
    }
    out.parts.push_back({"runtime", card.card_bytes - card.available_bytes,
                         fmt::format("the card's {:.2f} GiB less what one process can hold ({})",
                                     card.card_bytes / double(1ull << 30), card.available_rule),
                         "capacity.report and capacity.total (docs/capacity.md)", false});
    out.parts.push_back({"fragmentation", card.fragmentation_lost_share * dynamic,
                         fmt::format("{:.1f}% lost to fragmentation x {:.3g} GiB that comes and goes (activations, KV "
                                     "cache)",
                                     card.fragmentation_lost_share * 100, dynamic / double(1ull << 30)),
                         "capacity.fragmentation: 1 - its largest block after fragmenting / the block asked for",
                         false});
    for (const Part &p : out.parts)
        out.total += p.bytes;
    out.largest = largest_allocation_bytes(model, w);
    return out;
}

bool fits(const Model &model, const Workload &w, const Card &card)
{
    const OnOneCard one = on_one_card(model, w, card);
    return one.total <= card.card_bytes && (!card.max_alloc_bytes || one.largest <= *card.max_alloc_bytes);
}

// The largest value in [1, most] of the workload's `field` that fits: parts only grow
// with it. 0 when 1 does not fit.
double largest_that_fits(const Model &model, Workload w, double Workload::*field, double most, const Card &card)
{
    w.*field = 1;
    if (!fits(model, w, card)) return 0;
    double low = 1, high = most;
    w.*field = high;
    if (fits(model, w, card)) return high;
    while (high - low > 1) {
        const double middle = std::floor((low + high) / 2);
        w.*field = middle;
        (fits(model, w, card) ? low : high) = middle;
    }
    return low;
}

std::optional<double> fewest_cards(const Model &model, Workload w, const Card &card)
{
    w.cards = most_cards;
    if (!fits(model, w, card)) return std::nullopt;
    double low = 0, high = most_cards; // fits at high, not known at low
    while (high - low > 1) {
        const double middle = std::floor((low + high) / 2);
        w.cards = middle;
        (fits(model, w, card) ? high : low) = middle;
    }
    return high;
}

void check_count(double value, const char *flag, double most)
{
    if (!(value >= 1) || value != std::floor(value))
        throw UsageError(fmt::format("{} {:g}: expected a whole number of at least 1", flag, value));
    if (value > most) throw UsageError(fmt::format("{} {:g}: past {:g}, not taken for a real job", flag, value, most));
}

std::string gib(double bytes)
{
    return fmt::format("{:.2f}", bytes / double(1ull << 30));
}

} // namespace

Workload complete_workload(Workload w, const Model &model, bool context_given, bool kv_dtype_given)
{
    if (!context_given) w.context = model.context_tokens.value_or(default_context_tokens);
    if (!kv_dtype_given) w.kv_dtype = (w.dtype == DType::fp32 || w.dtype == DType::bf16) ? w.dtype : DType::fp16;
    return w;
}

Answer fit_model(const Model &model, const Workload &w, const Card &card)
{
    check_count(w.batch, "--batch", most_batch);
    check_count(w.context, "--context", most_context);
    check_count(w.cards, "--cards", most_cards);
    if (w.mode == Mode::training && w.dtype != DType::fp32 && w.dtype != DType::bf16 && w.dtype != DType::fp16)
        throw UsageError(fmt::format("--mode training with --dtype {}: training keeps its weights in fp32, bf16 or "
                                     "fp16 (quantized weights with adapters are not modelled)",
                                     to_string(w.dtype)));
    if (w.mode == Mode::training && model.has_activation_shape() && model.heads == 0)
        throw UsageError("--mode training needs --heads: the attention scores a layer keeps grow with heads x "
                         "context^2");
    if (!(card.card_bytes > 0) || !(card.read_gb_per_s > 0))
        throw UsageError("the card's memory and read bandwidth must be positive");

    Answer a;
    a.model = model;
    a.workload = w;
    a.card = card;
    a.parameters = parameter_count(model);
    a.active_parameters = active_parameter_count(model);
    OnOneCard one = on_one_card(model, w, card);
    a.parts = std::move(one.parts);
    a.unknown = std::move(one.unknown);
    a.total_bytes = one.total;
    a.largest_allocation_bytes = one.largest;
    a.available_bytes = card.card_bytes;
    a.fits = fits(model, w, card);
    if (a.total_bytes > a.available_bytes)
        a.reasons.push_back(fmt::format("needs {} GiB of the card's {} GiB: {} GiB short", gib(a.total_bytes),
                                        gib(a.available_bytes), gib(a.total_bytes - a.available_bytes)));
    if (card.max_alloc_bytes && a.largest_allocation_bytes > *card.max_alloc_bytes)
        a.reasons.push_back(fmt::format("its largest single allocation, {} GiB, is past the {} GiB capacity.max-alloc "
                                        "measured",
                                        gib(a.largest_allocation_bytes), gib(*card.max_alloc_bytes)));
    if (model.has_kv_shape() || model.has_activation_shape()) {
        a.max_context_tokens = largest_that_fits(model, w, &Workload::context, most_context, card);
        a.max_batch = largest_that_fits(model, w, &Workload::batch, most_batch, card);
    }
    a.cards_needed = fewest_cards(model, w, card);
    if (w.mode == Mode::inference) {
        a.bytes_read_per_step = bytes_read_per_decode_step(model, w);
        const auto ceiling = [&](double gb_per_s) {
            return gb_per_s * 1e9 * w.batch * w.cards / a.bytes_read_per_step;
        };
        a.decode_ceiling = ceiling(card.read_gb_per_s);
        if (card.host_read_gb_per_s) a.host_decode_ceiling = ceiling(*card.host_read_gb_per_s);
    }
    if (model.context_tokens && w.context > *model.context_tokens)
        a.notes.push_back(fmt::format("--context {:g} is past the {:g} tokens {} was trained for", w.context,
                                      *model.context_tokens, model.name));
    if (model.context_tokens && a.max_context_tokens && *a.max_context_tokens > *model.context_tokens)
        a.notes.push_back(fmt::format("the longest context counts memory only: {} was trained for {:g} tokens",
                                      model.name, *model.context_tokens));
    for (const std::string &note : card.notes)
        a.notes.push_back(note);
    return a;
}

nlohmann::json fit_json(const Answer &a)
{
    using nlohmann::json;
    const auto optional = [](const std::optional<double> &v) { return v ? json(*v) : json(nullptr); };
    json parts = json::object();
    for (const Part &p : a.parts)
        parts[p.name] = {{"bytes", std::llround(p.bytes)}, {"formula", p.formula}, {"source", p.source}};
    json figures = json::array();
    for (const Figure &f : a.card.figures)
        figures.push_back({{"figure", f.name},
                           {"value", f.value},
                           {"unit", f.unit},
                           {"device", f.device},
                           {"result_id", f.result_id}});
    const Model &m = a.model;
    const Workload &w = a.workload;
    json decode = nullptr;
    if (a.decode_ceiling)
        decode = {{"bytes_read_per_step", std::llround(a.bytes_read_per_step)},
                  {"formula", "tokens/s <= read bandwidth x batch x cards / bytes read a step (the active weights "
                              "once, every sequence's KV cache at the context)"},
                  {"card_tokens_per_second", *a.decode_ceiling},
                  {"card_read_gb_per_s", a.card.read_gb_per_s},
                  {"host_ram_tokens_per_second", optional(a.host_decode_ceiling)},
                  {"host_ram_read_gb_per_s", optional(a.card.host_read_gb_per_s)},
                  {"host_ram_slower",
                   a.host_decode_ceiling ? json(*a.decode_ceiling / *a.host_decode_ceiling) : json(nullptr)}};
    return {{"fits", a.fits},
            {"reasons", a.reasons},
            {"model",
             {{"name", m.name},
              {"source", m.source},
              {"architecture", m.architecture},
              {"layers", m.layers},
              {"hidden", m.hidden},
              {"heads", m.heads},
              {"kv_heads", m.kv_heads},
              {"head_dim", m.head_dim},
              {"experts", m.experts},
              {"experts_per_token", m.experts_per_token},
              {"context_tokens", optional(m.context_tokens)}}},
            {"workload",
             {{"mode", to_string(w.mode)},
              {"dtype", to_string(w.dtype)},
              {"kv_dtype", to_string(w.kv_dtype)},
              {"optimizer", w.mode == Mode::training ? json(to_string(w.optimizer)) : json(nullptr)},
              {"batch", w.batch},
              {"context_tokens", w.context},
              {"checkpointing", w.checkpointing},
              {"cards", w.cards}}},
            {"card",
             {{"device", a.card.device},
              {"name", a.card.name},
              {"measured", a.card.measured},
              {"available_rule", a.card.available_rule}}},
            {"parameters", std::llround(a.parameters)},
            {"active_parameters", std::llround(a.active_parameters)},
            {"parts", parts},
            {"unknown_parts", a.unknown},
            {"total_bytes", std::llround(a.total_bytes)},
            {"available_bytes", std::llround(a.available_bytes)},
            {"margin_bytes", std::llround(a.available_bytes - a.total_bytes)},
            {"largest_allocation_bytes", std::llround(a.largest_allocation_bytes)},
            {"max_alloc_bytes", optional(a.card.max_alloc_bytes)},
            {"max_context_tokens", optional(a.max_context_tokens)},
            {"max_batch", optional(a.max_batch)},
            {"cards_needed", optional(a.cards_needed)},
            {"decode_tokens_per_second_ceiling", optional(a.decode_ceiling)},
            {"decode", decode},
            {"measured", figures},
            {"notes", a.notes}};
}

std::string fit_table(const Answer &a)
{
    const Model &m = a.model;
    const Workload &w = a.workload;
    std::string out =
        fmt::format("{}: {:.4g}e9 parameters ({}), from {}\n", m.name, a.parameters / 1e9, m.architecture, m.source);
    if (m.experts > 1)
        out += fmt::format("  mixture of {:g} experts, {:g} a token: {:.4g}e9 parameters read a token\n", m.experts,
                           m.experts_per_token, a.active_parameters / 1e9);
    out += fmt::format("{}, {} weights", to_string(w.mode), to_string(w.dtype));
    if (w.mode == Mode::inference) out += fmt::format(", {} KV cache", to_string(w.kv_dtype));
    if (w.mode == Mode::training)
        out += fmt::format(", {}{}", to_string(w.optimizer), w.checkpointing ? ", activations recomputed" : "");
    out += fmt::format(", batch {:g}, context {:g} tokens, {:g} card{}\n", w.batch, w.context, w.cards,
                       w.cards == 1 ? "" : "s");
    out += fmt::format("against {} ({}), {}\n\n", a.card.name, a.card.device, a.card.measured);
    out += fmt::format("{:<18} {:>10} {:>10}  {}\n", "part (one card)", "GiB", "% of card", "formula");
    for (const Part &p : a.parts)
        out += fmt::format("{:<18} {:>10} {:>9.1f}%  {}\n", p.name, gib(p.bytes), 100 * p.bytes / a.available_bytes,
                           p.formula);
    out +=
        fmt::format("{:<18} {:>10} {:>9.1f}%\n", "total", gib(a.total_bytes), 100 * a.total_bytes / a.available_bytes);
    out += fmt::format("{:<18} {:>10} {:>9.1f}%  {}\n\n", "card", gib(a.available_bytes), 100.0, a.card.available_rule);
    for (const std::string &u : a.unknown)
        out += "not counted: " + u + "\n";
    if (a.fits)
        out += fmt::format("fits: {} GiB to spare\n", gib(a.available_bytes - a.total_bytes));
    else
        for (const std::string &r : a.reasons)
            out += "does not fit: " + r + "\n";
    if (a.max_context_tokens)
        out += fmt::format("longest context that fits at batch {:g}: {:g} tokens\n", w.batch, *a.max_context_tokens);
    if (a.max_batch) out += fmt::format("largest batch that fits at context {:g}: {:g}\n", w.context, *a.max_batch);
    if (a.cards_needed)
        out += fmt::format("cards of this kind the job needs: {:g}\n", *a.cards_needed);
    else
        out += "no number of these cards holds it: the runtime's share alone fills one\n";
    if (a.decode_ceiling) {
        out += fmt::format("decode ceiling: {:.1f} tokens/s ({:.1f} GB/s read x {:g} / {:.3g} GB read a step)\n",
                           *a.decode_ceiling, a.card.read_gb_per_s, w.batch * w.cards, a.bytes_read_per_step / 1e9);
        if (a.host_decode_ceiling) {
            // Integrated and CPU devices can read slower than the host's own RAM.
            const double slower = *a.decode_ceiling / *a.host_decode_ceiling;
            out += fmt::format("served from host RAM ({:.1f} GB/s read, {}): {:.1f} tokens/s, {:.1f} x {}\n",
                               *a.card.host_read_gb_per_s, a.card.host_device, *a.host_decode_ceiling,
                               slower >= 1 ? slower : 1 / slower, slower >= 1 ? "slower" : "faster");
        } else
            out +=
                "served from host RAM: no host:0 read figure beside this card (--result with a host:0 run has one)\n";
    }
    out += "\nmeasured figures used:\n";
    for (const Figure &f : a.card.figures)
        out += fmt::format("  {:<34} {:>16.6g} {:<6} {} {}\n", f.name, f.value, f.unit, f.device, f.result_id);
    for (const std::string &note : a.notes)
        out += "note: " + note + "\n";
    return out;
}

} // namespace vrb::fit
