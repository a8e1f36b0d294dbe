#include "driver_banner.hpp"

#include <algorithm>

namespace vrb::gpu {

namespace {

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

// "580.159.04" and "550.120", not "x86_64", "09:55:41", "2025" nor "1.".
bool reads_as_version(std::string_view word)
{
    if (word.empty() || !is_digit(word.front()) || !is_digit(word.back())) return false;
    if (word.find('.') == std::string_view::npos || word.find("..") != std::string_view::npos) return false;
    return std::all_of(word.begin(), word.end(), [](char c) { return is_digit(c) || c == '.'; });
}

} // namespace

std::string version_after_marker(std::string_view line, std::string_view marker)
{
    const std::size_t at = line.find(marker);
    if (at == std::string_view::npos) return {};
    std::string_view rest = line.substr(at + marker.size());
    constexpr std::string_view blanks = " \t\r\n";
    while (!rest.empty()) {
        const std::size_t begin = rest.find_first_not_of(blanks);
        if (begin == std::string_view::npos) break;
        rest.remove_prefix(begin);
        const std::size_t end = std::min(rest.find_first_of(blanks), rest.size());
        if (const std::string_view word = rest.substr(0, end); reads_as_version(word)) return std::string(word);
        rest.remove_prefix(end);
    }
    return {};
}

} // namespace vrb::gpu
