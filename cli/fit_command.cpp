// `vrambench fit MODEL`: will this model fit on this card, and how fast can it decode,
// from measured figures. The core answers (core/fit); this file parses and prints.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/fit.hpp>
#include <vrambench/core/fit/measure.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <memory>
#include <unistd.h>

namespace vrb::cli {

namespace {

struct FitOptions {
    std::string model;
    std::string dtype = "fp16", kv_dtype, mode = "inference", optimizer = "adamw", format = "table";
    std::string attention = "memory-efficient", offload;
    double batch = 1, context = 0, cards = 1;
    bool checkpointing = false;
    fit::ShapeOptions shape;
    std::vector<std::string> results;
    std::string device, memory, bandwidth;
    std::vector<std::string> plugins;
    double timeout = 600;
    CLI::Option *context_option = nullptr, *kv_dtype_option = nullptr;
};

DiscoveryOptions discovery_of(const FitOptions &o)
{
    DiscoveryOptions discovery;
    for (const auto &p : o.plugins)
        discovery.extra_plugins.emplace_back(p);
    return discovery;
}

// Whether a set holds a card (a device not on the host backend), or the device asked for.
bool holds_card(const nlohmann::json &set, const std::string &device)
{
    for (const auto &d : set.value("devices", nlohmann::json::array()))
        if (device.empty() ? d.value("backend", "") != "host" : d.value("id", "") == device) return true;
    return false;
}

// The card from the sets given: the first holding a card (or --device); host RAM's read
// from that set, else another given, else measured now on this machine, and said so.
fit::Card card_from_sets(const FitOptions &o, bool wants_host)
{
    std::vector<nlohmann::json> sets;
    for (const std::string &file : o.results) {
        sets.push_back(read_result_file(file));
        if (const auto violation = validate_result_json(sets.back()))
            throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file, schema_version,
                                         violation->path, violation->message));
    }
    std::size_t chosen = 0;
    for (std::size_t i = 0; i < sets.size(); ++i)
        if (holds_card(sets[i], o.device)) {
            chosen = i;
            break;
        }
    fit::Card card = fit::card_from_result_set(sets[chosen], o.results[chosen], o.device);
    for (std::size_t i = 0; i < sets.size() && !card.host_read_gb_per_s; ++i)
        if (i != chosen)
            if (const auto host = fit::host_read_in_set(sets[i]))
                fit::set_host_read(card, *host, "the result set " + o.results[i]);
    if (!card.host_read_gb_per_s && wants_host) {
        if (isatty(STDERR_FILENO) == 1) std::fprintf(stderr, "vrambench fit: measuring host:0 (bandwidth.stream)...\n");
        if (const auto host = fit::measure_host_read(discovery_of(o), o.timeout))
            fit::set_host_read(card, *host, "measured now on this machine (host:0, bandwidth.stream)");
        else
            card.notes.push_back("host:0's stream read could not be measured on this machine");
    }
    return card;
}

fit::Card card_of(const FitOptions &o, bool wants_host, bool wants_link)
{
    const bool by_hand = !o.memory.empty() || !o.bandwidth.empty();
    if (by_hand && (!o.results.empty() || !o.device.empty()))
        throw UsageError("fit is measured against one of: --result SET.json [--device ID], --device ID, or --memory "
                         "SIZE --bandwidth RATE; not --memory or --bandwidth beside --result or --device");
    if (o.results.size() > 2) throw UsageError("--result is given at most twice: a card's set and a host's set");
    if (by_hand) {
        if (o.memory.empty())
            throw UsageError("--bandwidth needs --memory: the card's memory and its read bandwidth go together");
        if (o.bandwidth.empty() && wants_host)
            throw UsageError("--memory and --bandwidth go together: inference's decode ceiling needs the card's read "
                             "bandwidth");
        const double memory = fit::parse_fit_bytes(o.memory, "--memory");
        return fit::card_by_hand(memory, o.bandwidth.empty() ? 0 : fit::parse_bandwidth(o.bandwidth));
    }
    if (!o.results.empty()) return card_from_sets(o, wants_host);
    if (!o.device.empty()) {
        const DiscoveryOptions discovery = discovery_of(o);
        // A progress line, as run's: only when a person watches stderr.
        if (isatty(STDERR_FILENO) == 1)
            std::fprintf(stderr, "vrambench fit: measuring %s (%s%s)...\n", o.device.c_str(),
                         fmt::format("{}", fmt::join(fit::fit_probes(), ", ")).c_str(),
                         wants_link ? ", memory.kinds" : "");
        return fit::measure_card(o.device, discovery, o.timeout, wants_link);
    }
    throw UsageError("fit needs a card to measure against: --result SET.json [--device ID], --device ID (measured "
                     "now), or --memory SIZE --bandwidth RATE");
}

int run_fit(const FitOptions &o)
{
    fit::Workload w;
    w.dtype = fit::parse_dtype(o.dtype, "--dtype");
    w.mode = fit::parse_mode(o.mode);
    w.optimizer = fit::parse_optimizer(o.optimizer);
    if (!o.kv_dtype.empty()) w.kv_dtype = fit::parse_dtype(o.kv_dtype, "--kv-dtype");
    w.batch = o.batch;
    w.context = o.context;
    w.cards = o.cards;
    w.checkpointing = o.checkpointing;
    w.attention = fit::parse_attention(o.attention);
    std::optional<fit::OffloadRequest> offload;
    if (!o.offload.empty())
        offload = o.offload == "auto" ? fit::OffloadRequest{true, 0}
                                      : fit::OffloadRequest{false, fit::parse_fit_bytes(o.offload, "--offload")};
    const fit::Model model = fit::resolve_model(o.model, o.shape);
    w = fit::complete_workload(w, model, o.context_option->count() > 0, o.kv_dtype_option->count() > 0);
    const fit::Card card = card_of(o, w.mode == fit::Mode::inference, offload.has_value());
    const fit::Answer answer = fit::fit_model(model, w, card, offload);
    const std::string out = o.format == "json" ? fit::fit_json(answer).dump(2) + "\n" : fit::fit_table(answer);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return answer.fits ? 0 : static_cast<int>(ExitCode::below_threshold);
}

} // namespace

void add_fit_command(CLI::App &app)
{
    auto o = std::make_shared<FitOptions>();
    auto *fit = app.add_subcommand("fit", "Will a model fit on a card, and how fast can it decode: its memory part by "
                                          "part against measured capacity and bandwidth");
    fit->add_option("model", o->model,
                    "A Hugging Face config.json (or its folder), a catalogued name (llama-65b, mixtral-8x7b, ...) or "
                    "a parameter count (65B)")
        ->required();
    fit->add_option("--dtype", o->dtype, "Weights: fp32, bf16, fp16, fp8, int8 or int4 (default fp16)");
    fit->add_option("--mode", o->mode, "inference (default) or training");
    fit->add_option("--optimizer", o->optimizer, "Training: adam, adamw (default), sgd, adafactor or adam-8bit");
    fit->add_option("--batch", o->batch, "Sequences at once (default 1)");
    o->context_option = fit->add_option("--context", o->context,
                                        "Tokens a sequence holds (default: inference the model's context, else 4096; "
                                        "training the smaller of the model's and 4096)");
    o->kv_dtype_option =
        fit->add_option("--kv-dtype", o->kv_dtype, "The KV cache's dtype (default: the weights', fp16 when quantized)");
    fit->add_flag("--checkpointing", o->checkpointing, "Training: activations recomputed (full recomputation)");
    fit->add_option("--attention", o->attention,
                    "memory-efficient (default: FlashAttention and its kin, no heads x context^2 scores kept) or "
                    "eager (the scores kept)");
    fit->add_option("--offload", o->offload,
                    "Inference: hold weights in host memory, what does not fit (auto) or this many bytes (20GB, "
                    "20GiB); the decode ceiling over the link and on the host");
    fit->add_option("--cards", o->cards, "The model split evenly over this many cards of the kind (default 1)");
    fit->add_option("--format", o->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
    fit->add_option("--result", o->results,
                    "Judge against this result set's figures; given twice, a card's set and a host's (host RAM's "
                    "read)");
    fit->add_option("--device", o->device,
                    "The card: in --result's set, or measured now (capacity.report, capacity.total, max-alloc, "
                    "fragmentation, a stream read)");
    fit->add_option("--memory", o->memory,
                    "By hand: the card's memory (80GB = 80e9 bytes, 80GiB = 80 x 2^30; echoed in bytes)");
    fit->add_option("--bandwidth", o->bandwidth, "By hand: its read bandwidth (2039GB/s, 3.35TB/s)");
    fit->add_option("--layers", o->shape.layers, "A parameter count's layers (for the KV cache and activations)");
    fit->add_option("--hidden", o->shape.hidden, "A parameter count's hidden size");
    fit->add_option("--heads", o->shape.heads, "A parameter count's attention heads");
    fit->add_option("--kv-heads", o->shape.kv_heads, "A parameter count's key-value heads (grouped attention)");
    fit->add_option("--head-dim", o->shape.head_dim, "A parameter count's head dimension (default hidden / heads)");
    fit->add_option("--plugin", o->plugins, "Load this backend module as well (repeatable; --device)")
        ->check(CLI::ExistingPath);
    fit->add_option("--timeout", o->timeout, "Stop a backend silent this many seconds (--device; default 600)");
    fit->footer(
        "Formulas and sources: docs/fit.md.\n"
        "Exit codes: 0 it fits; 2 bad input (a model, flag, file or device fit cannot use); 5 it does not fit.");
    set_runner(fit, [o] { return run_fit(*o); });
}

} // namespace vrb::cli
