#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/measurement/tlb_reach.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace vrb {

namespace {

// Reads a decimal number at the front of `text`, moving past it; false where none is.
bool take_number(std::string_view &text, uint64_t &out)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (error != std::errc{} || end == text.data()) return false;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return true;
}

std::string_view next_word(std::string_view &text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    const std::size_t end = std::min(text.find(' '), text.size());
    const std::string_view word = text.substr(0, end);
    text.remove_prefix(end);
    return word;
}

} // namespace

std::vector<TlbReach> parse_data_tlb(std::string_view text)
{
    std::vector<TlbReach> out;
    while (!text.empty()) {
        const std::size_t semicolon = std::min(text.find(';'), text.size());
        std::string_view level_text = text.substr(0, semicolon);
        text.remove_prefix(std::min(semicolon + 1, text.size()));
        std::string_view word = next_word(level_text);
        uint64_t level = 0;
        if (word.size() < 2 || word.front() != 'L') return {};
        word.remove_prefix(1);
        if (!take_number(word, level) || !word.empty() || level == 0) return {};
        bool any = false;
        for (word = next_word(level_text); !word.empty(); word = next_word(level_text)) {
            uint64_t entries = 0;
            if (!take_number(word, entries) || word.size() < 2 || word.front() != 'x') return {};
            word.remove_prefix(1);
            // A page size always with its unit ("4K"), as sizes are written everywhere else.
            if (!std::isalpha(static_cast<unsigned char>(word.back()))) return {};
            uint64_t page = 0;
            try {
                page = parse_size(word);
            } catch (const UsageError &) {
                return {};
            }
            if (entries == 0 || entries > (1ull << 32) || page > GiB) return {};
            out.push_back({static_cast<uint32_t>(level), entries * page});
            any = true;
        }
        if (!any) return {};
    }
    std::sort(out.begin(), out.end(), [](const TlbReach &a, const TlbReach &b) { return a.bytes < b.bytes; });
    return out;
}

std::vector<TlbReach> tlb_reach(const vrb_device_info &info)
{
    for (uint32_t i = 0; i < info.property_count && i < VRB_MAX_PROPERTIES; ++i)
        if (module_text(info.properties[i].key) == VRB_PROPERTY_DATA_TLB)
            return parse_data_tlb(module_text(info.properties[i].value));
    return {};
}

} // namespace vrb
