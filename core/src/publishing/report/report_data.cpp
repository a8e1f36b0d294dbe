// The page's data: the sets, each card with its sections, the overlays and the VRAM
// against RAM table, as one JSON document the page's script draws.
#include "builders.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/html_report.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result.hpp>
#include <vrambench/core/results/schema.hpp>

#include <fmt/format.h>

namespace vrb {

std::vector<ReportInput> read_report_inputs(const std::vector<std::filesystem::path> &files)
{
    if (files.empty()) throw UsageError("report needs at least one result set");
    std::vector<ReportInput> inputs;
    for (const auto &file : files) {
        nlohmann::json set = read_result_file(file);
        if (const auto violation = validate_result_json(set))
            throw UsageError(fmt::format("{}: does not match schema v{}: at {}: {}", file.string(), schema_version,
                                         violation->path, violation->message));
        inputs.push_back({file.filename().string(), std::move(set)});
    }
    return inputs;
}

nlohmann::json report_data(const std::vector<ReportInput> &sets)
{
    using report::json;
    if (sets.empty()) throw UsageError("report needs at least one result set");
    std::vector<report::Card> cards;
    json set_list = json::array();
    for (const ReportInput &input : sets) {
        // The cards point into the sets, never into copies of them.
        const auto found = input.set.find("devices");
        if (found == input.set.end() || !found->is_array() || found->empty())
            throw UsageError(
                fmt::format("{}: the result set measured no device, so there is nothing to report", input.name));
        const json &run = object_or_empty(input.set, "run");
        set_list.push_back({{"name", input.name},
                            {"started", text_or(run, "started", "")},
                            {"suite", text_or(run, "suite", "")},
                            {"status", text_or(run, "status", "")},
                            {"devices", found->size()}});
        for (const json &d : *found) {
            report::Card card{&input.set, &d, text_or(d, "id", ""), ""};
            const std::string name = d.value("name", json()).is_string() ? d["name"].get<std::string>() : "unknown";
            card.label = fmt::format("{} ({})", name, card.id);
            if (sets.size() > 1) card.label += ", " + input.name;
            cards.push_back(std::move(card));
        }
    }
    json card_list = json::array();
    for (const report::Card &card : cards) {
        card_list.push_back({{"label", card.label},
                             {"key", card.device->value("key", json())},
                             {"sections", report::card_sections(card)}});
        card_list.back()["sections"].push_back(report::model_fit_section({card}));
        card_list.back()["sections"].push_back(report::rank_section(card, cards));
    }
    json overlays = report::overlay_sections(cards);
    for (json &section : report::under_load_sections(cards))
        overlays.push_back(std::move(section));
    json data = {{"title", sets.size() == 1 ? "vrambench report: " + sets.front().name
                                            : fmt::format("vrambench report: {} result sets", sets.size())},
                 {"sets", set_list},
                 {"cards", card_list},
                 {"overlays", std::move(overlays)},
                 {"vram_against_ram", report::vram_against_ram(cards)}};

    // Every chart gets an id the page's status names it by.
    std::size_t next = 0;
    auto number = [&next](json &sections) {
        for (json &section : sections)
            for (json &chart : section["charts"])
                chart["id"] = fmt::format("chart-{}", next++);
    };
    for (json &card : data["cards"])
        number(card["sections"]);
    number(data["overlays"]);
    data["chart_count"] = next;
    return data;
}

std::size_t report_chart_points(const nlohmann::json &chart)
{
    std::size_t points = 0;
    for (const auto &series : array_or_empty(chart, "series"))
        points += array_or_empty(series, "points").size();
    return points;
}

} // namespace vrb
