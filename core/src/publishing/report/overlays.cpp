// One view per probe with every card in it: the same axes, one series per card, so a
// reader sees at once where each card falls off.
#include "builders.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace vrb::report {

namespace {

// The first curve of `probe` whose operation is `operation` (any when empty).
const json *first_curve(const Card &card, const std::string &probe, const std::string &operation)
{
    for (const json *r : results_of(*card.set, card.id, probe))
        if (operation.empty() || parameter_text(*r, "operation") == operation) return r;
    return nullptr;
}

json stream_overlay(const std::vector<Card> &cards)
{
    std::vector<std::string> operations;
    for (const std::string &op : stream_operations())
        for (const Card &card : cards)
            if (widest_stream_figure(*card.set, card.id, op)) {
                operations.push_back(op);
                break;
            }
    json chart = make_chart("Stream bandwidth at each card's widest element", "bar",
                            category_axis("operation", operations), axis("GB/s", "linear"));
    for (const Card &card : cards) {
        json points = json::array();
        for (const std::string &op : operations)
            if (const auto v = widest_stream_figure(*card.set, card.id, op)) points.push_back({{"x", op}, {"y", *v}});
        add_series(chart, card.label, std::move(points));
    }
    return chart;
}

json curve_overlay(const std::vector<Card> &cards, const std::string &probe, const std::string &operation,
                   std::string title, std::string unit, std::string y_scale)
{
    json chart = make_chart(std::move(title), "line", axis("working set", "log-bytes"), axis(std::move(unit), y_scale));
    for (const Card &card : cards)
        if (const json *r = first_curve(card, probe, operation))
            add_series(chart, card.label, curve_points(*r, "working_set_bytes"));
    return chart;
}

json transfer_overlay(const std::vector<Card> &cards)
{
    json chart = make_chart("Transfer bandwidth against size, every card and direction", "line",
                            axis("bytes per transfer", "log-bytes"), axis("GB/s", "linear"));
    for (const Card &card : cards)
        for (const json *r : results_of(*card.set, card.id, "bandwidth.transfer"))
            add_series(chart, card.label + ": " + parameter_text(*r, "direction"), curve_points(*r, "transfer_bytes"));
    return chart;
}

json kinds_overlay(const std::vector<Card> &cards)
{
    std::vector<std::string> operations;
    for (const Card &card : cards)
        for (const json *r : results_of(*card.set, card.id, "memory.kinds")) {
            const std::string op = parameter_text(*r, "operation");
            if (usable(*r) && std::find(operations.begin(), operations.end(), op) == operations.end())
                operations.push_back(op);
        }
    json chart =
        make_chart("Memory kinds, every card", "bar", category_axis("operation", operations), axis("GB/s", "linear"));
    for (const Card &card : cards) {
        std::vector<std::string> kinds;
        for (const json *r : results_of(*card.set, card.id, "memory.kinds")) {
            const std::string kind = parameter_text(*r, "memory_kind");
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
        }
        for (const std::string &kind : kinds) {
            json points = json::array();
            for (const json *r : results_of(*card.set, card.id, "memory.kinds"))
                if (usable(*r) && parameter_text(*r, "memory_kind") == kind)
                    points.push_back({{"x", parameter_text(*r, "operation")}, {"y", (*r)["value"]}});
            add_series(chart, card.label + ": " + kind, std::move(points));
        }
    }
    return chart;
}

json capacity_overlay(const std::vector<Card> &cards)
{
    const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> figures{
        {"reported free", {"capacity.report", "free"}},
        {"largest allocation", {"capacity.max-alloc", ""}},
        {"total allocatable", {"capacity.total", ""}},
        {"after fragmenting", {"capacity.fragmentation", ""}}};
    std::vector<std::string> labels;
    for (const auto &f : figures)
        labels.push_back(f.first);
    json chart = make_chart("Capacity, every card", "bar", category_axis("", labels), axis("bytes", "log-bytes"));
    for (const Card &card : cards) {
        json points = json::array();
        for (const auto &[label, where] : figures)
            if (const auto v = capacity_figure(*card.set, card.id, where.first, where.second))
                points.push_back({{"x", label}, {"y", *v}});
        add_series(chart, card.label, std::move(points));
    }
    return chart;
}

} // namespace

json overlay_sections(const std::vector<Card> &cards)
{
    json sections = json::array();
    if (cards.size() < 2) return sections;
    const std::vector<std::pair<std::string, json>> views{
        {"bandwidth.stream", stream_overlay(cards)},
        {"bandwidth.sweep",
         curve_overlay(cards, "bandwidth.sweep", "read", "Read bandwidth against working-set size", "GB/s", "linear")},
        {"latency.chase",
         curve_overlay(cards, "latency.chase", "", "Load latency against working-set size", "ns", "log")},
        {"memory.kinds", kinds_overlay(cards)},
        {"bandwidth.transfer", transfer_overlay(cards)},
        {"capacity", capacity_overlay(cards)},
    };
    for (const auto &[probe, chart] : views) {
        if (!has_points(chart)) continue;
        json section = make_section(probe);
        section["charts"].push_back(chart);
        sections.push_back(std::move(section));
    }
    return sections;
}

} // namespace vrb::report
