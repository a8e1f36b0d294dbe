// Each card alone against the same card under load: a figure measured while other
// devices' workers ran (run --concurrent; "ran_alongside" names them) set beside the
// same figure of the same card (by key) measured alone, from any of the sets.
#include "builders.hpp"
#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <map>
#include <set>

namespace vrb::report {

namespace {

struct Pairing {
    std::string card, figure;
    std::optional<double> alone, loaded;
    std::string unit;
    std::set<std::string> alongside;
};

// "copy, 16 B" for a stream figure, "latency" for the chase's memory plateau.
std::optional<std::pair<std::string, double>> figure_of(const json &result)
{
    if (!usable(result)) return std::nullopt;
    const std::string probe = text_or(result, "probe", "");
    if (probe == "bandwidth.stream")
        return std::pair{fmt::format("{}, {} B, {}", parameter_text(result, "operation"),
                                     parameter_number(result, "element_bytes"), parameter_text(result, "memory_kind")),
                         result["value"].get<double>()};
    if (probe == "latency.chase") {
        const auto memory = analysis::memory_latency(result);
        if (!memory) return std::nullopt; // a chase inside the caches says nothing of memory
        return std::pair{std::string("latency"), memory->ns};
    }
    return std::nullopt;
}

} // namespace

json under_load_sections(const std::vector<Card> &cards)
{
    // (card key, figure) -> both sides; the map keeps cards and figures in a stable order.
    std::map<std::pair<std::string, std::string>, Pairing> pairs;
    for (const Card &card : cards) {
        const std::string key =
            card.device->value("key", json()).is_string() ? (*card.device)["key"].get<std::string>() : card.id;
        for (const auto &r : array_or_empty(*card.set, "results")) {
            if (text_or(r, "device", "") != card.id) continue;
            const auto figure = figure_of(r);
            if (!figure) continue;
            Pairing &p = pairs[{key, figure->first}];
            if (p.card.empty()) {
                p.card = card.device->value("name", json()).is_string() ? (*card.device)["name"].get<std::string>()
                                                                        : card.id;
                p.card += " (" + key + ")";
                p.figure = figure->first;
                p.unit = text_or(r, "unit", "");
            }
            const json alongside = array_or_empty(r, "ran_alongside");
            if (alongside.is_array() && !alongside.empty()) {
                if (!p.loaded) p.loaded = figure->second;
                for (const auto &other : alongside)
                    if (other.is_string()) p.alongside.insert(other.get<std::string>());
            } else if (!p.alone) {
                p.alone = figure->second;
            }
        }
    }
    json table = make_table({"card", "figure", "alone", "under load", "under load / alone", "ran alongside"});
    std::vector<std::string> labels;
    json alone_points = json::array(), loaded_points = json::array();
    for (const auto &entry : pairs) {
        const auto &p = entry.second; // a lambda below captures it, which a structured binding cannot be
        if (!p.alone || !p.loaded) continue;
        const auto text = [&](double v) { return fmt::format("{} {}", figure_text(v, 1), p.unit); };
        std::string others;
        for (const auto &o : p.alongside)
            others += (others.empty() ? "" : ", ") + o;
        add_row(table, {p.card, p.figure, text(*p.alone), text(*p.loaded),
                        *p.alone > 0 ? fmt::format("{:.3f}", *p.loaded / *p.alone) : "-", others});
        if (p.unit == "GB/s") {
            const std::string label = p.card + ": " + p.figure;
            labels.push_back(label);
            alone_points.push_back({{"x", label}, {"y", *p.alone}});
            loaded_points.push_back({{"x", label}, {"y", *p.loaded}});
        }
    }
    json sections = json::array();
    if (table["rows"].empty()) return sections;
    json section = make_section("Each card alone and under load");
    json chart = make_chart("Stream bandwidth, alone and while the other devices ran", "bar",
                            category_axis("card and figure", labels), axis("GB/s", "linear"));
    add_series(chart, "alone", std::move(alone_points));
    add_series(chart, "under load", std::move(loaded_points));
    if (has_points(chart)) section["charts"].push_back(std::move(chart));
    section["tables"].push_back(std::move(table));
    section["notes"] = {"Under load: measured by run --concurrent while the devices named ran (their workers started "
                        "together). Alone: the same figure of the same card (by key) measured with nothing beside it. "
                        "Latency is the chase's headline figure; a ratio below 1 is slower under load for bandwidth, "
                        "above 1 for latency."};
    sections.push_back(std::move(section));
    return sections;
}

} // namespace vrb::report
