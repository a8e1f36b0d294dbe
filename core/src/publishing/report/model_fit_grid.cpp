// Which catalogued models fit on each card of the sets, at which dtype, and how fast they
// could decode there: `fit`'s answer (core/fit) for every card and model, drawn as a grid
// and a chart of the decode ceilings.
#include "builders.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <fmt/format.h>

#include <cmath>

namespace vrb::report {

namespace {

// The grid's workload: a chat-sized context, one sequence, inference.
constexpr double grid_context = 4096;
const std::vector<fit::DType> grid_dtypes{fit::DType::fp16, fit::DType::int8, fit::DType::int4};

fit::Answer answer(const fit::CatalogueEntry &entry, fit::DType dtype, const fit::Card &card,
                   const std::optional<fit::OffloadRequest> &offload = std::nullopt)
{
    fit::Workload w;
    w.dtype = dtype;
    w = fit::complete_workload(w, entry.model, true, false);
    w.context = grid_context;
    return fit::fit_model(entry.model, w, card, offload);
}

std::string cell(const fit::Answer &a)
{
    const std::string speed = a.decode_ceiling ? fmt::format(", {} tokens/s", figure_text(*a.decode_ceiling, 1)) : "";
    if (a.fits) return fmt::format("fits, {:.1f} GiB spare{}", (a.available_bytes - a.total_bytes) / (1 << 30), speed);
    if (a.total_bytes > a.available_bytes) {
        const std::string short_by =
            fmt::format("no: {:.1f} GiB short", (a.total_bytes - a.available_bytes) / (1 << 30));
        // No count of cards holds it when the runtime's share alone fills one.
        return a.cards_needed ? fmt::format("{}; {:g} cards", short_by, *a.cards_needed)
                              : short_by + "; no number of cards holds it";
    }
    return "no: past capacity.max-alloc";
}

// The fp16 model with what does not fit held in host memory, reached one way.
std::string offload_cell(const fit::Answer &a, const std::optional<fit::Route> fit::Offload::*route)
{
    // Host memory offloaded to host memory is no answer.
    if (a.card.device.rfind("host:", 0) == 0) return "none: the device is host memory";
    if (!a.offload || !(a.offload->bytes > 0)) return "all in VRAM";
    const std::optional<fit::Route> &r = (*a.offload).*route;
    if (!a.fits)
        return fmt::format("no: {:.1f} GiB short with every weight offloaded",
                           (a.total_bytes - a.available_bytes) / (1 << 30));
    if (!r) return "no figure";
    return fmt::format("{} tokens/s, {:.1f} x {} ({:.0f}% offloaded)", figure_text(r->tokens_per_second, 1),
                       r->slower >= 1 ? r->slower : 1 / r->slower, r->slower >= 1 ? "slower" : "faster",
                       100 * a.offload->share);
}

} // namespace

json model_fit_section(const std::vector<Card> &cards)
{
    json section = make_section("Which models fit, as measured");
    std::vector<std::string> models;
    for (const auto &entry : fit::model_catalogue())
        models.push_back(entry.name);
    std::vector<std::string> columns{"card", "model", "parameters"};
    for (const fit::DType d : grid_dtypes)
        columns.push_back(std::string(fit::to_string(d)));
    columns.push_back("fp16 offloaded, over the link");
    columns.push_back("fp16 offloaded, on the host");
    json table = make_table(columns);
    json chart = make_chart(fmt::format("Decode ceiling at fp16, batch 1, context {:g} (tokens/s; in the card's "
                                        "memory or not)",
                                        grid_context),
                            "bar", category_axis("model", models), axis("tokens/s", "log"));
    std::vector<std::string> skipped;
    for (const Card &c : cards) {
        fit::Card card;
        try {
            card = fit::card_from_result_set(*c.set, c.label, c.id);
        } catch (const UsageError &e) {
            skipped.push_back(e.what());
            continue;
        }
        json points = json::array();
        for (const auto &entry : fit::model_catalogue()) {
            std::vector<std::string> row{c.label, entry.name,
                                         fmt::format("{:.1f}e9", fit::parameter_count(entry.model) / 1e9)};
            for (const fit::DType d : grid_dtypes) {
                const fit::Answer a = answer(entry, d, card);
                row.push_back(cell(a));
                if (d == fit::DType::fp16 && a.decode_ceiling)
                    points.push_back({{"x", entry.name}, {"y", *a.decode_ceiling}});
            }
            const fit::Answer offloaded = answer(entry, fit::DType::fp16, card, fit::OffloadRequest{true, 0});
            row.push_back(offload_cell(offloaded, &fit::Offload::link));
            row.push_back(offload_cell(offloaded, &fit::Offload::host));
            add_row(table, std::move(row));
        }
        add_series(chart, c.label, std::move(points));
    }
    section["notes"].push_back(fmt::format(
        "vrambench fit for every catalogued model on every card: inference, batch 1, context {:g} tokens, the KV "
        "cache at fp16. A model fits when its weights, KV cache and activations, the runtime's share and the "
        "fragmentation margin stay within the card's memory as capacity.report, capacity.total and "
        "capacity.fragmentation measured it, and its largest tensor within capacity.max-alloc; the decode ceiling is "
        "the stream read over the bytes a token reads (docs/fit.md). \"N cards\": how many of this card the model "
        "needs split evenly. The offloaded columns hold at fp16 what does not fit in host memory: over the link the "
        "card "
        "reads it there (memory.kinds' pinned read, else bandwidth.transfer's pinned host-to-device copy), on the host "
        "the host computes those layers from its own memory (host:0's stream read in the same set); each with its "
        "ratio to the ceiling all in VRAM.",
        grid_context));
    for (const std::string &why : skipped)
        section["notes"].push_back("Not in the grid: " + why);
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    if (!table["rows"].empty()) section["tables"].push_back(std::move(table));
    return section;
}

} // namespace vrb::report
