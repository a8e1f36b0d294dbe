// The verdicts as JSON (for schedulers) and as text drawn from the same checks.
#include <vrambench/core/health/verdict.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace vrb::health {

namespace {

using nlohmann::json;

std::string_view mark(Outcome o)
{
    switch (o) {
    case Outcome::pass: return "ok";
    case Outcome::below_floor: return "FAIL";
    case Outcome::failed: return "FAIL";
    case Outcome::not_measured: return "ERROR";
    case Outcome::not_judged: return "--";
    case Outcome::not_recorded: return "--";
    }
    return "?";
}

json nullable(const std::optional<double> &v)
{
    return v ? json(*v) : json();
}

std::string origins_text(const References &references)
{
    return references.origins.empty() ? "none" : fmt::format("{}", fmt::join(references.origins, ", "));
}

} // namespace

std::string health_text(const std::vector<CardVerdict> &verdicts, const References &references,
                        const HealthOptions &options)
{
    std::string out = fmt::format("references: {}; floor {:g} x a measured reference, else {:g} x the datasheet peak "
                                  "for a stream figure\n",
                                  origins_text(references), options.floor, datasheet_floor_share);
    for (const CardVerdict &v : verdicts) {
        out += fmt::format("\n{} {} ({}; {}), {}\n", v.device, v.name, v.model, v.key, v.set);
        for (const Check &c : v.checks)
            out += fmt::format("  {:<5} {}: {}\n", mark(c.outcome), c.name, c.detail);
        out += fmt::format("verdict {}: {} (exit {})\n", v.device, v.verdict, static_cast<int>(v.exit));
    }
    return out;
}

json health_json(const std::vector<CardVerdict> &verdicts, const References &references, const HealthOptions &options)
{
    json cards = json::array();
    for (const CardVerdict &v : verdicts) {
        json checks = json::array();
        for (const Check &c : v.checks)
            checks.push_back({{"name", c.name},
                              {"outcome", to_string(c.outcome)},
                              {"reason", c.reason.empty() ? json() : json(c.reason)},
                              {"detail", c.detail},
                              {"unit", c.unit},
                              {"value", nullable(c.value)},
                              {"reference", nullable(c.reference)},
                              {"floor", nullable(c.floor)},
                              {"ratio", nullable(c.ratio)},
                              {"efficiency", nullable(c.efficiency)},
                              {"peak_gb_per_s", nullable(c.peak)},
                              {"reference_source", c.reference_source.empty() ? json() : json(c.reference_source)}});
        cards.push_back({{"set", v.set},
                         {"device", v.device},
                         {"name", v.name},
                         {"model", v.model},
                         {"key", v.key},
                         {"verdict", v.verdict},
                         {"exit_code", static_cast<int>(v.exit)},
                         {"healthy", v.exit == ExitCode::ok},
                         {"reasons", v.reasons()},
                         {"checks", checks}});
    }
    const ExitCode exit = health_exit(verdicts);
    return {{"healthy", exit == ExitCode::ok},  {"exit_code", static_cast<int>(exit)},
            {"floor", options.floor},           {"datasheet_floor_share", datasheet_floor_share},
            {"references", references.origins}, {"cards", cards}};
}

} // namespace vrb::health
