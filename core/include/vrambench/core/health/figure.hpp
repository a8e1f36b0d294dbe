// The figures `health` judges and ranks: what names one (probe, operation, element
// width) and how it is read out of a result, one definition for references, verdicts,
// ranks and the fleet.
#pragma once

#include <nlohmann/json.hpp>

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vrb::health {

struct FigureKey {
    std::string probe;          // bandwidth.stream, bandwidth.transfer or latency.chase
    std::string operation;      // the stream operation or the transfer direction; empty for the chase
    uint64_t element_bytes = 0; // the stream's element width; 0 where the probe has none
    auto operator<=>(const FigureKey &) const = default;
};

// "bandwidth.stream triad (16 B)", "bandwidth.transfer host-to-device pinned at 64 MiB".
std::string figure_text(const FigureKey &key);

// The unit a probe's figure is in ("GB/s", "ns"); none for a probe health has no
// figure of (integrity counts mismatches, it is judged apart).
std::optional<std::string_view> figure_unit(std::string_view probe);
bool figure_lower_is_better(std::string_view probe);
// The stream operations a reference may name.
bool is_stream_operation(std::string_view operation);

struct Figure {
    FigureKey key;
    std::string unit;
    std::optional<double> value; // unset when the result carries none (failed, skipped)
    std::string status;          // the result's (or the transfer point's) status
    std::string verification;    // "passed", "failed", "unverified"
    std::string verification_detail;
};

// The health figure a result carries: a stream operation past the cache (not one sized
// by --size), a transfer direction at transfer_bytes (the curve's point there), the
// chase's figure. None for any other result.
std::optional<Figure> health_figure(const nlohmann::json &result);

// Whether the figure is the card's own: a pageable transfer is the host's memcpy through
// the driver's staging buffers as much as the card's copy engine, so it is reported, not
// judged.
bool card_figure(const FigureKey &key);

// Whether the figure may be judged or used as a reference: measured and verified.
bool trusted(const Figure &figure);

} // namespace vrb::health
