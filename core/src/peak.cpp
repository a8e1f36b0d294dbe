#include <vrambench/core/error.hpp>
#include <vrambench/core/peak.hpp>

#include <fmt/format.h>

#include <cmath>

namespace vrb {

namespace {

void require_positive(double value, const char *what)
{
    if (!std::isfinite(value) || value <= 0) throw UsageError(fmt::format("{} must be a positive number", what));
}

} // namespace

PeakBandwidth peak_from_reported_clock(double memory_clock_mhz, double bus_bits)
{
    require_positive(memory_clock_mhz, "the memory clock");
    require_positive(bus_bits, "the bus width");
    PeakBandwidth p;
    p.gb_per_s = 2.0 * memory_clock_mhz * 1e6 * bus_bits / 8.0 / 1e9;
    p.convention = fmt::format("runtime-reported clock: {} MHz is half the per-pin data rate, so each pin moves "
                               "2 x {} Mbit/s; peak = 2 x clock x {} bits / 8",
                               memory_clock_mhz, memory_clock_mhz, bus_bits);
    return p;
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

} // namespace vrb
