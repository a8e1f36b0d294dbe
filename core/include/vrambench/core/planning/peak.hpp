// Theoretical peak memory bandwidth: from a datasheet, or from the bus width and the
// memory clock a runtime reports, with the convention that turns one into the other.
//
// What a runtime calls the memory clock depends on the runtime and the memory type, not
// on the vendor. CUDA reports half the per-pin data rate for every memory it drives up to
// GDDR6X and HBM3e (GDDR7's reading is unconfirmed: the rule is applied and says so), and
// so does HIP for GDDR6 and HBM2e: peak = 2 x clock x bus width / 8. An RTX 4090 reports
// 10501 MHz on 384 bits: 2 x 10501e6 x 384 / 8 = 1008 GB/s; an H200 3201 MHz on 6144
// bits: 4.9 TB/s. HIP reports a quarter of it for HBM3: an MI300X's 1300 MHz is 5.2 Gbit/s
// per pin, 4 x 1.3e9 x 8192 / 8 = 5.3 TB/s, where the doubling rule would say 2.66 TB/s.
// A datasheet's per-pin data rate (21 Gbps on the RTX 4090) is already the full figure:
// peak = rate x bus width / 8; doubling it again is the classic mistake.
#pragma once

#include <vrambench/core/planning/device_table.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace vrb {

struct PeakBandwidth {
    double gb_per_s = 0;            // 1e9 bytes per second
    std::string convention;         // how the inputs were read, said to the user
    double transfers_per_clock = 0; // from a clock: the convention's factor; 0 from a data rate
};

// Transfers per pin per cycle of the clock a runtime reports.
struct ClockConvention {
    double transfers_per_clock = 2;
    std::string text;
};

// `api` as a device reports it ("CUDA", "HIP", "Vulkan"); `memory` when it is known.
ClockConvention clock_convention(std::string_view api, std::optional<MemoryType> memory);

PeakBandwidth peak_from_clock(double memory_clock_mhz, double bus_bits, const ClockConvention &convention);
// The half-data-rate convention (CUDA, and HIP on GDDR and HBM2e).
PeakBandwidth peak_from_reported_clock(double memory_clock_mhz, double bus_bits);
PeakBandwidth peak_from_data_rate(double gbps_per_pin, double bus_bits);

// A runtime's bus width and memory clock past what any card has are a broken report,
// not a peak: no figure may be judged against them (a module answering UINT32_MAX for
// both would make every figure "efficient").
inline constexpr double most_plausible_peak_gb_per_s = 100000; // 100 TB/s
inline constexpr uint32_t widest_plausible_bus_bits = 16384;

// The peak from the runtime's clock, or why there is none: `refused` says why a reported
// bus width and clock were not believed; both empty when either is unreported.
struct RuntimeClockReading {
    std::optional<PeakBandwidth> peak;
    std::string refused;
};
RuntimeClockReading read_runtime_clock(const vrb_device_info &info, const CardMatch &match);

// The peak worked from the bus width and memory clock the runtime reports, read by the
// convention of its runtime and of the memory the device table says the card carries;
// none when either is unknown or they are implausible.
std::optional<PeakBandwidth> runtime_clock_peak(const vrb_device_info &info, const CardMatch &match);
std::optional<PeakBandwidth> runtime_clock_peak(const vrb_device_info &info);

// The peak a device's figures are set against, and where it came from.
struct PeakChoice {
    std::optional<double> gb_per_s; // what efficiency and "suspect" are measured against
    std::string source;             // "datasheet", "runtime-clock" or "none"
    std::string convention;         // how the figure was computed
    std::optional<double> datasheet_gb_per_s, runtime_gb_per_s;
    std::string card; // the device table's entry, when one matched (or was partitioned)
    bool partitioned = false;
    bool disagreement = false; // datasheet and runtime clock differ by more than 10 %
    std::string note;          // why this source; the disagreement, when there is one
};

// The datasheet when the device table matches the device unambiguously and it is not a
// partition; the runtime clock otherwise; none when neither is known.
PeakChoice choose_peak(const vrb_device_info &info);

nlohmann::json to_json(const PeakChoice &peak);

} // namespace vrb
