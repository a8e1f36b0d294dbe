// The page size the OS backs the host's buffers with, read from /proc/self/smaps: what
// vrb_op_output.page_bytes reports, so a latency curve says whether its chain lay in
// 4 KiB or 2 MiB pages (the TLB reaches entries x page size).
//
// madvise(MADV_HUGEPAGE) only asks: the kernel gives transparent huge pages where it can
// (THP mode, free 2 MiB blocks, alignment) and 4 KiB pages elsewhere. smaps says what it
// gave, per mapping (VMA): AnonHugePages of the mapping's Rss are huge. A VMA may hold
// more than one buffer (the kernel merges neighbours with the same flags), so the answer
// is that of the mappings a buffer lies in, not of its bytes alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace vrb::host {

struct AddressRange {
    uint64_t begin = 0, end = 0; // [begin, end), virtual addresses
};

// smaps text taken a line at a time, for a few address ranges at once.
class SmapsPages {
  public:
    // `huge_page_bytes`: what a mapping whose every resident page is an anonymous huge
    // page reports (the PMD size).
    SmapsPages(std::vector<AddressRange> ranges, uint64_t huge_page_bytes);

    // Takes smaps' next line; false once no later line can matter (a mapping starts at or
    // past the end of every range), so the reader may stop there.
    bool take(std::string_view line);

    // The smallest page size of the mappings the ranges lie in: the PMD size for a mapping
    // whose Rss is all AnonHugePages, else its KernelPageSize (the huge size already for
    // hugetlbfs). 0 when a range lay in no mapping, or a mapping gave no KernelPageSize.
    uint64_t page_bytes() const;

  private:
    void close_mapping();

    struct Found {
        uint64_t smallest = 0; // 0: no mapping seen yet
        bool unknown = false;  // a mapping of it said nothing usable
    };
    std::vector<AddressRange> ranges_;
    std::vector<Found> found_;
    uint64_t huge_ = 0;
    uint64_t last_end_ = 0; // of every range

    // The mapping whose fields are being read.
    bool open_ = false;
    AddressRange mapping_;
    uint64_t kernel_page_ = 0, rss_ = 0, anon_huge_ = 0; // bytes
    bool done_ = false;
};

// The same over whole smaps text: a pure function for tests and for text read elsewhere.
uint64_t smaps_page_bytes(std::string_view smaps, std::span<const AddressRange> ranges, uint64_t huge_page_bytes);

// The PMD size from /sys/kernel/mm/transparent_hugepage/hpage_pmd_size, 2 MiB where that
// file is absent or unreadable.
uint64_t huge_page_bytes();

// The page size of `ranges` in this process now, read from /proc/self/smaps up to the
// last mapping they lie in; 0 when smaps cannot be read or a range lies in no mapping.
uint64_t page_bytes_of(std::span<const AddressRange> ranges);

// page_bytes_of(), read again only where the answer may have changed: for other ranges,
// once a buffer was made since (`generation` moved: a new mapping may lie at an old
// address), or once the last answer is `fresh_for` old (khugepaged may have collapsed
// pages into huge ones). smaps walks the page tables of every mapping up to the ranges at
// each read (0.3 ms over a few hundred MiB of huge pages, 4 ms over 256 MiB of 4 KiB
// pages, Zen 4 VM), and a curve point makes tens of runs over the same buffers: read at
// each, it took a standard sweep from 1.6 to 2.3-3.0 s.
class RecentPageBytes {
  public:
    using Reader = std::function<uint64_t(std::span<const AddressRange>)>;
    explicit RecentPageBytes(std::chrono::steady_clock::duration fresh_for = std::chrono::seconds(1),
                             Reader read = page_bytes_of);

    uint64_t of(std::span<const AddressRange> ranges, uint64_t generation);

  private:
    std::chrono::steady_clock::duration fresh_for_;
    Reader read_;
    bool known_ = false;
    std::vector<AddressRange> ranges_;
    uint64_t generation_ = 0, page_bytes_ = 0;
    std::chrono::steady_clock::time_point read_at_;
};

} // namespace vrb::host
