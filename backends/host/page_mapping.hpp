// Anonymous memory for the host's buffers, mapped for the owner's life: whole pages, and
// for a large buffer a start that no other recent large buffer shares its high bits with.
//
// Why: a core's L1 picks a line's way by a hash of part of its virtual address (AMD's
// micro-tag, from the bits above the page offset up to about bit 26), so two lines whose
// addresses differ only above the hashed bits take the same tag in the same set and evict
// each other at every access. Linux aligns large anonymous mappings to 2 MiB and lays
// equal ones side by side, so a sweep's two 128 MiB buffers began exactly 2^27 bytes
// apart, and its copy ran in L1 at the speed of L2 (110 against 330 GB/s, Zen 4 VM, two
// cores); 2^26 apart, or 2 MiB more, it ran at full speed. Each large mapping therefore
// starts on the next of eight 2 MiB colours (address bits 21-23), so the buffers one
// probe allocates in a row never differ only in their high bits. The pages before the
// start are unmapped again: nothing is held beyond the buffer's own pages.
#pragma once

#include <cstdint>

namespace vrb::host {

class PageMapping {
  public:
    // Whole pages for `bytes`; coloured when `bytes` is at least `coloured_from`.
    // Fails with VRB_ERROR_OUT_OF_MEMORY when the OS refuses the mapping.
    explicit PageMapping(uint64_t bytes);
    ~PageMapping();
    PageMapping(const PageMapping &) = delete;
    PageMapping &operator=(const PageMapping &) = delete;

    void *base() const { return base_; }
    uint64_t bytes() const { return bytes_; } // whole pages

  private:
    void *base_ = nullptr;
    uint64_t bytes_ = 0;
};

// A mapping this large is coloured: Linux gives such mappings 2 MiB alignment (for
// transparent huge pages), which is what lines them up on high powers of two.
inline constexpr uint64_t coloured_from = uint64_t{2} << 20;

// The colour of an address: its bits 21-23, the 2 MiB stride within 16 MiB.
inline uint32_t address_colour(const void *p)
{
    return static_cast<uint32_t>((reinterpret_cast<uintptr_t>(p) >> 21) & 7);
}

} // namespace vrb::host
