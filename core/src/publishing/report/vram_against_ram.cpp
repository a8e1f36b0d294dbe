// Device memory against host RAM as measured: the host:0 row first, every other card
// after it with its figures as multiples of the host's, and the theoretical peak worked
// from the card's own bus width and memory clock where its description carries them.
#include "builders.hpp"

#include <vrambench/core/planning/peak.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

namespace vrb::report {

namespace {

std::string times(std::optional<double> value, std::optional<double> reference)
{
    if (!value || !reference || *reference <= 0) return "-";
    return fmt::format("{:.2f} x", *value / *reference);
}

std::string unknown_reason(const json &device, const char *field)
{
    const json &unknown = object_or_empty(device, "unknown");
    return unknown.contains(field) && unknown[field].is_string() ? unknown[field].get<std::string>() : "not reported";
}

// "2 x 10501 MHz x 384 bits / 8 = 1008.1 GB/s", with the convention that says why 2.
std::string worked_formula(const json &device)
{
    const DeviceRecord record = device_record_from_json(device);
    if (const auto peak = runtime_clock_peak(record.info))
        return fmt::format("{:g} x {:g} MHz x {} bits / 8 = {:.1f} GB/s ({})", peak->transfers_per_clock,
                           record.info.memory_clock_khz / 1000.0, record.info.memory_bus_width_bits, peak->gb_per_s,
                           peak->convention);
    if (!device.value("memory_bus_width_bits", json()).is_number())
        return "no bus width: " + unknown_reason(device, "memory_bus_width_bits");
    return "no memory clock: " + unknown_reason(device, "memory_clock_khz");
}

} // namespace

json vram_against_ram(const std::vector<Card> &cards)
{
    const Card *host = nullptr;
    for (const Card &card : cards)
        if (text_or(*card.device, "backend", "") == "host" && !host) host = &card;

    json section = make_section("VRAM against RAM, as measured");
    json table = make_table({"card", "memory", "read", "copy", "triad", "read against RAM", "memory latency",
                             "latency against RAM", "largest allocation", "total allocatable", "theoretical peak",
                             "peak from bus width and memory clock"});
    const auto host_read = host ? widest_stream_figure(*host->set, host->id, "read") : std::nullopt;
    const auto host_latency = host ? memory_latency_ns(*host->set, host->id) : std::nullopt;
    std::vector<const Card *> ordered;
    if (host) ordered.push_back(host);
    for (const Card &card : cards)
        if (&card != host) ordered.push_back(&card);
    for (const Card *card : ordered) {
        const json &d = *card->device;
        const auto read = widest_stream_figure(*card->set, card->id, "read");
        const auto latency = memory_latency_ns(*card->set, card->id);
        const auto peak = peak_of(d);
        add_row(table, {card == host ? card->label + " (host RAM, the reference)" : card->label,
                        bytes_text(d.value("total_memory_bytes", json()).is_number()
                                       ? std::optional(d["total_memory_bytes"].get<double>())
                                       : std::nullopt),
                        gbps_text(read), gbps_text(widest_stream_figure(*card->set, card->id, "copy")),
                        gbps_text(widest_stream_figure(*card->set, card->id, "triad")),
                        card == host ? "1 x" : times(read, host_read),
                        latency ? fmt::format("{:.0f} ns", *latency) : "not reached",
                        card == host ? "1 x" : times(latency, host_latency),
                        bytes_text(capacity_figure(*card->set, card->id, "capacity.max-alloc")),
                        bytes_text(capacity_figure(*card->set, card->id, "capacity.total")),
                        peak ? fmt::format("{:.1f} GB/s ({})", *peak, text_or(object_or_empty(d, "peak"), "source", ""))
                             : "unknown",
                        worked_formula(d)});
    }
    section["tables"].push_back(std::move(table));
    section["notes"] = {
        "GB/s = 1e9 bytes per second. Stream figures are the medians at the widest element each card measured; "
        "memory latency is the latency.chase plateau named memory (\"not reached\" when the chase stayed inside "
        "a cache).",
        host ? "Ratios are the card's figure over host RAM's (" + host->label + ")."
             : "No host:0 in these result sets: run `vrambench run --backend host` for the RAM row.",
        "The worked peak: transfers per clock x the memory clock the runtime reports x the bus width / 8. What a "
        "runtime calls the memory clock depends on the runtime and the memory: CUDA reports half the per-pin data "
        "rate (2 transfers per clock), HIP a quarter of it on HBM3 (4). The theoretical peak column is the one the "
        "figures are set against: the datasheet's where the device table knows the card."};
    return section;
}

} // namespace vrb::report
