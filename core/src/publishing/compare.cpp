#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace vrb {

namespace {

using nlohmann::json;

// How a figure was measured, not what it is: two runs that differ only here measured
// the same thing. page_bytes is what the OS gave that run (sets before it lack it, and
// transparent huge pages come and go between runs of one machine): it explains a
// difference, it does not make the figures two things.
constexpr std::array<const char *, 8> procedure_parameters{"repetitions", "warmups",     "passes",       "size_rule",
                                                           "size_reason", "budget_rule", "budget_bytes", "page_bytes"};
// A curve's range: its points are matched one by one by their x instead.
constexpr std::array<const char *, 6> curve_range_parameters{"from_bytes", "to_bytes", "points",
                                                             "ratio",      "strides",  "offsets"};

const json *curve_of(const json &result)
{
    const auto extra = result.find("extra");
    if (extra == result.end() || !extra->is_object()) return nullptr;
    const auto curve = extra->find("curve");
    if (curve == extra->end() || !curve->is_object()) return nullptr;
    const auto points = curve->find("points");
    return points != curve->end() && points->is_array() ? &*curve : nullptr;
}

std::string value_text(const std::string &key, const json &v)
{
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned() && key.ends_with("_bytes")) return format_size(v.get<uint64_t>());
    return v.dump();
}

std::string parameters_text(const json &p)
{
    std::string out;
    auto add = [&](const std::string &key, const json &v) {
        out += fmt::format("{}{}={}", out.empty() ? "" : ", ", key, value_text(key, v));
    };
    if (p.contains("operation")) add("operation", p["operation"]);
    for (const auto &[key, v] : p.items())
        if (key != "operation") add(key, v);
    return out;
}

std::string x_text(const json &curve, double x)
{
    const std::string name = text_or(curve, "x", "x");
    if (text_or(curve, "x_unit", "") == "bytes" && x >= 0) return fmt::format("{} {}", name, format_size(uint64_t(x)));
    return fmt::format("{} {:g}", name, x);
}

std::optional<double> number_of(const json &object, const char *key)
{
    if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return std::nullopt;
    return object[key].get<double>();
}

std::vector<double> samples_of(const json &object)
{
    std::vector<double> samples;
    if (object.is_object() && object.contains("samples") && object["samples"].is_array())
        for (const auto &s : object["samples"])
            if (s.is_number()) samples.push_back(s.get<double>());
    return samples;
}

struct Device {
    const json *record;
    std::string id, backend, key, match;
};

std::vector<Device> devices_of(const json &doc, DeviceMatch match)
{
    std::vector<Device> devices;
    for (const auto &d : doc.at("devices"))
        devices.push_back(
            {&d, text_or(d, "id", "?"), text_or(d, "backend", ""), text_or(d, "key", ""), device_match_text(d, match)});
    std::sort(devices.begin(), devices.end(), [](const Device &a, const Device &b) {
        return std::tie(a.match, a.backend, a.key, a.id) < std::tie(b.match, b.backend, b.key, b.id);
    });
    return devices;
}

std::string device_line(const Device &d)
{
    return fmt::format("device {} ({}; {})", d.id, text_or(*d.record, "name", "?"), d.match);
}

// Pairs devices that share the match text: those seen through the same backend
// first, then the rest in order of key; the rest are listed as only in one file.
std::vector<std::pair<const Device *, const Device *>>
pair_devices(const std::vector<Device> &base, const std::vector<Device> &other, Comparison &comparison)
{
    std::vector<std::pair<const Device *, const Device *>> pairs;
    std::vector<bool> base_used(base.size()), other_used(other.size());
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < base.size(); ++i) {
            if (base_used[i]) continue;
            for (std::size_t j = 0; j < other.size(); ++j) {
                if (other_used[j] || other[j].match != base[i].match) continue;
                if (pass == 0 && other[j].backend != base[i].backend) continue;
                base_used[i] = other_used[j] = true;
                pairs.emplace_back(&base[i], &other[j]);
                break;
            }
        }
    for (std::size_t i = 0; i < base.size(); ++i)
        if (!base_used[i]) comparison.only_in_base.push_back(device_line(base[i]));
    for (std::size_t j = 0; j < other.size(); ++j)
        if (!other_used[j]) comparison.only_in_other.push_back(device_line(other[j]));
    std::sort(pairs.begin(), pairs.end(), [](const auto &a, const auto &b) { return a.first->id < b.first->id; });
    return pairs;
}

// Whether a result ran on its device's own default kind (the first kind the device reads
// and writes, bandwidth.stream's and every curve's), not on a kind it was asked to name:
// memory.kinds measures each kind the API offers, capacity a budget's kind.
bool on_default_kind(const json &r)
{
    const std::string probe = text_or(r, "probe", "");
    return probe != "memory.kinds" && !probe.starts_with("capacity.");
}

// What devices paired by hand (--pair) each choose for themselves: two different things,
// each measured on its own default kind (the host's pageable RAM, a card's device memory)
// at the size its own rules give. These do not keep their figures apart; each row names both.
constexpr std::array<const char *, 3> own_choice_parameters{"memory_kind", "array_bytes", "elements"};

// The key results pair on.
std::string result_identity(const json &r, bool own_default_kinds = false)
{
    json p = identity_parameters(r);
    if (own_default_kinds && on_default_kind(r))
        for (const char *key : own_choice_parameters)
            p.erase(key);
    return fmt::format("{}|{}|{}", text_or(r, "probe", ""), text_or(r, "metric", ""), p.dump());
}

std::string result_line(const json &r, const std::string &device)
{
    return fmt::format("{} {} on {}", text_or(r, "probe", "?"), parameters_text(identity_parameters(r)), device);
}

// Pairs items (points, plateaus, results) with equal keys in order; the rest go to
// the callbacks.
template <typename Key, typename Item, typename Both, typename OnlyBase, typename OnlyOther>
void pair_by_key(const std::vector<std::pair<Key, Item>> &base, const std::vector<std::pair<Key, Item>> &other,
                 Both both, OnlyBase only_base, OnlyOther only_other)
{
    std::multimap<Key, std::size_t> waiting;
    for (std::size_t j = 0; j < other.size(); ++j)
        waiting.emplace(other[j].first, j);
    std::vector<bool> used(other.size());
    for (const auto &[key, item] : base) {
        auto it = waiting.find(key);
        if (it == waiting.end()) {
            only_base(item);
            continue;
        }
        used[it->second] = true;
        both(item, other[it->second].second);
        waiting.erase(it);
    }
    for (std::size_t j = 0; j < other.size(); ++j)
        if (!used[j]) only_other(other[j].second);
}

ComparedFigure figure(const json &base_r, const json &other_r, const Device &bd, const Device &od, const json &base_v,
                      const json &other_v, ComparedFigure::Kind kind, std::string point)
{
    ComparedFigure f;
    f.kind = kind;
    f.probe = text_or(base_r, "probe", "");
    f.metric = text_or(base_r, "metric", "");
    f.unit = text_or(base_r, "unit", "");
    f.parameters = identity_parameters(base_r);
    // Paired on each device's own default kind and size (--pair): the row names both.
    const json other_parameters = identity_parameters(other_r);
    for (const char *key : own_choice_parameters) {
        const auto b = f.parameters.find(key);
        const auto o = other_parameters.find(key);
        if (b != f.parameters.end() && o != other_parameters.end() && *b != *o)
            f.parameters[key] = fmt::format("{} / {}", value_text(key, *b), value_text(key, *o));
    }
    f.parameters_text = parameters_text(f.parameters);
    f.point = std::move(point);
    f.base_device = bd.id;
    f.other_device = od.id;
    f.lower_is_better = lower_is_better(f.metric, f.unit);
    // A plateau's level is "value"; a result's or point's figure is "value" too.
    f.base = number_of(base_v, "value");
    f.other = number_of(other_v, "value");
    if (f.base && f.other && *f.base > 0 && *f.other > 0)
        f.ratio = f.lower_is_better ? *f.base / *f.other : *f.other / *f.base;
    const auto a = samples_of(base_v), b = samples_of(other_v);
    f.test = mann_whitney(a, b);
    return f;
}

void compare_curves(const json &base_r, const json &other_r, const Device &bd, const Device &od, Comparison &comparison)
{
    const json &bc = *curve_of(base_r), &oc = *curve_of(other_r);
    const std::string x_name = text_or(bc, "x", "x");
    const std::string label = result_line(base_r, bd.id);
    using Items = std::vector<std::pair<double, const json *>>;
    auto points = [&](const json &curve) {
        Items items;
        for (const auto &p : curve["points"])
            if (auto x = number_of(p, x_name.c_str())) items.emplace_back(*x, &p);
        return items;
    };
    pair_by_key<double, const json *>(
        points(bc), points(oc),
        [&](const json *b, const json *o) {
            comparison.figures.push_back(figure(base_r, other_r, bd, od, *b, *o, ComparedFigure::Kind::point,
                                                x_text(bc, b->at(x_name).get<double>())));
        },
        [&](const json *b) {
            comparison.only_in_base.push_back(label + " at " + x_text(bc, b->at(x_name).get<double>()));
        },
        [&](const json *o) {
            comparison.only_in_other.push_back(label + " at " + x_text(oc, o->at(x_name).get<double>()));
        });
    auto plateaus = [](const json &curve) {
        std::vector<std::pair<std::string, const json *>> items;
        if (curve.contains("plateaus") && curve["plateaus"].is_array())
            for (const auto &p : curve["plateaus"])
                items.emplace_back(text_or(p, "name", "?"), &p);
        return items;
    };
    pair_by_key<std::string, const json *>(
        plateaus(bc), plateaus(oc),
        [&](const json *b, const json *o) {
            comparison.figures.push_back(figure(base_r, other_r, bd, od, *b, *o, ComparedFigure::Kind::plateau,
                                                "plateau " + text_or(*b, "name", "?")));
        },
        [&](const json *b) { comparison.only_in_base.push_back(label + " plateau " + text_or(*b, "name", "?")); },
        [&](const json *o) { comparison.only_in_other.push_back(label + " plateau " + text_or(*o, "name", "?")); });
}

void compare_devices(const json &base, const json &other, const Device &bd, const Device &od, Comparison &comparison)
{
    using Items = std::vector<std::pair<std::string, const json *>>;
    const bool chosen = comparison.match == DeviceMatch::chosen;
    auto results = [chosen](const json &doc, const std::string &id) {
        Items items;
        for (const auto &r : doc.at("results"))
            if (text_or(r, "device", "") == id) items.emplace_back(result_identity(r, chosen), &r);
        return items;
    };
    pair_by_key<std::string, const json *>(
        results(base, bd.id), results(other, od.id),
        [&](const json *b, const json *o) {
            comparison.figures.push_back(figure(*b, *o, bd, od, *b, *o, ComparedFigure::Kind::result, ""));
            if (curve_of(*b) && curve_of(*o)) compare_curves(*b, *o, bd, od, comparison);
        },
        [&](const json *b) { comparison.only_in_base.push_back(result_line(*b, bd.id)); },
        [&](const json *o) { comparison.only_in_other.push_back(result_line(*o, od.id)); });
}

} // namespace

std::string device_match_text(const json &d, DeviceMatch match)
{
    if (match == DeviceMatch::chosen) return "chosen with --pair";
    if (match == DeviceMatch::card) return text_or(d, "key", text_or(d, "id", "?"));
    const json pci = d.value("pci", json());
    const std::string memory =
        d.value("total_memory_bytes", json()).is_number() ? format_size(d["total_memory_bytes"].get<uint64_t>()) : "?";
    if (pci.is_object() && pci.value("vendor_id", json()).is_number() && pci.value("device_id", json()).is_number())
        return fmt::format("{:04x}:{:04x}, {}", pci["vendor_id"].get<uint32_t>(), pci["device_id"].get<uint32_t>(),
                           memory);
    return fmt::format("{}, {}", text_or(d, "name", "?"), memory);
}

std::string_view to_string(DeviceMatch match)
{
    switch (match) {
    case DeviceMatch::card: return "card";
    case DeviceMatch::chosen: return "pair";
    default: return "model";
    }
}

json identity_parameters(const json &result)
{
    json p = object_or_empty(result, "parameters");
    if (!p.is_object()) return json::object();
    for (const char *key : procedure_parameters)
        p.erase(key);
    if (curve_of(result))
        for (const char *key : curve_range_parameters)
            p.erase(key);
    // Transfers were all the copy engine's before they named their engine: an older
    // set's transfer pairs with a newer set's copy-engine one.
    if (text_or(result, "probe", "") == "bandwidth.transfer" && !p.contains("engine")) p["engine"] = "ce";
    return p;
}

bool lower_is_better(const std::string &metric, const std::string &unit)
{
    return metric == "latency" || metric == "time" || metric == "count" || unit == "ns" || unit == "us" ||
           unit == "µs" || unit == "s";
}

Comparison compare_result_sets(const json &base, const std::string &base_file, const json &other,
                               const std::string &other_file, DeviceMatch match)
{
    Comparison comparison;
    comparison.base_file = base_file;
    comparison.other_file = other_file;
    comparison.match = match;
    const auto base_devices = devices_of(base, match), other_devices = devices_of(other, match);
    for (const auto &[bd, od] : pair_devices(base_devices, other_devices, comparison)) {
        comparison.devices.push_back({bd->id, od->id, text_or(*bd->record, "name", "?"), bd->match});
        compare_devices(base, other, *bd, *od, comparison);
    }
    return comparison;
}

std::vector<const ComparedFigure *> figures_below(const std::vector<Comparison> &comparisons, double threshold)
{
    std::vector<const ComparedFigure *> below;
    for (const auto &c : comparisons)
        for (const auto &f : c.figures)
            if (f.ratio && *f.ratio < threshold) below.push_back(&f);
    return below;
}

std::string compare_method_text()
{
    return fmt::format("ratio = other / base, inverted for latency and time, so above 1 is better; "
                       "noise: two-sided Mann-Whitney U test over the two figures' samples, a change beyond "
                       "noise at p < {}; fewer than {} samples on a side: too few samples",
                       rank_test_alpha, rank_test_min_samples);
}

ChosenPair parse_chosen_pair(const std::string &text, const std::string &flag)
{
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size() ||
        text.find('=', equals + 1) != std::string::npos)
        throw UsageError(fmt::format("{} '{}': expected BASE_DEVICE=OTHER_DEVICE, each a device's id or key as the "
                                     "result set names it, e.g. {} host:0=acme:0",
                                     flag, text, flag));
    return {text.substr(0, equals), text.substr(equals + 1)};
}

namespace {

// The devices of this file (not vrb::Device, which a unity build also sees here).
using Listed = Device;

const Listed &chosen_device(const std::vector<Listed> &devices, const std::string &name, const std::string &file)
{
    for (const Listed &d : devices)
        if (d.id == name || (!d.key.empty() && d.key == name)) return d;
    std::vector<std::string> held;
    for (const Listed &d : devices)
        held.push_back(d.key.empty() ? d.id : fmt::format("{} (key {})", d.id, d.key));
    throw UsageError(fmt::format("{}: --pair names device '{}', which this file does not hold; its devices: {}", file,
                                 name, held.empty() ? "none" : fmt::format("{}", fmt::join(held, ", "))));
}

} // namespace

Comparison compare_chosen_devices(const json &base, const std::string &base_file, const json &other,
                                  const std::string &other_file, const std::vector<ChosenPair> &pairs)
{
    Comparison comparison;
    comparison.base_file = base_file;
    comparison.other_file = other_file;
    comparison.match = DeviceMatch::chosen;
    const auto base_devices = devices_of(base, DeviceMatch::chosen),
               other_devices = devices_of(other, DeviceMatch::chosen);
    std::vector<const Listed *> used_base, used_other;
    for (const ChosenPair &pair : pairs) {
        const Listed &bd = chosen_device(base_devices, pair.base, base_file);
        const Listed &od = chosen_device(other_devices, pair.other, other_file);
        if (std::find(used_base.begin(), used_base.end(), &bd) != used_base.end() ||
            std::find(used_other.begin(), used_other.end(), &od) != used_other.end())
            throw UsageError(fmt::format("--pair {}={}: a device may be paired once; {} or {} is already paired",
                                         pair.base, pair.other, bd.id, od.id));
        used_base.push_back(&bd);
        used_other.push_back(&od);
        comparison.devices.push_back({bd.id, od.id, text_or(*bd.record, "name", "?"), "chosen with --pair"});
        compare_devices(base, other, bd, od, comparison);
    }
    for (const Listed &d : base_devices)
        if (std::find(used_base.begin(), used_base.end(), &d) == used_base.end())
            comparison.only_in_base.push_back(device_line(d));
    for (const Listed &d : other_devices)
        if (std::find(used_other.begin(), used_other.end(), &d) == used_other.end())
            comparison.only_in_other.push_back(device_line(d));
    return comparison;
}

bool nothing_compared(const std::vector<Comparison> &comparisons)
{
    return std::all_of(comparisons.begin(), comparisons.end(), [](const Comparison &c) { return c.figures.empty(); });
}

std::string no_match_hint(const Comparison &c)
{
    std::string base_id = "BASE_DEVICE", other_id = "OTHER_DEVICE";
    // The first device of each file, as its line names it ("device host:0 (...)").
    auto first_id = [](const std::vector<std::string> &lines, std::string &id) {
        for (const auto &line : lines)
            if (line.starts_with("device ")) {
                id = line.substr(7, line.find(' ', 7) - 7);
                return;
            }
    };
    first_id(c.only_in_base, base_id);
    first_id(c.only_in_other, other_id);
    return fmt::format("no device of one file matches a device of the other (matched by {}); line two up with "
                       "--pair {}={}, or see both side by side with `vrambench report {} {}` (its VRAM against RAM "
                       "table sets each card against the host's RAM)",
                       to_string(c.match), base_id, other_id, c.base_file, c.other_file);
}

} // namespace vrb
