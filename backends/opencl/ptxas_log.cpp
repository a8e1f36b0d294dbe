#include "ptxas_log.hpp"

#include <charconv>

namespace vrb::opencl {

namespace {

// The text between `open` and `close` after `key` in `line`, or nothing.
std::string_view between(std::string_view line, std::string_view key, char open, char close)
{
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return {};
    const std::size_t first = line.find(open, at + key.size());
    if (first == std::string_view::npos) return {};
    const std::size_t last = line.find(close, first + 1);
    if (last == std::string_view::npos) return {};
    return line.substr(first + 1, last - first - 1);
}

} // namespace

std::map<std::string, uint32_t> ptxas_registers(std::string_view log)
{
    // ptxas names each entry function as it compiles it, then says "Used N registers"
    // of it a few lines on:
    //   ptxas info    : Compiling entry function 'read_w4' for 'sm_90'
    //   ptxas info    : Used 48 registers, used 1 barriers, 2048 bytes smem
    std::map<std::string, uint32_t> registers;
    std::string kernel;
    while (!log.empty()) {
        const std::size_t end = log.find('\n');
        const std::string_view line = log.substr(0, end);
        log = end == std::string_view::npos ? std::string_view{} : log.substr(end + 1);
        if (const std::string_view name = between(line, "Compiling entry function", '\'', '\''); !name.empty()) {
            kernel = name;
            continue;
        }
        const std::size_t used = line.find("Used ");
        if (kernel.empty() || used == std::string_view::npos || line.find(" registers") == std::string_view::npos)
            continue;
        const char *first = line.data() + used + 5;
        uint32_t count = 0;
        const auto [next, error] = std::from_chars(first, line.data() + line.size(), count);
        if (error == std::errc{} && std::string_view(next, line.data() + line.size()).starts_with(" registers")) {
            registers[kernel] = count;
            kernel.clear();
        }
    }
    return registers;
}

} // namespace vrb::opencl
