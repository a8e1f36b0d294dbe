// `vrambench fit`: a model's memory, part by part, against the memory and bandwidth a
// card was measured to give. The answer is JSON first (fit_json); the table and the
// report's grid are drawn from it. Formulas and sources: docs/fit.md.
#pragma once

#include <vrambench/core/fit/card.hpp>
#include <vrambench/core/fit/memory_parts.hpp>
#include <vrambench/core/fit/model.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb::fit {

// --offload: weights held in host memory, not on the card (inference on one card).
struct OffloadRequest {
    bool automatic = false; // what does not fit on the card
    double bytes = 0;       // else this many bytes of the weights
};

// One way a step reaches the offloaded weights, with the measured rate it is drawn from.
struct Route {
    std::string name;     // "link", "host"
    std::string how;      // in words
    Figure figure;        // the rate (GB/s) and the result it comes from
    std::string measured; // where the figure was measured
    double tokens_per_second = 0;
    double slower = 0; // the all-in-VRAM ceiling over this one
};

struct Offload {
    std::string rule; // how the bytes were chosen
    double bytes = 0; // weights held in host memory
    double share = 0; // of the weights
    // A step reads this share of the weights it reads from host memory, the rest and the
    // KV cache from the card.
    double host_bytes_read_per_step = 0, card_bytes_read_per_step = 0;
    std::optional<Route> link, host;
    std::vector<std::string> missing; // a route without a figure, and why
};

struct Answer {
    Model model;
    Workload workload;
    Card card;
    double parameters = 0, active_parameters = 0;
    std::vector<Part> parts; // per card: the model's parts / cards, then runtime and fragmentation
    std::vector<std::string> unknown;
    double total_bytes = 0;     // every part, on one card
    double available_bytes = 0; // the card's memory the parts are set against
    double largest_allocation_bytes = 0;
    bool fits = false;
    std::vector<std::string> reasons; // why it does not fit
    // Largest context (at --batch) and batch (at --context) that fit; nullopt when the
    // shape cannot tell (a bare count); 0 when not even one token or sequence fits.
    std::optional<double> max_context_tokens, max_batch;
    std::optional<double> cards_needed; // nullopt: no number of cards holds it
    // Decode ceilings in tokens a second (inference only): everything in the card's
    // memory, everything in host RAM read by the host. Absent without a read figure.
    std::optional<double> decode_ceiling, host_decode_ceiling;
    double bytes_read_per_step = 0, weight_bytes_read_per_step = 0;
    double experts_read_per_layer = 1; // a mixture of experts at this batch
    std::optional<Offload> offload;
    std::vector<std::string> notes;
};

// Throws UsageError for a workload the model cannot have: training at 8 bits or fewer,
// zero or absurd batch, context or cards, eager attention without --heads, an offload in
// training, over several cards or past the weights.
Answer fit_model(const Model &model, const Workload &workload, const Card &card,
                 const std::optional<OffloadRequest> &offload = std::nullopt);

// Fills in the defaults that depend on the model and the mode: the context (inference:
// the model's own, else default_context_tokens; training: the smaller of the two), and
// the KV cache's dtype (the weights' at 16 or 32 bits, fp16 for quantized weights).
Workload complete_workload(Workload workload, const Model &model, bool context_given, bool kv_dtype_given);

nlohmann::json fit_json(const Answer &answer);
std::string fit_table(const Answer &answer);

} // namespace vrb::fit
