#include <vrambench/core/error.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/peak.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace vrb {

namespace {

void require_positive(double value, const char *what)
{
    if (!std::isfinite(value) || value <= 0) throw UsageError(fmt::format("{} must be a positive number", what));
}

constexpr double disagreement_limit = 0.10;

// The memory type every candidate of an ambiguous match shares, if they share one.
std::optional<MemoryType> memory_of(const CardMatch &m)
{
    if (m.card) return m.card->memory;
    if (m.candidates.empty()) return std::nullopt;
    const MemoryType first = m.candidates.front()->memory;
    for (const CardSpec *c : m.candidates)
        if (c->memory != first) return std::nullopt;
    return first;
}

// The convention a module states for its own clock (plugin.h,
// VRB_PROPERTY_TRANSFERS_PER_CLOCK), where the core could only guess from the API's name.
std::optional<ClockConvention> stated_convention(const vrb_device_info &info)
{
    for (uint32_t i = 0; i < std::min<uint32_t>(info.property_count, VRB_MAX_PROPERTIES); ++i) {
        if (module_text(info.properties[i].key) != VRB_PROPERTY_TRANSFERS_PER_CLOCK) continue;
        const std::string_view value = module_text(info.properties[i].value);
        uint32_t n = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (error != std::errc() || end != value.data() + value.size() || n < 1 || n > 16) return std::nullopt;
        return ClockConvention{static_cast<double>(n),
                               fmt::format("the {} module states {} transfer{} per pin per clock of it",
                                           module_text(info.api), n, n == 1 ? "" : "s")};
    }
    return std::nullopt;
}

} // namespace

ClockConvention clock_convention(std::string_view api, std::optional<MemoryType> memory)
{
    const bool hbm3 = memory && (*memory == MemoryType::hbm3 || *memory == MemoryType::hbm3e);
    if (api == "HIP" && hbm3)
        return {4, fmt::format("HIP reports {} at a quarter of the per-pin data rate", to_string(*memory))};
    // GDDR7 moves 1.5 bits per PAM3 symbol, so its clock need not be half the data rate,
    // and no runtime documents what it reports for it: the halving rule stays as an
    // unconfirmed reading, and the datasheet decides for a card the table knows.
    if (memory && *memory == MemoryType::gddr7)
        return {2, fmt::format("{} reports GDDR7 (PAM3) by a convention no runtime documents: the clock read as half "
                               "the per-pin data rate, unconfirmed",
                               api)};
    if (memory) return {2, fmt::format("{} reports {} at half the per-pin data rate", api, to_string(*memory))};
    return {2, fmt::format("{} memory of unknown type: the clock read as half the per-pin data rate", api)};
}

PeakBandwidth peak_from_clock(double memory_clock_mhz, double bus_bits, const ClockConvention &convention)
{
    require_positive(memory_clock_mhz, "the memory clock");
    require_positive(bus_bits, "the bus width");
    require_positive(convention.transfers_per_clock, "the transfers per clock");
    PeakBandwidth p;
    p.gb_per_s = convention.transfers_per_clock * memory_clock_mhz * 1e6 * bus_bits / 8.0 / 1e9;
    p.transfers_per_clock = convention.transfers_per_clock;
    p.convention = fmt::format("runtime-reported clock: {} MHz; {}, so each pin moves {} x {} Mbit/s; "
                               "peak = {} x clock x {} bits / 8",
                               memory_clock_mhz, convention.text, convention.transfers_per_clock, memory_clock_mhz,
                               convention.transfers_per_clock, bus_bits);
    return p;
}

PeakBandwidth peak_from_reported_clock(double memory_clock_mhz, double bus_bits)
{
    return peak_from_clock(memory_clock_mhz, bus_bits, {2, "the clock is half the per-pin data rate"});
}

PeakBandwidth peak_from_data_rate(double gbps_per_pin, double bus_bits)
{
    require_positive(gbps_per_pin, "the data rate");
    require_positive(bus_bits, "the bus width");
    PeakBandwidth p;
    p.gb_per_s = gbps_per_pin * bus_bits / 8.0;
    p.convention = fmt::format("datasheet per-pin data rate: {} Gbit/s per pin, not doubled again; "
                               "peak = rate x {} bits / 8",
                               gbps_per_pin, bus_bits);
    return p;
}

RuntimeClockReading read_runtime_clock(const vrb_device_info &info, const CardMatch &match)
{
    const uint64_t need = VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    if ((info.known & need) != need || !info.memory_bus_width_bits || !info.memory_clock_khz) return {};
    if (info.memory_bus_width_bits > widest_plausible_bus_bits)
        return {std::nullopt, fmt::format("a {}-bit bus is wider than any card's ({} bits)", info.memory_bus_width_bits,
                                          widest_plausible_bus_bits)};
    const std::optional<ClockConvention> stated = stated_convention(info);
    PeakBandwidth p = peak_from_clock(info.memory_clock_khz / 1000.0, info.memory_bus_width_bits,
                                      stated ? *stated : clock_convention(module_text(info.api), memory_of(match)));
    if (p.gb_per_s > most_plausible_peak_gb_per_s)
        return {std::nullopt, fmt::format("{} bits at {} kHz would move {:.1f} GB/s, past the {:.0f} GB/s of any card",
                                          info.memory_bus_width_bits, info.memory_clock_khz, p.gb_per_s,
                                          most_plausible_peak_gb_per_s)};
    return {std::move(p), {}};
}

std::optional<PeakBandwidth> runtime_clock_peak(const vrb_device_info &info, const CardMatch &match)
{
    return read_runtime_clock(info, match).peak;
}

std::optional<PeakBandwidth> runtime_clock_peak(const vrb_device_info &info)
{
    return runtime_clock_peak(info, match_card(info));
}

PeakChoice choose_peak(const vrb_device_info &info)
{
    PeakChoice p;
    const CardMatch m = match_card(info);
    if (m.card) p.card = m.card->name;
    p.partitioned = m.kind == CardMatch::Kind::partitioned;

    const RuntimeClockReading reading = read_runtime_clock(info, m);
    const std::optional<PeakBandwidth> &runtime = reading.peak;
    if (runtime) p.runtime_gb_per_s = runtime->gb_per_s;
    const std::string refused =
        reading.refused.empty() ? ""
                                : "; the runtime's bus width and clock are refused as implausible: " + reading.refused;
    if (m.kind == CardMatch::Kind::unique) {
        const CardSpec &c = *m.card;
        p.source = "datasheet";
        p.gb_per_s = p.datasheet_gb_per_s = c.peak_gb_per_s;
        p.convention =
            fmt::format("{} GB/s for the {} ({}, {} Gbit/s per pin x {} bits / 8), from the {}", c.peak_gb_per_s,
                        c.name, to_string(c.memory), c.data_rate_gbps, c.bus_bits, c.source);
        p.note = m.why + refused;
        if (runtime) {
            const double off = std::abs(runtime->gb_per_s - c.peak_gb_per_s) / c.peak_gb_per_s;
            if (off > disagreement_limit) {
                p.disagreement = true;
                p.note += fmt::format("; the runtime's clock gives {:.1f} GB/s ({}), {:.0f} % off the datasheet",
                                      runtime->gb_per_s, runtime->convention, off * 100);
            }
        }
        return p;
    }
    const std::string why = m.kind == CardMatch::Kind::none ? "no datasheet entry: " + m.why : m.why;
    if (runtime) {
        p.source = "runtime-clock";
        p.gb_per_s = runtime->gb_per_s;
        p.convention = runtime->convention;
        p.note = why + "; the peak comes from the runtime's clock";
    } else if (!refused.empty()) {
        p.source = "none";
        p.note = why + refused;
    } else {
        p.source = "none";
        p.note = why + "; the runtime reports no bus width and memory clock";
    }
    return p;
}

nlohmann::json to_json(const PeakChoice &p)
{
    auto number = [](const std::optional<double> &v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
    return {{"gb_per_s", number(p.gb_per_s)},
            {"source", p.source},
            {"convention", p.convention.empty() ? nlohmann::json() : nlohmann::json(p.convention)},
            {"datasheet_gb_per_s", number(p.datasheet_gb_per_s)},
            {"runtime_clock_gb_per_s", number(p.runtime_gb_per_s)},
            {"card", p.card.empty() ? nlohmann::json() : nlohmann::json(p.card)},
            {"partitioned", p.partitioned},
            {"disagreement", p.disagreement},
            {"note", p.note}};
}

} // namespace vrb
