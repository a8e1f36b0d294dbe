#include <vrambench/core/results/readable.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace vrb {

ReadableScale readable_scale(double reference, std::string_view unit)
{
    const double magnitude = std::abs(reference);
    if (unit == "s") {
        if (magnitude == 0 || magnitude >= 1) return {1, "s"};
        if (magnitude >= 1e-3) return {1e3, "ms"};
        if (magnitude >= 1e-6) return {1e6, "µs"};
        return {1e9, "ns"};
    }
    if (unit == "bytes") {
        static const std::array<const char *, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
        std::size_t k = 0;
        double factor = 1;
        while (k + 1 < units.size() && magnitude * factor >= 1024) {
            factor /= 1024;
            ++k;
        }
        return {factor, units[k], k == 0 ? 0 : 2};
    }
    if (unit == "1") return {1, "", 0};
    return {1, std::string(unit)};
}

std::string readable_number(double value, const ReadableScale &scale)
{
    return fmt::format("{:.{}f}", value * scale.factor, scale.decimals);
}

std::string readable_figure(double value, std::string_view unit)
{
    const ReadableScale scale = readable_scale(value, unit);
    const std::string number = readable_number(value, scale);
    return scale.unit.empty() ? number : number + " " + scale.unit;
}

} // namespace vrb
