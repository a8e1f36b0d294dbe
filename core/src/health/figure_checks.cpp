// Each figure against its reference (the floor, --floor x the reference, or the floor a
// reference file gives), else a stream figure against the datasheet floor, and, for device
// memory, against the datasheet peak.
#include "checks.hpp"

#include <vrambench/core/planning/device_table.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace vrb::health {

namespace {

using nlohmann::json;

struct Peak {
    double gb_per_s = 0;
    std::string text; // "the 4800 GB/s HBM3e datasheet peak"
};

// The datasheet's peak with the memory type behind it, else the peak the set recorded
// (the runtime's clock), else none.
std::optional<Peak> peak_of(const json &device, const CardModel &model)
{
    if (model.spec)
        return Peak{model.spec->peak_gb_per_s,
                    fmt::format("the {:g} GB/s {} datasheet peak of the {}", model.spec->peak_gb_per_s,
                                to_string(model.spec->memory), model.spec->name)};
    const json &peak = object_or_empty(device, "peak");
    const double recorded = number_or(peak, "gb_per_s", 0);
    if (recorded > 0)
        return Peak{recorded, fmt::format("the {:g} GB/s peak ({})", recorded, text_or(peak, "source", "recorded"))};
    return std::nullopt;
}

std::string reference_text(const Check &c, const Reference &r, double floor_fraction, bool lower_is_better)
{
    if (!r.value)
        return fmt::format("against the {} {} ({})", lower_is_better ? "ceiling" : "floor",
                           value_text(*c.floor, c.unit), r.source);
    return fmt::format("{:.2f} of the reference {} ({} {} = {:g} x it; {})", *c.ratio, value_text(*r.value, c.unit),
                       lower_is_better ? "ceiling" : "floor", value_text(*c.floor, c.unit),
                       lower_is_better ? 1 / floor_fraction : floor_fraction, r.source);
}

// The datasheet floor of a stream figure where the model has none measured: the device
// table's peak (a CPU or a card it does not know has none).
std::optional<double> datasheet_floor(const Figure &f, const CardModel &model)
{
    if (f.key.probe != "bandwidth.stream" || !model.spec || !(model.spec->peak_gb_per_s > 0)) return std::nullopt;
    return datasheet_floor_share * model.spec->peak_gb_per_s;
}

// A figure that ran and verified, judged: the peak first (past it the figure is not the
// memory's), then the reference, else the datasheet floor.
void judge_value(Check &c, const Figure &f, const json &device, const CardModel &model, const SetIdentity &judged,
                 const References &references, const HealthOptions &options)
{
    const bool lower = figure_lower_is_better(f.key.probe);
    c.value = f.value;
    std::vector<std::string> parts{value_text(*f.value, c.unit)};
    if (f.key.probe == "bandwidth.stream") {
        if (const auto peak = peak_of(device, model)) {
            c.peak = peak->gb_per_s;
            c.efficiency = *f.value / peak->gb_per_s;
            parts.push_back(fmt::format("{:.0f}% of {}", *c.efficiency * 100, peak->text));
            if (*c.efficiency > most_peak_share) {
                c.outcome = Outcome::failed;
                c.reason = "above peak";
                parts.push_back("above the peak: not a figure of the memory, not to be trusted");
            } else if (*c.efficiency < least_peak_share) {
                c.outcome = Outcome::below_floor;
                c.reason = "below a tenth of the peak";
                parts.push_back("below a tenth of the peak");
            }
        }
    }
    if (const auto r = references.find(model, f.key, &judged)) {
        c.reference_source = r->source;
        c.reference = r->value;
        c.floor = r->floor ? *r->floor : lower ? *r->value / options.floor : *r->value * options.floor;
        if (r->value) c.ratio = lower ? *r->value / *f.value : *f.value / *r->value;
        c.judged_against = r->line ? "a reference file" : "a measured reference";
        const bool below = lower ? *f.value > *c.floor : *f.value < *c.floor;
        parts.insert(parts.begin() + 1, reference_text(c, *r, options.floor, lower));
        if (below && c.outcome == Outcome::pass) {
            c.outcome = Outcome::below_floor;
            c.reason = "below reference";
        }
        if (below) parts.push_back(lower ? "above its ceiling" : "below its floor");
    } else if (const auto floor = datasheet_floor(f, model)) {
        c.floor = floor;
        c.judged_against = "the datasheet floor";
        c.reference_source =
            fmt::format("{:g} x the {:g} GB/s {} datasheet peak of the {} ({})", datasheet_floor_share,
                        model.spec->peak_gb_per_s, to_string(model.spec->memory), model.spec->name, model.spec->source);
        parts.insert(parts.begin() + 1, fmt::format("no measured reference for {}: against the datasheet floor {} "
                                                    "({:g} x the peak)",
                                                    model.key, value_text(*floor, c.unit), datasheet_floor_share));
        if (*f.value < *floor) {
            if (c.outcome == Outcome::pass) {
                c.outcome = Outcome::below_floor;
                c.reason = "below datasheet floor";
            }
            parts.push_back("below its floor");
        }
    } else if (c.outcome == Outcome::pass) {
        c.outcome = Outcome::not_judged;
        parts.insert(parts.begin() + 1,
                     f.key.probe == "bandwidth.stream"
                         ? fmt::format("no reference for {}, and no datasheet peak to set a floor by", model.key)
                         : fmt::format("no reference for {}", model.key));
    }
    c.detail = fmt::format("{}", fmt::join(parts, "; "));
}

} // namespace

std::vector<Check> figure_checks(const json &set, const json &device, const References &references,
                                 const HealthOptions &options)
{
    const std::string id = text_or(device, "id", "");
    const SetIdentity judged = identity_of(set);
    const CardModel model = card_model_of(device);
    std::vector<Check> checks;
    for (const json *result : results_on(set, id)) {
        const auto f = health_figure(*result);
        if (!f) continue;
        Check c;
        c.name = figure_text(f->key);
        c.unit = f->unit;
        c.figure = f->key;
        if (f->status == "skipped" || f->status == "waived") {
            c.outcome = Outcome::not_recorded;
            c.detail = fmt::format("{}: {}", f->status, text_or(*result, "error", "no reason recorded"));
        } else if (f->status == "verification-failed" || f->verification == "failed") {
            c.outcome = Outcome::failed;
            c.reason = "verification";
            c.detail = fmt::format("failed verification: {}", f->verification_detail);
        } else if (!f->value || !(*f->value > 0)) {
            c.outcome = Outcome::not_measured;
            c.reason = "not measured";
            c.detail = fmt::format("{}: {}", f->status, text_or(*result, "error", "no figure recorded"));
        } else if (!card_figure(f->key)) {
            c.outcome = Outcome::not_judged;
            c.value = f->value;
            c.detail = fmt::format("{}; pageable memory: the host's memcpy through the driver's staging buffers "
                                   "sets this figure as much as the card, so it is reported, not judged",
                                   value_text(*f->value, c.unit));
        } else {
            judge_value(c, *f, device, model, judged, references, options);
        }
        checks.push_back(std::move(c));
    }
    return checks;
}

} // namespace vrb::health
