#include "page_size.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <string>

namespace vrb::host {

namespace {

constexpr uint64_t default_huge_page = uint64_t{2} << 20;

std::string_view trim_front(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

std::optional<uint64_t> whole_number(std::string_view text, int base)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

// A mapping's first line, "start-end perms offset dev inode [path]", addresses in hex.
std::optional<AddressRange> mapping_header(std::string_view line)
{
    const std::string_view first = line.substr(0, line.find(' '));
    const std::size_t dash = first.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    const auto begin = whole_number(first.substr(0, dash), 16);
    const auto end = whole_number(first.substr(dash + 1), 16);
    if (!begin || !end || *end < *begin) return std::nullopt;
    return AddressRange{*begin, *end};
}

// "Name:   1234 kB" as bytes, or nothing when the line is another field or not in kB.
std::optional<uint64_t> kib_field(std::string_view line, std::string_view name)
{
    if (!line.starts_with(name) || line.substr(name.size()).substr(0, 1) != ":") return std::nullopt;
    std::string_view rest = trim_front(line.substr(name.size() + 1));
    const std::size_t space = rest.find(' ');
    if (space == std::string_view::npos || trim_front(rest.substr(space)) != "kB") return std::nullopt;
    const auto kib = whole_number(rest.substr(0, space), 10);
    if (!kib) return std::nullopt;
    return *kib * 1024;
}

bool overlaps(const AddressRange &a, const AddressRange &b)
{
    return a.begin < b.end && b.begin < a.end;
}

} // namespace

SmapsPages::SmapsPages(std::vector<AddressRange> ranges, uint64_t huge_page_bytes)
    : ranges_(std::move(ranges)), found_(ranges_.size()), huge_(huge_page_bytes)
{
    for (const AddressRange &r : ranges_)
        last_end_ = std::max(last_end_, r.end);
}

bool SmapsPages::take(std::string_view line)
{
    if (done_) return false;
    if (const auto header = mapping_header(line)) {
        close_mapping();
        // smaps lists mappings in address order: none after this one reaches a range.
        if (header->begin >= last_end_) {
            done_ = true;
            return false;
        }
        open_ = true;
        mapping_ = *header;
        kernel_page_ = rss_ = anon_huge_ = 0;
        return true;
    }
    if (!open_) return true;
    if (const auto v = kib_field(line, "KernelPageSize"))
        kernel_page_ = *v;
    else if (const auto r = kib_field(line, "Rss"))
        rss_ = *r;
    else if (const auto h = kib_field(line, "AnonHugePages"))
        anon_huge_ = *h;
    return true;
}

void SmapsPages::close_mapping()
{
    if (!open_) return;
    open_ = false;
    // hugetlbfs pages are counted apart from Rss (Private_Hugetlb), and its KernelPageSize
    // is the huge size: only anonymous memory needs AnonHugePages to tell.
    const uint64_t page = kernel_page_ == 0 ? 0 : (rss_ > 0 && anon_huge_ >= rss_ ? huge_ : kernel_page_);
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
        if (!overlaps(ranges_[i], mapping_)) continue;
        Found &f = found_[i];
        if (page == 0)
            f.unknown = true;
        else
            f.smallest = f.smallest == 0 ? page : std::min(f.smallest, page);
    }
}

uint64_t SmapsPages::page_bytes() const
{
    SmapsPages settled = *this; // the last mapping read is closed by no later header
    settled.close_mapping();
    uint64_t smallest = 0;
    for (const Found &f : settled.found_) {
        if (f.unknown || f.smallest == 0) return 0;
        smallest = smallest == 0 ? f.smallest : std::min(smallest, f.smallest);
    }
    return smallest;
}

uint64_t smaps_page_bytes(std::string_view smaps, std::span<const AddressRange> ranges, uint64_t huge_page_bytes)
{
    SmapsPages pages({ranges.begin(), ranges.end()}, huge_page_bytes);
    while (!smaps.empty()) {
        const std::size_t newline = smaps.find('\n');
        if (!pages.take(smaps.substr(0, newline))) break;
        smaps = newline == std::string_view::npos ? std::string_view() : smaps.substr(newline + 1);
    }
    return pages.page_bytes();
}

uint64_t huge_page_bytes()
{
    static const uint64_t bytes = [] {
        std::ifstream file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
        std::string text;
        if (!(file >> text)) return default_huge_page;
        const auto v = whole_number(text, 10);
        return v && *v > 0 ? *v : default_huge_page;
    }();
    return bytes;
}

RecentPageBytes::RecentPageBytes(std::chrono::steady_clock::duration fresh_for, Reader read)
    : fresh_for_(fresh_for), read_(std::move(read))
{
}

uint64_t RecentPageBytes::of(std::span<const AddressRange> ranges, uint64_t generation)
{
    const auto now = std::chrono::steady_clock::now();
    const bool same =
        known_ && generation == generation_ &&
        std::equal(ranges.begin(), ranges.end(), ranges_.begin(), ranges_.end(),
                   [](const AddressRange &a, const AddressRange &b) { return a.begin == b.begin && a.end == b.end; });
    if (same && now - read_at_ < fresh_for_) return page_bytes_;
    page_bytes_ = read_(ranges);
    ranges_.assign(ranges.begin(), ranges.end());
    generation_ = generation;
    read_at_ = now;
    known_ = true;
    return page_bytes_;
}

uint64_t page_bytes_of(std::span<const AddressRange> ranges)
{
    if (ranges.empty()) return 0;
    std::ifstream smaps("/proc/self/smaps");
    if (!smaps) return 0;
    SmapsPages pages({ranges.begin(), ranges.end()}, huge_page_bytes());
    std::string line;
    while (std::getline(smaps, line))
        if (!pages.take(line)) break;
    return pages.page_bytes();
}

} // namespace vrb::host
