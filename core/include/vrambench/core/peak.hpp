// Theoretical peak memory bandwidth from bus width and memory clock.
//
// Runtimes (CUDA, HIP, NVML) report the memory clock at half the per-pin data rate,
// so peak = 2 x reported clock x bus width / 8. An RTX 4090 reports 10501 MHz on a
// 384-bit bus: 2 x 10501e6 x 384 / 8 = 1008 GB/s. A datasheet's per-pin data rate
// (21 Gbps on that card) is already the doubled figure: peak = rate x bus width / 8.
// Doubling a per-pin rate again is the classic mistake this module exists to avoid.
#pragma once

#include <string>

namespace vrb {

struct PeakBandwidth {
    double gb_per_s = 0;    // 1e9 bytes per second
    std::string convention; // how the inputs were read, said to the user
};

PeakBandwidth peak_from_reported_clock(double memory_clock_mhz, double bus_bits);
PeakBandwidth peak_from_data_rate(double gbps_per_pin, double bus_bits);

} // namespace vrb
