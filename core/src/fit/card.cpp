// The card's figures, from a result set or by hand.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/card.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace vrb::fit {

namespace {

using nlohmann::json;

bool has_value(const json &r)
{
    return r.contains("value") && r["value"].is_number() && r["value"].get<double>() > 0;
}

// A capacity figure marked suspect still bounds the memory; a rate marked suspect (a
// cache effect above the card's peak) never drives a ceiling.
bool usable(const json &r)
{
    const std::string status = text_or(r, "status", "");
    return (status == "ok" || status == "suspect") && has_value(r);
}

bool trusted(const json &r)
{
    return text_or(r, "status", "") == "ok" && has_value(r);
}

std::string parameter(const json &r, const char *name)
{
    const json &p = object_or_empty(r, "parameters");
    return p.contains(name) && p[name].is_string() ? p[name].get<std::string>() : "";
}

double parameter_number(const json &r, const char *name)
{
    const json &p = object_or_empty(r, "parameters");
    return p.contains(name) && p[name].is_number() ? p[name].get<double>() : 0;
}

struct Found {
    const json *result = nullptr;
    std::size_t index = 0;
};

// The first usable result of `probe` on `device` that `accept` takes.
template <typename Accept>
Found find(const json &results, const std::string &device, const std::string &probe, Accept accept)
{
    for (std::size_t i = 0; i < results.size(); ++i) {
        const json &r = results[i];
        if (text_or(r, "device", "") == device && text_or(r, "probe", "") == probe && usable(r) && accept(r))
            return {&r, i};
    }
    return {};
}

// The stream read at the widest element the device measured (what the report shows),
// among those `accept` takes.
Found stream_read(const json &results, const std::string &device, bool (*accept)(const json &) = trusted)
{
    Found best;
    double width = -1;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const json &r = results[i];
        if (text_or(r, "device", "") != device || text_or(r, "probe", "") != "bandwidth.stream" || !accept(r) ||
            parameter(r, "operation") != "read")
            continue;
        if (const double w = parameter_number(r, "element_bytes"); w > width) {
            width = w;
            best = {&r, i};
        }
    }
    return best;
}

// "80GB", "1.5 TiB", "2e3GB/s": the number and its unit in lower case, the unit starting at
// the first character no number takes (an exponent's e is the number's). `bad` makes the
// error for a text that starts with no finite number.
template <typename Bad> std::pair<double, std::string> number_and_unit(std::string_view text, const Bad &bad)
{
    const std::string s(text);
    std::size_t split = 0;
    while (split < s.size() && (std::isdigit(static_cast<unsigned char>(s[split])) || s[split] == '.' ||
                                s[split] == 'e' || s[split] == 'E' || s[split] == '-' || s[split] == '+'))
        ++split;
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + split, value);
    if (split == 0 || ec != std::errc() || end != s.data() + split || !std::isfinite(value)) throw bad("not a number");
    std::string unit = s.substr(split);
    while (!unit.empty() && unit.front() == ' ')
        unit.erase(unit.begin());
    for (char &c : unit)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return {value, unit};
}

} // namespace

std::string fit_probes_command(const std::string &device)
{
    return fmt::format("vrambench run --device {} --probe capacity.report --probe capacity.total --probe "
                       "capacity.max-alloc --probe capacity.fragmentation --probe bandwidth.stream --memory-limit 100%",
                       device);
}

Card card_by_hand(double memory_bytes, double read_gb_per_s)
{
    Card c;
    c.device = "by hand";
    // The bytes as parsed, so a GB (1e9) and a GiB (2^30) cannot be mistaken.
    const std::string memory =
        fmt::format("{:.0f} B ({:.2f} GiB, {:.2f} GB)", memory_bytes, memory_bytes / double(GiB), memory_bytes / 1e9);
    c.name = read_gb_per_s > 0 ? fmt::format("{} at {:g} GB/s", memory, read_gb_per_s) : memory;
    c.measured = read_gb_per_s > 0 ? "given by hand (--memory, --bandwidth)" : "given by hand (--memory)";
    c.card_bytes = c.available_bytes = memory_bytes;
    c.available_rule = "--memory, all of it: no runtime share or fragmentation measured";
    c.read_gb_per_s = read_gb_per_s;
    c.figures.push_back({"memory", memory_bytes, "bytes", "", "--memory"});
    if (read_gb_per_s > 0) c.figures.push_back({"read bandwidth", read_gb_per_s, "GB/s", "", "--bandwidth"});
    c.notes.push_back("given by hand: the runtime's own share and fragmentation are not known; --device or --result "
                      "measure them");
    return c;
}

double parse_fit_bytes(std::string_view text, std::string_view flag)
{
    const auto bad = [&](std::string_view why) {
        return UsageError(fmt::format("{} '{}': {} (write it as 80GB or 1.5TB, decimal: GB = 1e9 bytes; or 80GiB, "
                                      "1TiB, binary: GiB = 2^30 bytes)",
                                      flag, text, why));
    };
    const auto [value_read, unit] = number_and_unit(text, bad);
    double value = value_read;
    double factor = 0;
    if (unit == "b") factor = 1;
    if (unit == "kb") factor = 1e3;
    if (unit == "mb") factor = 1e6;
    if (unit == "gb") factor = 1e9;
    if (unit == "tb") factor = 1e12;
    if (unit == "kib") factor = double(KiB);
    if (unit == "mib") factor = double(MiB);
    if (unit == "gib") factor = double(GiB);
    if (unit == "tib") factor = double(GiB) * 1024;
    if (unit.empty() || unit == "k" || unit == "m" || unit == "g" || unit == "t")
        throw bad("give the unit whole: a bare number or G is either a decimal or a binary size");
    if (factor == 0) throw bad(fmt::format("unknown unit '{}'", unit));
    // Whole bytes: a size that rounds to none (".08B") is no memory at all.
    const double bytes = std::round(value * factor);
    if (!(bytes >= 1)) throw bad("must be at least one byte");
    if (bytes > most_memory_bytes) throw bad("past 1 PiB: not taken for a card's memory");
    return bytes;
}

std::optional<Figure> host_read_in_set(const json &set)
{
    const Found host = stream_read(array_or_empty(set, "results"), "host:0");
    if (!host.result) return std::nullopt;
    return Figure{"bandwidth.stream read (host RAM)", (*host.result)["value"].get<double>(), "GB/s", "host:0",
                  fmt::format("{}#{}", text_or(object_or_empty(set, "run"), "id", ""), host.index)};
}

void set_host_read(Card &card, const Figure &host, const std::string &measured)
{
    card.host_device = host.device;
    card.host_read_gb_per_s = host.value;
    card.host_measured = measured;
    card.figures.push_back(host);
}

double parse_bandwidth(std::string_view text)
{
    const auto bad = [&](std::string_view why) {
        return UsageError(fmt::format(
            "--bandwidth '{}': {} (write it as 2039GB/s, 3.35TB/s or 900GiB/s; GB = 1e9 bytes)", text, why));
    };
    const auto [value_read, unit] = number_and_unit(text, bad);
    double value = value_read;
    double factor = 0;
    if (unit.empty() || unit == "gb/s") factor = 1;
    if (unit == "tb/s") factor = 1e3;
    if (unit == "mb/s") factor = 1e-3;
    if (unit == "gib/s") factor = double(GiB) / 1e9;
    if (unit == "tib/s") factor = double(GiB) * 1024 / 1e9;
    if (factor == 0) throw bad(fmt::format("unknown unit '{}'", unit));
    value *= factor;
    if (!(value > 0)) throw bad("must be positive");
    if (value > 1e6) throw bad("past 1 PB/s: not taken for a card's memory");
    return value;
}

Card card_from_result_set(const json &set, const std::string &set_name, const std::string &asked)
{
    const json &devices = array_or_empty(set, "devices");
    const json &results = array_or_empty(set, "results");
    const std::string run_id = text_or(object_or_empty(set, "run"), "id", "");
    std::vector<std::string> ids, cards;
    for (const json &d : devices) {
        ids.push_back(text_or(d, "id", ""));
        if (text_or(d, "backend", "") != "host") cards.push_back(ids.back());
    }
    std::string device = asked;
    if (device.empty()) {
        if (cards.size() == 1)
            device = cards.front();
        else if (cards.empty() && std::find(ids.begin(), ids.end(), "host:0") != ids.end())
            device = "host:0";
        else if (cards.empty())
            throw UsageError(fmt::format("{}: the result set measured no device", set_name));
        else
            throw UsageError(fmt::format("{}: the result set measured {} cards ({}): name one with --device", set_name,
                                         cards.size(), fmt::join(cards, ", ")));
    }
    const auto described =
        std::find_if(devices.begin(), devices.end(), [&](const json &d) { return text_or(d, "id", "") == device; });
    if (described == devices.end())
        throw UsageError(fmt::format("{}: no device {} in the result set (it has {})", set_name, device,
                                     ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", "))));

    Card c;
    c.device = device;
    c.name = described->value("name", json()).is_string() ? (*described)["name"].get<std::string>() : device;
    c.measured = "the result set " + set_name;
    const auto figure = [&](const Found &f, std::string name, std::string unit) {
        c.figures.push_back({std::move(name), (*f.result)["value"].get<double>(), std::move(unit), device,
                             fmt::format("{}#{}", run_id, f.index)});
        return (*f.result)["value"].get<double>();
    };
    const auto operation = [](const char *op) {
        return [op](const json &r) { return parameter(r, "operation") == op; };
    };
    const auto any = [](const json &) { return true; };

    const Found reported_total = find(results, device, "capacity.report", operation("total"));
    const Found reported_free = find(results, device, "capacity.report", operation("free"));
    const Found total = find(results, device, "capacity.total", any);
    const Found max_alloc = find(results, device, "capacity.max-alloc", any);
    const Found fragmentation = find(results, device, "capacity.fragmentation", any);
    const Found read = stream_read(results, device);
    const Found suspect_read = stream_read(results, device, usable);

    if (!reported_total.result && !total.result)
        throw UsageError(fmt::format("{}: {} has no capacity figures (capacity.report, capacity.total): run `{}`",
                                     set_name, device, fit_probes_command(device)));
    if (!read.result && !suspect_read.result)
        throw UsageError(fmt::format("{}: {} has no bandwidth.stream read figure, which the decode ceiling needs: "
                                     "run `{}`",
                                     set_name, device, fit_probes_command(device)));

    // A plain double beside the flag: GCC 12 takes an optional's value read here for uninitialized.
    const bool free = reported_free.result != nullptr;
    const double free_bytes = free ? figure(reported_free, "capacity.report free", "bytes") : 0;
    // A budget of all the free memory (--memory-limit 100%) stops the chunks where the
    // card is full: only a smaller one cut capacity.total short (an H200's 100% budget
    // was 1.2 MB under what the API reported free, and the chunks held 139.25 GiB).
    const auto budget_below_free = [](const json &r) {
        const double budget = parameter_number(r, "budget_bytes");
        const double reported = number_or(object_or_empty(r, "extra"), "reported_free_bytes", 0);
        // Within one chunk of it is all of it: the chunks could not tell the two apart.
        const double chunk = parameter_number(r, "chunk_bytes");
        return !(budget > 0 && reported > 0 && budget + chunk >= reported);
    };
    const bool total_cut = total.result &&
                           text_or(object_or_empty(*total.result, "extra"), "ended_by", "") == "budget" &&
                           budget_below_free(*total.result);
    if (total.result && !total_cut) {
        c.available_bytes = figure(total, "capacity.total", "bytes");
        c.available_rule = "capacity.total: what one process held at once";
    } else if (free) {
        if (total.result) figure(total, "capacity.total", "bytes");
        c.available_bytes = free_bytes;
        c.available_rule = total.result ? "capacity.report's free memory: capacity.total stopped at the run's budget "
                                          "before the card was full"
                                        : "capacity.report's free memory: the set has no capacity.total";
        c.notes.push_back(
            fmt::format("{}: measure what a process can hold with `{}`", c.available_rule, fit_probes_command(device)));
    } else if (total.result) {
        c.available_bytes = figure(total, "capacity.total", "bytes");
        c.available_rule = "capacity.total, stopped at the run's budget: the card may hold more";
        c.notes.push_back(fmt::format("capacity.total stopped at the run's budget: the card may hold more; `{}` "
                                      "measures it all",
                                      fit_probes_command(device)));
    } else
        throw UsageError(fmt::format("{}: {} has neither capacity.total nor capacity.report's free memory: run `{}`",
                                     set_name, device, fit_probes_command(device)));
    c.card_bytes = reported_total.result ? figure(reported_total, "capacity.report total", "bytes") : 0;
    if (c.card_bytes < c.available_bytes) c.card_bytes = c.available_bytes;

    if (max_alloc.result) {
        const double bytes = figure(max_alloc, "capacity.max-alloc", "bytes");
        if (text_or(object_or_empty(*max_alloc.result, "extra"), "limited_by", "") == "budget")
            c.notes.push_back("capacity.max-alloc stopped at the run's budget, so the largest tensor is not judged "
                              "against it");
        else
            c.max_alloc_bytes = bytes;
    } else
        c.notes.push_back("no capacity.max-alloc in the set: the largest single tensor is not judged");
    if (fragmentation.result) {
        const double block = figure(fragmentation, "capacity.fragmentation", "bytes");
        const json &e = object_or_empty(*fragmentation.result, "extra");
        double share = 1;
        if (e.contains("largest_share_of_freed") && e["largest_share_of_freed"].is_number())
            share = e["largest_share_of_freed"].get<double>();
        else if (e.contains("requested_bytes") && e["requested_bytes"].is_number() &&
                 e["requested_bytes"].get<double>() > 0)
            share = block / e["requested_bytes"].get<double>();
        c.fragmentation_lost_share = std::clamp(1 - share, 0.0, 1.0);
    } else
        c.notes.push_back("no capacity.fragmentation in the set: no fragmentation margin counted");
    if (read.result)
        c.read_gb_per_s = figure(read, "bandwidth.stream read", "GB/s");
    else
        c.notes.push_back(fmt::format("{}'s bandwidth.stream read ({:.1f} GB/s, {}#{}) is marked suspect: no decode "
                                      "ceiling is drawn from it; measure it again with `{}`",
                                      device, (*suspect_read.result)["value"].get<double>(), run_id, suspect_read.index,
                                      fit_probes_command(device)));
    if (device != "host:0") {
        if (const auto host = host_read_in_set(set)) set_host_read(c, *host, c.measured);
    } else if (read.result) {
        c.host_device = "host:0";
        c.host_read_gb_per_s = c.read_gb_per_s;
        c.host_measured = c.measured;
    }
    // The card reading pinned host memory in place is the route of offloaded weights;
    // a pinned host-to-device copy is the same link's figure when no kind was measured.
    const Found pinned_read = find(results, device, "memory.kinds", [](const json &r) {
        return trusted(r) && parameter(r, "memory_kind") == "pinned" && parameter(r, "operation") == "read";
    });
    const Found pinned_copy = find(results, device, "bandwidth.transfer", [](const json &r) {
        return trusted(r) && parameter(r, "direction") == "host-to-device pinned";
    });
    if (device != "host:0") {
        if (pinned_read.result)
            c.link_read = Figure{"memory.kinds pinned read (the card reading pinned host memory)",
                                 (*pinned_read.result)["value"].get<double>(), "GB/s", device,
                                 fmt::format("{}#{}", run_id, pinned_read.index)};
        else if (pinned_copy.result)
            c.link_read =
                Figure{"bandwidth.transfer host-to-device pinned", (*pinned_copy.result)["value"].get<double>(), "GB/s",
                       device, fmt::format("{}#{}", run_id, pinned_copy.index)};
        if (c.link_read) c.figures.push_back(*c.link_read);
    }
    return c;
}

} // namespace vrb::fit
