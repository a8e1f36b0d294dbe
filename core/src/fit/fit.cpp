// The answer: the parts on one card against its memory, the limits that fit, and the
// decode ceiling from the measured read bandwidth.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <fmt/format.h>

#include <cmath>

namespace vrb::fit {

namespace {

// Past these a value is taken for a mistake (docs/fit.md, "Bad input"); most_context is
// the model's (a config's max_position_embeddings is held to it too).
constexpr double most_batch = 1 << 24, most_cards = 1 << 20;

struct OnOneCard {
    std::vector<Part> parts;
    std::vector<std::string> unknown;
    double total = 0, largest = 0;
};

// `offloaded` bytes of the weights are held in host memory instead (one card only).
OnOneCard on_one_card(const Model &model, const Workload &w, const Card &card, double offloaded = 0,
                      Formulas formulas = Formulas::written)
{
    const bool say = formulas == Formulas::written;
    OnOneCard out;
    Parts parts = memory_parts(model, w, formulas);
    out.unknown = std::move(parts.unknown);
    const double dynamic = parts.comes_and_goes() / w.cards;
    for (Part &p : parts.parts) {
        if (w.cards > 1) {
            p.bytes /= w.cards;
            if (say) p.formula += fmt::format(", / {:g} cards", w.cards);
        }
        if (p.name == "weights" && offloaded > 0) {
            p.bytes -= offloaded;
            if (say)
                p.formula +=
                    fmt::format(", less {:.2f} GiB held in host memory (--offload)", offloaded / double(1ull << 30));
        }
        out.parts.push_back(std::move(p));
    }
    out.parts.push_back({"runtime", card.card_bytes - card.available_bytes,
                         !say ? std::string()
                              : fmt::format("the card's {:.2f} GiB less what one process can hold ({})",
                                            card.card_bytes / double(1ull << 30), card.available_rule),
                         "capacity.report and capacity.total (docs/capacity.md)", false});
    out.parts.push_back(
        {"fragmentation", card.fragmentation_lost_share * dynamic,
         !say ? std::string()
              : fmt::format("{:.1f}% lost to fragmentation x {:.3g} GiB that comes and goes (activations, "
                            "logits, KV cache)",
                            card.fragmentation_lost_share * 100, dynamic / double(1ull << 30)),
         "capacity.fragmentation: 1 - its largest block after fragmenting / the block asked for", false});
    for (const Part &p : out.parts)
        out.total += p.bytes;
    out.largest = largest_allocation_bytes(model, w);
    return out;
}

bool fits(const Model &model, const Workload &w, const Card &card, double offloaded = 0)
{
    const OnOneCard one = on_one_card(model, w, card, offloaded, Formulas::left_out);
    return one.total <= card.card_bytes && (!card.max_alloc_bytes || one.largest <= *card.max_alloc_bytes);
}

// The largest value in [1, most] of the workload's `field` that fits: parts only grow
// with it. 0 when 1 does not fit.
double largest_that_fits(const Model &model, Workload w, double Workload::*field, double most, const Card &card,
                         double offloaded)
{
    w.*field = 1;
    if (!fits(model, w, card, offloaded)) return 0;
    double low = 1, high = most;
    w.*field = high;
    if (fits(model, w, card, offloaded)) return high;
    while (high - low > 1) {
        const double middle = std::floor((low + high) / 2);
        w.*field = middle;
        (fits(model, w, card, offloaded) ? low : high) = middle;
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

// A number as JSON: whole bytes as an integer while a double holds them exactly, past
// 2^53 a double; never a wrapped integer, and null for what is not finite (which no
// bounded input makes; the bounds test checks).
nlohmann::json number(double v)
{
    if (!std::isfinite(v)) return nullptr;
    constexpr double exact = 9007199254740992.0; // 2^53
    if (std::fabs(v) < exact && v == std::floor(v)) return static_cast<int64_t>(v);
    return v;
}

nlohmann::json bytes(double v)
{
    return number(std::round(v));
}

// Tokens a second when a step reads `card_bytes` from the card at its read and
// `host_bytes` at `host_gb_per_s`, one after the other (a layer waits for the one before).
double split_ceiling(double batch, double card_bytes, double card_gb_per_s, double host_bytes, double host_gb_per_s)
{
    return batch / (card_bytes / (card_gb_per_s * 1e9) + host_bytes / (host_gb_per_s * 1e9));
}

Offload plan_offload(const Model &model, const Workload &w, const Card &card, const OffloadRequest &request,
                     double weight_bytes)
{
    Offload o;
    if (request.automatic) {
        const double over = on_one_card(model, w, card).total - card.card_bytes;
        o.bytes = std::clamp(over, 0.0, weight_bytes);
        o.rule = over <= 0             ? "auto: everything fits on the card, nothing is offloaded"
                 : over > weight_bytes ? "auto: all of the weights, and still the KV cache and the rest do not fit"
                                       : "auto: the weights that do not fit on the card";
    } else {
        if (request.bytes > weight_bytes)
            throw UsageError(fmt::format("--offload {:.0f} B: more than the {:.0f} B of weights ({} GiB)",
                                         request.bytes, weight_bytes, gib(weight_bytes)));
        o.bytes = request.bytes;
        o.rule = fmt::format("--offload {:.0f} B ({} GiB)", request.bytes, gib(request.bytes));
    }
    o.share = weight_bytes > 0 ? o.bytes / weight_bytes : 0;
    return o;
}

void add_routes(Offload &o, const Answer &a)
{
    const double weights = a.weight_bytes_read_per_step;
    o.host_bytes_read_per_step = o.share * weights;
    o.card_bytes_read_per_step = a.bytes_read_per_step - o.host_bytes_read_per_step;
    if (!(o.bytes > 0)) return;
    const Card &card = a.card;
    if (!a.decode_ceiling) {
        o.missing.push_back("both routes: the card has no trusted read figure, so no ceiling is drawn");
        return;
    }
    const auto route = [&](std::string name, std::string how, const Figure &f, std::string measured) {
        Route r{std::move(name), std::move(how), f, std::move(measured)};
        r.tokens_per_second = split_ceiling(a.workload.batch, o.card_bytes_read_per_step, card.read_gb_per_s,
                                            o.host_bytes_read_per_step, f.value);
        r.slower = *a.decode_ceiling / r.tokens_per_second;
        return r;
    };
    if (card.link_read)
        o.link = route("link", "the card reads the offloaded weights from host memory over its link", *card.link_read,
                       card.measured);
    else
        o.missing.push_back("over the link: the card has no memory.kinds pinned read nor bandwidth.transfer "
                            "host-to-device pinned figure (`vrambench run --device " +
                            card.device + " --probe memory.kinds --probe bandwidth.transfer`)");
    if (card.host_read_gb_per_s) {
        // The figure as the card lists it, with its result id.
        Figure host{"bandwidth.stream read (host RAM)", *card.host_read_gb_per_s, "GB/s", card.host_device, ""};
        for (const Figure &f : card.figures)
            if (f.device == card.host_device && f.unit == "GB/s" && f.value == *card.host_read_gb_per_s) host = f;
        o.host = route("host", "the host computes the offloaded layers from its own memory", host, card.host_measured);
    } else
        o.missing.push_back("on the host: no host:0 stream read (give a host result set with a second --result, or "
                            "let fit measure host:0 now)");
}

} // namespace

Workload complete_workload(Workload w, const Model &model, bool context_given, bool kv_dtype_given)
{
    if (!context_given && w.mode == Mode::training) {
        // A trainer's sequence length, not the longest the model was extended to: the
        // context a model was trained for on most of its tokens.
        w.context = std::min(model.context_tokens.value_or(default_context_tokens), default_context_tokens);
        w.context_rule = model.context_tokens
                             ? fmt::format("training's default: the smaller of the model's {:g} and {:g}; --context "
                                           "sets it",
                                           *model.context_tokens, default_context_tokens)
                             : fmt::format("training's default, {:g}; --context sets it", default_context_tokens);
    } else if (!context_given) {
        w.context = model.context_tokens.value_or(default_context_tokens);
        w.context_rule = model.context_tokens
                             ? "the model's own; --context sets it"
                             : fmt::format("{:g}: the model names none; --context sets it", default_context_tokens);
    }
    if (!kv_dtype_given) w.kv_dtype = (w.dtype == DType::fp32 || w.dtype == DType::bf16) ? w.dtype : DType::fp16;
    return w;
}

Answer fit_model(const Model &model, const Workload &w, const Card &card, const std::optional<OffloadRequest> &offload)
{
    check_count(w.batch, "--batch", most_batch);
    check_count(w.context, "--context", most_context);
    check_count(w.cards, "--cards", most_cards);
    if (w.mode == Mode::training && w.dtype != DType::fp32 && w.dtype != DType::bf16 && w.dtype != DType::fp16)
        throw UsageError(fmt::format("--mode training with --dtype {}: training keeps its weights in fp32, bf16 or "
                                     "fp16 (quantized weights with adapters are not modelled)",
                                     to_string(w.dtype)));
    if (w.attention == Attention::eager && model.has_activation_shape() && model.heads == 0)
        throw UsageError("--attention eager needs --heads: the attention scores a layer keeps grow with heads x "
                         "context^2");
    if (!(card.card_bytes > 0) || !(card.read_gb_per_s >= 0))
        throw UsageError("the card's memory must be positive and its read bandwidth not negative");
    if (offload && w.mode == Mode::training)
        throw UsageError("--offload is for inference: it answers the decode ceiling with weights in host memory");
    if (offload && w.cards > 1)
        throw UsageError("--offload with --cards: weights in host memory are modelled for one card");

    Answer a;
    a.model = model;
    a.workload = w;
    a.card = card;
    a.parameters = parameter_count(model);
    a.active_parameters = active_parameter_count(model);
    const double weight_bytes = parameter_count(model) * bytes_per_weight(w.dtype);
    if (offload) a.offload = plan_offload(model, w, card, *offload, weight_bytes);
    const double offloaded = a.offload ? a.offload->bytes : 0;
    OnOneCard one = on_one_card(model, w, card, offloaded);
    a.parts = std::move(one.parts);
    a.unknown = std::move(one.unknown);
    a.total_bytes = one.total;
    a.largest_allocation_bytes = one.largest;
    a.available_bytes = card.card_bytes;
    a.fits = fits(model, w, card, offloaded);
    if (a.total_bytes > a.available_bytes)
        a.reasons.push_back(fmt::format("needs {} GiB of the card's {} GiB: {} GiB short", gib(a.total_bytes),
                                        gib(a.available_bytes), gib(a.total_bytes - a.available_bytes)));
    if (card.max_alloc_bytes && a.largest_allocation_bytes > *card.max_alloc_bytes)
        a.reasons.push_back(fmt::format("its largest single allocation, {} GiB, is past the {} GiB capacity.max-alloc "
                                        "measured",
                                        gib(a.largest_allocation_bytes), gib(*card.max_alloc_bytes)));
    if (model.has_kv_shape() || model.has_activation_shape()) {
        a.max_context_tokens = largest_that_fits(model, w, &Workload::context, most_context, card, offloaded);
        a.max_batch = largest_that_fits(model, w, &Workload::batch, most_batch, card, offloaded);
    }
    a.cards_needed = fewest_cards(model, w, card);
    if (w.mode == Mode::inference) {
        a.experts_read_per_layer = experts_read_per_layer(model, w.batch);
        a.weight_bytes_read_per_step = weight_bytes_read_per_decode_step(model, w);
        a.bytes_read_per_step = bytes_read_per_decode_step(model, w);
        const auto ceiling = [&](double gb_per_s) {
            return gb_per_s * 1e9 * w.batch * w.cards / a.bytes_read_per_step;
        };
        if (card.read_gb_per_s > 0) a.decode_ceiling = ceiling(card.read_gb_per_s);
        if (card.host_read_gb_per_s) a.host_decode_ceiling = ceiling(*card.host_read_gb_per_s);
        if (a.offload) add_routes(*a.offload, a);
    }
    if (!w.context_rule.empty()) a.notes.push_back(fmt::format("context {:g} tokens: {}", w.context, w.context_rule));
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

namespace {

std::string decode_formula(const Answer &a)
{
    const Model &m = a.model;
    std::string weights = "the weights the batch reads once";
    if (m.experts > 1)
        weights += fmt::format(" (of each layer's {:g} experts the {:.4g} the batch routes to: E (1 - (1 - k/E)^b) = "
                               "{:g} x (1 - (1 - {:g}/{:g})^{:g}))",
                               m.experts, a.experts_read_per_layer, m.experts, m.experts_per_token, m.experts,
                               a.workload.batch);
    for (const Tensor &t : m.tensors)
        if (t.input_embedding) weights += ", one row of the input embedding a sequence, the output head whole";
    if (m.tied_embeddings && !m.tensors.empty()) weights += ", the tied embedding whole (it is the head)";
    return "tokens/s <= read bandwidth x batch x cards / bytes read a step: " + weights +
           ", every sequence's KV cache at the context";
}

nlohmann::json route_json(const std::optional<Route> &r)
{
    if (!r) return nullptr;
    return {{"how", r->how},
            {"read_gb_per_s", number(r->figure.value)},
            {"figure", r->figure.name},
            {"device", r->figure.device},
            {"result_id", r->figure.result_id},
            {"measured", r->measured},
            {"tokens_per_second", number(r->tokens_per_second)},
            {"slower_than_all_in_vram", number(r->slower)}};
}

std::string times(double slower)
{
    return fmt::format("{:.1f} x {}", slower >= 1 ? slower : 1 / slower, slower >= 1 ? "slower" : "faster");
}

} // namespace

nlohmann::json fit_json(const Answer &a)
{
    using nlohmann::json;
    const auto optional = [](const std::optional<double> &v) { return v ? number(*v) : json(nullptr); };
    json parts = json::object();
    for (const Part &p : a.parts)
        parts[p.name] = {{"bytes", bytes(p.bytes)}, {"formula", p.formula}, {"source", p.source}};
    json figures = json::array();
    for (const Figure &f : a.card.figures)
        figures.push_back({{"figure", f.name},
                           {"value", number(f.value)},
                           {"unit", f.unit},
                           {"device", f.device},
                           {"result_id", f.result_id}});
    const Model &m = a.model;
    const Workload &w = a.workload;
    json decode = nullptr;
    if (w.mode == Mode::inference)
        decode = {{"bytes_read_per_step", bytes(a.bytes_read_per_step)},
                  {"weight_bytes_read_per_step", bytes(a.weight_bytes_read_per_step)},
                  {"experts_read_per_layer", number(a.experts_read_per_layer)},
                  {"formula", decode_formula(a)},
                  {"card_tokens_per_second", optional(a.decode_ceiling)},
                  {"card_read_gb_per_s", a.card.read_gb_per_s > 0 ? number(a.card.read_gb_per_s) : json(nullptr)},
                  {"host_ram_tokens_per_second", optional(a.host_decode_ceiling)},
                  {"host_ram_read_gb_per_s", optional(a.card.host_read_gb_per_s)},
                  {"host_ram_measured", a.card.host_read_gb_per_s ? json(a.card.host_measured) : json(nullptr)},
                  {"host_ram_slower", a.host_decode_ceiling && a.decode_ceiling
                                          ? number(*a.decode_ceiling / *a.host_decode_ceiling)
                                          : json(nullptr)}};
    json offload = nullptr;
    if (a.offload)
        offload = {{"rule", a.offload->rule},
                   {"bytes", bytes(a.offload->bytes)},
                   {"share_of_weights", number(a.offload->share)},
                   {"host_bytes_read_per_step", bytes(a.offload->host_bytes_read_per_step)},
                   {"card_bytes_read_per_step", bytes(a.offload->card_bytes_read_per_step)},
                   {"formula", "tokens/s <= batch / (bytes read from the card / its read + bytes read from host "
                               "memory / the route's rate); the offloaded share of the weights a step reads comes "
                               "from host memory"},
                   {"over_the_link", route_json(a.offload->link)},
                   {"on_the_host", route_json(a.offload->host)},
                   {"missing", a.offload->missing}};
    return {{"fits", a.fits},
            {"reasons", a.reasons},
            {"model",
             {{"name", m.name},
              {"source", m.source},
              {"architecture", m.architecture},
              {"layers", number(m.layers)},
              {"hidden", number(m.hidden)},
              {"heads", number(m.heads)},
              {"kv_heads", number(m.kv_heads)},
              {"head_dim", number(m.head_dim)},
              {"vocab", number(m.vocab)},
              {"tied_embeddings", m.tied_embeddings},
              {"experts", number(m.experts)},
              {"experts_per_token", number(m.experts_per_token)},
              {"context_tokens", optional(m.context_tokens)}}},
            {"workload",
             {{"mode", to_string(w.mode)},
              {"dtype", to_string(w.dtype)},
              {"kv_dtype", to_string(w.kv_dtype)},
              {"optimizer", w.mode == Mode::training ? json(to_string(w.optimizer)) : json(nullptr)},
              {"attention", to_string(w.attention)},
              {"batch", number(w.batch)},
              {"context_tokens", number(w.context)},
              {"context_rule", w.context_rule.empty() ? json("--context") : json(w.context_rule)},
              {"checkpointing", w.checkpointing},
              {"cards", number(w.cards)}}},
            {"card",
             {{"device", a.card.device},
              {"name", a.card.name},
              {"measured", a.card.measured},
              {"available_rule", a.card.available_rule}}},
            {"parameters", bytes(a.parameters)},
            {"active_parameters", bytes(a.active_parameters)},
            {"parts", parts},
            {"unknown_parts", a.unknown},
            {"total_bytes", bytes(a.total_bytes)},
            {"available_bytes", bytes(a.available_bytes)},
            {"margin_bytes", bytes(a.available_bytes - a.total_bytes)},
            {"largest_allocation_bytes", bytes(a.largest_allocation_bytes)},
            {"max_alloc_bytes", optional(a.card.max_alloc_bytes)},
            {"max_context_tokens", optional(a.max_context_tokens)},
            {"max_batch", optional(a.max_batch)},
            {"cards_needed", optional(a.cards_needed)},
            {"decode_tokens_per_second_ceiling", optional(a.decode_ceiling)},
            {"decode", decode},
            {"offload", offload},
            {"measured", figures},
            {"notes", a.notes}};
}

std::string fit_table(const Answer &a)
{
    const Model &m = a.model;
    const Workload &w = a.workload;
    std::string out =
        fmt::format("{}: {:.4g}e9 parameters ({}), from {}\n", m.name, a.parameters / 1e9, m.architecture, m.source);
    if (m.experts > 1) {
        out += fmt::format("  mixture of {:g} experts, {:g} a token: {:.4g}e9 parameters read a token\n", m.experts,
                           m.experts_per_token, a.active_parameters / 1e9);
        if (w.mode == Mode::inference)
            out += fmt::format("  at batch {:g} a step reads {:.4g} of the {:g} experts a layer: E (1 - (1 - k/E)^b) = "
                               "{:g} x (1 - (1 - {:g}/{:g})^{:g})\n",
                               w.batch, a.experts_read_per_layer, m.experts, m.experts, m.experts_per_token, m.experts,
                               w.batch);
    }
    out += fmt::format("{}, {} weights", to_string(w.mode), to_string(w.dtype));
    if (w.mode == Mode::inference) out += fmt::format(", {} KV cache", to_string(w.kv_dtype));
    if (w.mode == Mode::training)
        out += fmt::format(", {}{}", to_string(w.optimizer), w.checkpointing ? ", activations recomputed" : "");
    out += fmt::format(", {} attention", to_string(w.attention));
    out += fmt::format(", batch {:g}, context {:g} tokens{}, {:g} card{}\n", w.batch, w.context,
                       w.context_rule.empty() ? "" : " (" + w.context_rule + ")", w.cards, w.cards == 1 ? "" : "s");
    out += fmt::format("against {} ({}), {}\n\n", a.card.name, a.card.device, a.card.measured);
    out += fmt::format("{:<18} {:>10} {:>10}  {}\n", "part (one card)", "GiB", "% of card", "formula");
    for (const Part &p : a.parts)
        out += fmt::format("{:<18} {:>10} {:>9.1f}%  {}\n", p.name, gib(p.bytes), 100 * p.bytes / a.available_bytes,
                           p.formula);
    out += fmt::format("{:<18} {:>10} {:>9.1f}%  {:.4g} B\n", "total", gib(a.total_bytes),
                       100 * a.total_bytes / a.available_bytes, a.total_bytes);
    out += fmt::format("{:<18} {:>10} {:>9.1f}%  {:.0f} B: {}\n\n", "card", gib(a.available_bytes), 100.0,
                       a.available_bytes, a.card.available_rule);
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
    if (w.mode == Mode::inference && !a.decode_ceiling)
        out += "decode ceiling: none without a trusted read figure of the card\n";
    if (a.decode_ceiling) {
        out += fmt::format("decode ceiling{}: {:.1f} tokens/s ({:.1f} GB/s read x {:g} / {:.4g} GB read a step)\n",
                           a.offload ? " with everything in VRAM" : "", *a.decode_ceiling, a.card.read_gb_per_s,
                           w.batch * w.cards, a.bytes_read_per_step / 1e9);
        if (a.host_decode_ceiling)
            // Integrated and CPU devices can read slower than the host's own RAM.
            out += fmt::format("served from host RAM ({:.1f} GB/s read, {}, {}): {:.3g} tokens/s, {}\n",
                               *a.card.host_read_gb_per_s, a.card.host_device, a.card.host_measured,
                               *a.host_decode_ceiling, times(*a.decode_ceiling / *a.host_decode_ceiling));
        else
            out += "served from host RAM: no host:0 read figure (a host result set as --result has one)\n";
    }
    if (a.offload) {
        const Offload &o = *a.offload;
        out += fmt::format("offloaded to host memory: {} GiB, {:.1f}% of the weights ({})\n", gib(o.bytes),
                           100 * o.share, o.rule);
        if (o.bytes > 0)
            out += fmt::format("  a step reads {:.4g} GB from host memory and {:.4g} GB from the card\n",
                               o.host_bytes_read_per_step / 1e9, o.card_bytes_read_per_step / 1e9);
        for (const std::optional<Route> *r : {&o.link, &o.host})
            if (*r)
                out += fmt::format("  {}: {:.3g} tokens/s, {} than all in VRAM ({:.1f} GB/s, {} {} {}, {})\n",
                                   (*r)->how, (*r)->tokens_per_second, times((*r)->slower), (*r)->figure.value,
                                   (*r)->figure.name, (*r)->figure.device, (*r)->figure.result_id, (*r)->measured);
        for (const std::string &why : o.missing)
            out += "  no ceiling " + why + "\n";
    }
    out += "\nmeasured figures used:\n";
    for (const Figure &f : a.card.figures)
        out += fmt::format("  {:<34} {:>16.6g} {:<6} {} {}\n", f.name, f.value, f.unit, f.device, f.result_id);
    for (const std::string &note : a.notes)
        out += "note: " + note + "\n";
    return out;
}

} // namespace vrb::fit
