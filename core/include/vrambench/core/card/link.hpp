// The PCIe link of a card: what it negotiated and what it and its slot support, read from
// sysfs by PCI address (sysfs.hpp's root), and the rate each means per direction.
//
// A GPU lowers its link's speed (often to Gen1) when idle, so a reading says when it was
// taken; the runner reads the link again while timed runs execute (sampler.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace vrb {

// One end's figures: a speed in GT/s per lane and a width in lanes.
struct LinkSpeed {
    std::optional<double> gts;
    std::optional<uint32_t> width;
    bool known() const { return gts && width; }
};

struct PcieLink {
    std::string address;
    LinkSpeed current;                          // negotiated
    LinkSpeed max;                              // what the card supports
    std::string port;                           // the upstream port's address, empty when none was found
    LinkSpeed port_max;                         // what the slot (the upstream port) supports
    std::map<std::string, std::string> unknown; // field -> why it could not be read
};

// 1 for 2.5 GT/s, 2 for 5, 3 for 8, 4 for 16, 5 for 32, 6 for 64, 7 for 128; 0 otherwise.
int pcie_generation(double gts);

// The theoretical rate of one direction in GB/s: the line rate times the lanes, less the
// encoding (8b/10b for Gen1-2, 128b/130b for Gen3-5, 242 of every 256 bytes of a FLIT for
// Gen6 on). Empty for a speed no generation has.
std::optional<double> pcie_rate_gb_per_s(double gts, uint32_t width);

// "x16 Gen5", or "x16 at 20 GT/s" for a speed no generation names.
std::string link_text(const LinkSpeed &speed);

// Reads current_link_speed, current_link_width, max_link_speed and max_link_width of the
// device and of the port above it. A missing or unreadable file leaves its field empty
// with the reason in `unknown`; nothing throws.
PcieLink read_pcie_link(const std::string &address);

// The rates the link reaches: current, and the ceiling of what card and slot both support.
std::optional<double> current_rate(const PcieLink &link);
std::optional<double> supported_rate(const PcieLink &link); // min(card max, slot max)
std::optional<double> card_rate(const PcieLink &link);      // the card's max alone

// Whether the link trained below what card and slot both support (supported_rate): a
// Gen5 card in a Gen4 slot at Gen4 is not. Empty when unknown.
std::optional<bool> below_max(const PcieLink &link);

// One sentence when the link is below what card and slot support: "this x16 Gen5 card
// trained at x8 Gen4: the transfers' ceiling is a quarter of what the card supports".
// Empty otherwise.
std::string link_finding(const PcieLink &link);

// The link as a device or a result records it (schema: definitions/link). `taken` says
// when: "at description, idle" or "during the timed runs".
nlohmann::json to_json(const PcieLink &link, const std::string &taken);
// Back, from a recorded link (for the report and the transfer annotation); empty fields
// for what it lacks.
PcieLink pcie_link_from_json(const nlohmann::json &link);

// A device's link in one line for `list` and `info`: "x8 Gen4 of x16 Gen5 (15.8 of 63.0
// GB/s per direction; at description, idle); BELOW ITS MAX: this ..." or "none: why".
// Empty when the device records no link at all (a set written before links were read).
std::string link_summary_text(const nlohmann::json &device);

} // namespace vrb
