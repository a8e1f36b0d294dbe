// The card around the memory: the PCIe link the card trained at, and what its telemetry
// said during each figure, the busy % the driver reported set beside the share of the
// peak the figure actually moved.
#include "builders.hpp"

#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/link.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

namespace vrb::report {

namespace {

const char *const kWatchedProbes[] = {"bandwidth.stream", "bandwidth.sweep", "pattern.stride", "pattern.alignment",
                                      "pattern.gather",   "pattern.vector",  "latency.chase",  "bandwidth.transfer"};

// "bandwidth.stream triad, 16 B, device": the probe and the parameters that tell its rows apart.
std::string figure_label(const json &r)
{
    std::string label = text_or(r, "probe", "");
    const json &p = r.value("parameters", json());
    std::string details;
    for (const char *key : {"operation", "direction", "element_bytes", "stride_bytes", "offset_bytes", "memory_kind"}) {
        if (!p.is_object() || !p.contains(key)) continue;
        const json &v = p[key];
        const std::string text = v.is_string() ? v.get<std::string>() : v.is_number() ? v.dump() : "";
        if (text.empty()) continue;
        details += (details.empty() ? " " : ", ") + text + (std::string(key).ends_with("_bytes") ? " B" : "");
    }
    return label + details;
}

std::string median_text(const json &telemetry, const char *figure, const char *unit, double scale = 1)
{
    const json &f = object_or_empty(object_or_empty(telemetry, "figures"), figure);
    if (!f.contains("median") || !f["median"].is_number()) return "-";
    return fmt::format("{}{}", figure_text(f["median"].get<double>() * scale, 0), unit);
}

// The link under load from the transfer results when they carry one, else the
// description's reading.
json best_link(const Card &card)
{
    for (const json *r : results_of(*card.set, card.id, "bandwidth.transfer"))
        if (r->contains("link") && (*r)["link"].is_object()) return (*r)["link"];
    if (card.device->contains("link") && (*card.device)["link"].is_object()) return (*card.device)["link"];
    return nullptr;
}

// The card's NVLink or xGMI: a note, a row per far end, and a row per peer copy that
// says whether it crossed the fabric and how much of its rate it moved.
void add_fabric(json &section, const Card &card)
{
    if (!card.device->contains("fabric")) return; // a set written before fabrics were read
    const json &fabric = (*card.device)["fabric"];
    if (!fabric.is_object()) {
        const std::string why = text_or(object_or_empty(*card.device, "unknown"), "fabric", "not read");
        section["notes"].push_back("GPU-to-GPU fabric: none (" + why + ").");
        // Peer copies are where the fabric matters: their card says it has none even
        // when nothing else of this section was recorded.
        if (!results_of(*card.set, card.id, "bandwidth.peer").empty()) {
            json none = make_table({"fabric", "why none"});
            add_row(none, {"none", why});
            section["tables"].push_back(std::move(none));
        }
        return;
    }
    section["notes"].push_back("GPU-to-GPU fabric: " + fabric_summary_text(*card.device) + ".");
    const Fabric f = fabric_from_json(fabric);
    if (!f.peers.empty()) {
        json ends = make_table({"far end", "type", "links", "version", "rate per direction", "rate from"});
        for (const FabricPeer &p : f.peers)
            add_row(ends,
                    {p.address.empty() ? "unknown" : p.address, p.type.empty() ? "-" : p.type,
                     p.links ? std::to_string(*p.links) : "-", p.version ? std::to_string(*p.version) : "-",
                     p.rate_gb_per_s ? fmt::format("{} GB/s", fixed(*p.rate_gb_per_s, 1)) : "unknown", p.rate_source});
        section["tables"].push_back(std::move(ends));
    }
    json copies = make_table({"peer copy", "value", "fabric", "of fabric rate"});
    for (const json *r : results_of(*card.set, card.id, "bandwidth.peer")) {
        if (!usable(*r) || !r->contains("fabric")) continue;
        const json value = r->value("value", json()), on_fabric = r->value("fabric_efficiency", json());
        add_row(copies,
                {figure_label(*r) + " " + text_or(r->value("parameters", json()), "pair", ""),
                 value.is_number() ? fmt::format("{} {}", figure_text(value.get<double>(), 1), text_or(*r, "unit", ""))
                                   : "-",
                 text_or((*r)["fabric"], "summary", "-"),
                 on_fabric.is_number() ? percent_text(on_fabric.get<double>()) : "-"});
    }
    if (!copies["rows"].empty()) section["tables"].push_back(std::move(copies));
}

} // namespace

json card_around_memory_section(const Card &card)
{
    json section = make_section("The card around the memory: link and telemetry");
    const json link = best_link(card);
    if (link.is_object()) {
        const PcieLink l = pcie_link_from_json(link);
        const auto rate = current_rate(l);
        std::string note =
            fmt::format("PCIe link: {} of {} ({} GB/s per direction), read {}.", link_text(l.current), link_text(l.max),
                        rate ? fixed(*rate, 1) : std::string("?"), text_or(link, "taken", "at an unknown time"));
        const std::string finding = link_finding(l);
        if (!finding.empty())
            note += " " + std::string(1, static_cast<char>(std::toupper(finding[0]))) + finding.substr(1) + ".";
        section["notes"].push_back(std::move(note));
        json links = make_table({"negotiated", "card supports", "slot supports", "rate per direction", "read"});
        const auto supported = supported_rate(l);
        add_row(links, {link_text(l.current), link_text(l.max), l.port.empty() ? "-" : link_text(l.port_max),
                        rate ? fmt::format("{} GB/s (of {} GB/s supported)", fixed(*rate, 1),
                                           supported ? fixed(*supported, 1) : std::string("?"))
                             : "-",
                        text_or(link, "taken", "")});
        section["tables"].push_back(std::move(links));
    } else if (card.device->contains("link")) {
        section["notes"].push_back("PCIe link: none (" +
                                   text_or(object_or_empty(*card.device, "unknown"), "link", "not read") + ").");
    }
    add_fabric(section, card);
    json table = make_table({"figure", "value", "of peak", "of link", "busy %", "memory busy %", "core clock",
                             "power of limit", "throttled", "telemetry"});
    for (const char *probe : kWatchedProbes)
        for (const json *r : results_of(*card.set, card.id, probe)) {
            if (!usable(*r)) continue;
            const json &t = object_or_empty(*r, "telemetry");
            if (t.empty() && !r->contains("link_efficiency")) continue;
            const json value = r->value("value", json());
            const json efficiency = r->value("efficiency", json()), on_link = r->value("link_efficiency", json());
            const json &throttled = object_or_empty(*r, "throttled");
            add_row(table,
                    {figure_label(*r),
                     value.is_number()
                         ? fmt::format("{} {}", figure_text(value.get<double>(), 1), text_or(*r, "unit", ""))
                         : "-",
                     efficiency.is_number() ? percent_text(efficiency.get<double>()) : "-",
                     on_link.is_number() ? percent_text(on_link.get<double>()) : "-",
                     median_text(t, "busy_percent", "%"), median_text(t, "memory_busy_percent", "%"),
                     median_text(t, "core_clock_mhz", " MHz"), median_text(t, "power_of_limit", "%", 100),
                     throttled.contains("reasons") && throttled["reasons"].is_array()
                         ? fmt::format("{}", fmt::join(throttled["reasons"].get<std::vector<std::string>>(), ", "))
                         : "no",
                     fmt::format("{}, {} sample{}", text_or(t, "source", "none"), count_or(t, "samples", 0),
                                 count_or(t, "samples", 0) == 1 ? "" : "s")});
        }
    if (!table["rows"].empty()) {
        section["notes"].push_back(
            "Busy time is not bytes: busy % is the share of time the driver saw a kernel running (for a CPU, the "
            "share of time its cores were busy), not the share of the memory's bandwidth used. A card can be 100% "
            "busy while moving a few per cent of its peak, as gather and chase show; \"of peak\" is what each figure "
            "actually moved.");
        section["tables"].push_back(std::move(table));
    }
    return section;
}

} // namespace vrb::report
