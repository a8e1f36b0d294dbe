// The card a model is fitted to, as measured: its memory (capacity.report), what one
// process can hold (capacity.total), the largest single allocation (capacity.max-alloc),
// what fragmentation leaves (capacity.fragmentation), the read bandwidth (bandwidth.stream)
// and host RAM's read bandwidth beside it, each with the result it comes from.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb::fit {

// A figure the answer uses, and where it was measured.
struct Figure {
    std::string name; // "capacity.total", "bandwidth.stream read"
    double value = 0;
    std::string unit;      // "bytes", "GB/s"
    std::string device;    // "cuda:0"
    std::string result_id; // "<run id>#<index in results>", or "--memory" when given by hand
};

struct Card {
    std::string device;    // "cuda:0", or "by hand"
    std::string name;      // the device's name
    std::string measured;  // "the result set r.json", "measured now", "given by hand"
    double card_bytes = 0; // the memory the card has: capacity.report's total, or --memory
    // What one process can hold: capacity.total; capacity.report's free when the run's
    // budget stopped capacity.total short; card_bytes by hand.
    double available_bytes = 0;
    std::string available_rule;            // which of those, in words
    std::optional<double> max_alloc_bytes; // capacity.max-alloc
    double fragmentation_lost_share = 0;   // 1 - capacity.fragmentation's largest block / the block asked for
    // The stream read at the widest element; 0 when the set's only read is marked suspect
    // or none was given by hand (then there is no decode ceiling).
    double read_gb_per_s = 0;
    std::optional<double> host_read_gb_per_s;
    std::string host_device;   // "host:0" where host RAM's figure comes from
    std::string host_measured; // "the result set r.json", "measured now on this machine"
    // The card reading host memory over its link: memory.kinds' pinned read by the card,
    // else bandwidth.transfer's host-to-device pinned copy (the route of offloaded weights).
    std::optional<Figure> link_read;
    std::vector<Figure> figures;
    std::vector<std::string> notes;
};

// --memory SIZE [--bandwidth RATE]: no runtime share, no fragmentation, no host or link
// figure; read_gb_per_s 0 when not given (no decode ceiling).
Card card_by_hand(double memory_bytes, double read_gb_per_s);

// fit's --memory and --offload: "80GB", "1.5TB" decimal (GB = 1e9 bytes), "80GiB",
// "1TiB" binary, as --bandwidth reads its rates; a bare number or a bare G, T is refused
// as ambiguous. UsageError naming `flag` for anything else, zero, negative or past 1 PiB.
double parse_fit_bytes(std::string_view text, std::string_view flag);
inline constexpr double most_memory_bytes = double(1ull << 50);

// "2039GB/s", "3.35TB/s", "900 GiB/s", "2039" (GB/s): GB/s = 1e9 bytes a second.
// UsageError for anything else, zero, negative or past 1e6 GB/s.
double parse_bandwidth(std::string_view text);

// The card `device` of a result set (empty: its only device that is not host:0, else
// host:0). UsageError naming the set, the device and the probe to run when a figure is
// missing: capacity.report's total, capacity.total (or capacity.report's free), and
// bandwidth.stream's read.
Card card_from_result_set(const nlohmann::json &set, const std::string &set_name, const std::string &device);

// host:0's stream read in `set` (status ok, the widest element), named with its result
// id; nullopt when the set has none.
std::optional<Figure> host_read_in_set(const nlohmann::json &set);
// Takes `host` as the card's host RAM figure, measured as `measured` says.
void set_host_read(Card &card, const Figure &host, const std::string &measured);

// The probes a result set needs for fit, as `vrambench run` takes them.
std::string fit_probes_command(const std::string &device);

} // namespace vrb::fit
