// Figures in the units a person thinks in: 116 µs rather than 0.00 s, 2 GiB rather
// than 2147483648 bytes, counts as integers.
#pragma once

#include <string>
#include <string_view>

namespace vrb {

// The unit to print figures of `unit` near `reference` in: value x factor, in `unit`.
struct ReadableScale {
    double factor = 1;
    std::string unit;
    int decimals = 2; // 0 for counts
};

// Seconds scale to ns, µs, ms or s; bytes to B, KiB, MiB, GiB or TiB; a count ("1")
// prints as an integer; any other unit (GB/s, ns) is kept with two decimals.
ReadableScale readable_scale(double reference, std::string_view unit);

// The number alone, in `scale`.
std::string readable_number(double value, const ReadableScale &scale);

// "116.46 µs", "2.00 GiB", "0"
std::string readable_figure(double value, std::string_view unit);

} // namespace vrb
