#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace vrb {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

uint64_t multiplier(std::string_view suffix, std::string_view whole)
{
    static const std::array<std::pair<const char *, uint64_t>, 14> table{{
        {"", 1ull},
        {"b", 1ull},
        {"k", 1ull << 10},
        {"kb", 1ull << 10},
        {"kib", 1ull << 10},
        {"m", 1ull << 20},
        {"mb", 1ull << 20},
        {"mib", 1ull << 20},
        {"g", 1ull << 30},
        {"gb", 1ull << 30},
        {"gib", 1ull << 30},
        {"t", 1ull << 40},
        {"tb", 1ull << 40},
        {"tib", 1ull << 40},
    }};
    const std::string s = lower(suffix);
    for (const auto &[name, factor] : table)
        if (s == name) return factor;
    throw UsageError(
        fmt::format("invalid size '{}': unknown unit '{}' (use B, K, M, G, T or KiB, MiB, GiB, TiB)", whole, suffix));
}

} // namespace

uint64_t parse_size(std::string_view text)
{
    std::string_view s = text;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    if (s.empty()) throw UsageError("invalid size '': empty");
    if (s.front() == '-') throw UsageError(fmt::format("invalid size '{}': must be positive", text));

    std::size_t digits = 0;
    while (digits < s.size() && (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.'))
        ++digits;
    if (digits == 0) throw UsageError(fmt::format("invalid size '{}': not a number", text));
    const std::string_view number = s.substr(0, digits);
    const uint64_t factor = multiplier(s.substr(digits), text);

    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size())
        throw UsageError(fmt::format("invalid size '{}': not a number", text));
    const double bytes = value * static_cast<double>(factor);
    if (!std::isfinite(bytes) || bytes >= 9.2e18) throw UsageError(fmt::format("invalid size '{}': too large", text));
    if (bytes < 1) throw UsageError(fmt::format("invalid size '{}': must be at least 1 byte", text));
    if (bytes != std::floor(bytes))
        throw UsageError(fmt::format("invalid size '{}': not a whole number of bytes", text));
    return static_cast<uint64_t>(bytes);
}

MemoryLimit parse_memory_limit(std::string_view text)
{
    MemoryLimit limit;
    if (!text.empty() && text.back() == '%') {
        const std::string_view number = text.substr(0, text.size() - 1);
        double percent = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), percent);
        if (ec != std::errc() || end != number.data() + number.size() || !(percent > 0) || percent > 100)
            throw UsageError(
                fmt::format("invalid memory limit '{}': a percentage must be above 0 and at most 100", text));
        limit.fraction = percent / 100;
        return limit;
    }
    limit.bytes = parse_size(text);
    return limit;
}

uint64_t MemoryLimit::resolve(uint64_t free_bytes) const
{
    if (fraction > 0) return static_cast<uint64_t>(static_cast<double>(free_bytes) * fraction);
    return bytes;
}

std::string format_size(uint64_t bytes)
{
    static const std::array<const char *, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    double value = static_cast<double>(bytes);
    while (unit + 1 < units.size() && value >= 1024) {
        value /= 1024;
        ++unit;
    }
    if (value == std::floor(value)) return fmt::format("{} {}", static_cast<uint64_t>(value), units[unit]);
    return fmt::format("{:.1f} {}", value, units[unit]);
}

} // namespace vrb
