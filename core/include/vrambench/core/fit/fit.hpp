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
    // Decode ceilings in tokens a second (inference only): the card's, host RAM's.
    std::optional<double> decode_ceiling, host_decode_ceiling;
    double bytes_read_per_step = 0;
    std::vector<std::string> notes;
};

// Throws UsageError for a workload the model cannot have: training at 8 bits or fewer,
// zero or absurd batch, context or cards, training activations without --heads.
Answer fit_model(const Model &model, const Workload &workload, const Card &card);

// Fills in the defaults that depend on the model: the context (the model's own, else
// default_context_tokens) and the KV cache's dtype (the weights' at 16 or 32 bits, fp16
// for quantized weights).
Workload complete_workload(Workload workload, const Model &model, bool context_given, bool kv_dtype_given);

nlohmann::json fit_json(const Answer &answer);
std::string fit_table(const Answer &answer);

} // namespace vrb::fit
