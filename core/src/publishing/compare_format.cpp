// The comparisons as text, Markdown, CSV and JSON.
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/results/csv.hpp>
#include <vrambench/core/results/readable.hpp>

#include <fmt/format.h>

namespace vrb {

namespace {

using nlohmann::json;

std::string change_text(const ComparedFigure &f)
{
    if (f.kind == ComparedFigure::Kind::plateau) return "plateau level";
    if (!f.base || !f.other) return "no figure";
    return std::string(to_string(f.test.verdict));
}

std::string p_text(const ComparedFigure &f)
{
    return f.test.p ? fmt::format("{:.3g}", *f.test.p) : "-";
}

std::string ratio_text(const ComparedFigure &f)
{
    return f.ratio ? fmt::format("{:.3f}", *f.ratio) : "-";
}

// Both values in the unit the base's value reads best in, so they compare at a glance.
struct Values {
    std::string base, other, unit;
};

Values values_of(const ComparedFigure &f)
{
    const ReadableScale scale = readable_scale(f.base ? *f.base : f.other ? *f.other : 0, f.unit);
    return {f.base ? readable_number(*f.base, scale) : "-", f.other ? readable_number(*f.other, scale) : "-",
            scale.unit};
}

std::string figure_label(const ComparedFigure &f)
{
    if (f.kind == ComparedFigure::Kind::point) return "  at " + f.point;
    if (f.kind == ComparedFigure::Kind::plateau) return "  " + f.point;
    const std::string devices =
        f.base_device == f.other_device ? f.base_device : f.base_device + " / " + f.other_device;
    return fmt::format("{} {} on {}", f.probe, f.parameters_text, devices);
}

std::string device_pairing_text(const DevicePairing &d)
{
    return fmt::format("{} ({}) with {} [{}]", d.base_id, d.name, d.other_id, d.match);
}

std::string number(const std::optional<double> &v)
{
    return v ? json(*v).dump() : "";
}

} // namespace

std::string compare_text(const std::vector<Comparison> &comparisons)
{
    std::string out = compare_method_text() + "\n";
    for (const auto &c : comparisons) {
        out +=
            fmt::format("\nbase {}, other {}; devices matched by {}\n", c.base_file, c.other_file, to_string(c.match));
        for (const auto &d : c.devices)
            out += "  " + device_pairing_text(d) + "\n";
        if (c.devices.empty()) out += "  " + no_match_hint(c) + "\n";
        if (!c.figures.empty())
            out += fmt::format("\n{:>12} {:>12} {:<6} {:>7} {:>8}  {:<16} {}\n", "base", "other", "unit", "ratio", "p",
                               "change", "figure");
        for (const auto &f : c.figures) {
            const Values v = values_of(f);
            out += fmt::format("{:>12} {:>12} {:<6} {:>7} {:>8}  {:<16} {}\n", v.base, v.other, v.unit, ratio_text(f),
                               p_text(f), change_text(f), figure_label(f));
        }
        if (!c.only_in_base.empty()) {
            out += fmt::format("\nonly in BASE ({}):\n", c.base_file);
            for (const auto &line : c.only_in_base)
                out += "  " + line + "\n";
        }
        if (!c.only_in_other.empty()) {
            out += fmt::format("\nonly in OTHER ({}):\n", c.other_file);
            for (const auto &line : c.only_in_other)
                out += "  " + line + "\n";
        }
    }
    return out;
}

std::string compare_markdown(const std::vector<Comparison> &comparisons)
{
    auto cell = [](std::string text) {
        for (char &ch : text)
            if (ch == '|' || ch == '\n') ch = '/';
        return text;
    };
    std::string out = "# Comparison\n\n" + compare_method_text() + ".\n";
    for (const auto &c : comparisons) {
        out += fmt::format("\n## {} against {}\n\nDevices matched by {}:\n\n", cell(c.other_file), cell(c.base_file),
                           to_string(c.match));
        for (const auto &d : c.devices)
            out += "- " + cell(device_pairing_text(d)) + "\n";
        if (c.devices.empty()) out += "- " + no_match_hint(c) + "\n";
        if (!c.figures.empty()) {
            out += "\n| figure | base | other | unit | ratio | p | change |\n|---|--:|--:|---|--:|--:|---|\n";
            for (const auto &f : c.figures) {
                const Values v = values_of(f);
                std::string label = figure_label(f);
                if (f.kind != ComparedFigure::Kind::result) label = "&nbsp;&nbsp;" + label.substr(2);
                out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", cell(label), v.base, v.other, cell(v.unit),
                                   ratio_text(f), p_text(f), change_text(f));
            }
        }
        for (const auto &[title, lines] :
             {std::pair{"Only in the base", &c.only_in_base}, std::pair{"Only in the other", &c.only_in_other}}) {
            if (lines->empty()) continue;
            out += fmt::format("\n{}:\n\n", title);
            for (const auto &line : *lines)
                out += "- " + cell(line) + "\n";
        }
    }
    return out;
}

std::string compare_csv(const std::vector<Comparison> &comparisons)
{
    std::string out = csv_line({"base_file", "other_file", "match", "row", "probe", "parameters", "point",
                                "base_device", "other_device", "metric", "unit", "base", "other", "ratio",
                                "lower_is_better", "p", "test", "change"});
    for (const auto &c : comparisons) {
        const std::string match(to_string(c.match));
        for (const auto &f : c.figures) {
            const char *kind = f.kind == ComparedFigure::Kind::result  ? "result"
                               : f.kind == ComparedFigure::Kind::point ? "point"
                                                                       : "plateau";
            out += csv_line({c.base_file, c.other_file, match, kind, f.probe, f.parameters_text, f.point, f.base_device,
                             f.other_device, f.metric, f.unit, number(f.base), number(f.other), number(f.ratio),
                             f.lower_is_better ? "true" : "false", number(f.test.p),
                             f.test.p ? (f.test.exact ? "mann-whitney-u exact" : "mann-whitney-u normal") : "",
                             change_text(f)});
        }
        for (const auto &line : c.only_in_base)
            out += csv_line({c.base_file, c.other_file, match, "only-in-base", "", line, "", "", "", "", "", "", "", "",
                             "", "", "", ""});
        for (const auto &line : c.only_in_other)
            out += csv_line({c.base_file, c.other_file, match, "only-in-other", "", line, "", "", "", "", "", "", "",
                             "", "", "", "", ""});
    }
    return out;
}

json compare_json(const std::vector<Comparison> &comparisons)
{
    json list = json::array();
    for (const auto &c : comparisons) {
        json devices = json::array(), figures = json::array();
        for (const auto &d : c.devices)
            devices.push_back({{"base", d.base_id}, {"other", d.other_id}, {"name", d.name}, {"match", d.match}});
        for (const auto &f : c.figures) {
            auto optional = [](const std::optional<double> &v) { return v ? json(*v) : json(); };
            figures.push_back({{"probe", f.probe},
                               {"parameters", f.parameters},
                               {"kind", f.kind == ComparedFigure::Kind::result  ? "result"
                                        : f.kind == ComparedFigure::Kind::point ? "point"
                                                                                : "plateau"},
                               {"point", f.point},
                               {"base_device", f.base_device},
                               {"other_device", f.other_device},
                               {"metric", f.metric},
                               {"unit", f.unit},
                               {"base", optional(f.base)},
                               {"other", optional(f.other)},
                               {"ratio", optional(f.ratio)},
                               {"lower_is_better", f.lower_is_better},
                               {"p", optional(f.test.p)},
                               {"exact", f.test.exact},
                               {"change", change_text(f)}});
        }
        list.push_back({{"base_file", c.base_file},
                        {"other_file", c.other_file},
                        {"match", to_string(c.match)},
                        {"devices", devices},
                        {"figures", figures},
                        {"only_in_base", c.only_in_base},
                        {"only_in_other", c.only_in_other}});
    }
    return {
        {"method", compare_method_text()},
        {"test",
         {{"name", "two-sided Mann-Whitney U"}, {"alpha", rank_test_alpha}, {"min_samples", rank_test_min_samples}}},
        {"comparisons", list}};
}

} // namespace vrb
