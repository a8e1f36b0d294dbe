// Buffers a device's probes share over a run.
//
// Fresh memory is slow the first time it is touched: the operating system (or a
// driver) clears and maps every page, and on some machines that runs at a fraction of a
// GB/s. Every probe used to allocate, fill and free its own buffers, so a run paid that
// cost once per probe and size. The pool keeps buffers a probe has finished with and
// hands them to the next probe that asks for the same kind of memory and no more bytes,
// so each page is touched once per run.
//
// A leased buffer is an ordinary Buffer whose bytes() is what was asked; when it is
// destroyed its memory goes back to the pool. Its contents are undefined, as those of a
// new allocation are: every probe writes what it reads.
//
// Capacity probes never lease: they measure allocation itself, so Device::allocate()
// empties the pool before it asks the driver for memory. An allocation the driver
// refuses for lack of memory is retried once after the pool is emptied.
//
// On a device whose memory is the machine's RAM the run states how much it may take
// (the RAM budget, plan.hpp): with a limit set, a new buffer that would bring what is
// leased and idle past it first frees the idle buffers, so what a probe will not reuse
// (another kind's arrays, a larger size of an earlier probe) is gone before it grows.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace vrb {

class Buffer;
class Module;

class BufferPool : public std::enable_shared_from_this<BufferPool> {
  public:
    BufferPool(std::shared_ptr<Module> module, vrb_device *device);
    ~BufferPool(); // frees every idle buffer
    BufferPool(const BufferPool &) = delete;
    BufferPool &operator=(const BufferPool &) = delete;

    // A buffer of `kind` with at least `bytes` (bytes() reports `bytes`): the smallest
    // idle one that fits, unless it is more than 4x larger than a request under 64 MiB
    // (a small buffer is cheap to make; a large one should stay free for a large
    // request), else a new one. A new buffer replaces the idle ones of its kind that are
    // smaller, so the pool holds at most what the run's largest requests need.
    // Throws BackendError as Device::allocate does.
    std::unique_ptr<Buffer> acquire(uint32_t kind, uint64_t bytes);

    // Frees every idle buffer now.
    void release_idle();
    // Memory about to be held outside the pool (arrays shared with another API): the
    // idle buffers are freed where they and it together would pass the limit.
    void make_room(uint64_t bytes);
    // The most bytes leased and idle together before idle buffers are freed to make
    // room (0: no limit). Leased buffers are never taken back: a probe's own arrays are
    // the plan's to bound.
    void set_limit(uint64_t bytes) { limit_ = bytes; }
    uint64_t leased_bytes() const { return leased_; }

    uint64_t idle_bytes() const;
    size_t idle_count() const { return idle_.size(); }
    // How many leases a held buffer served, and how many buffers were made for them.
    uint64_t reused() const { return reused_; }
    uint64_t created() const { return created_; }

  private:
    friend class Buffer;
    struct Idle {
        vrb_buffer *handle;
        uint64_t bytes;
        uint32_t kind;
    };
    void give_back(vrb_buffer *handle, uint64_t bytes, uint32_t kind);
    vrb_buffer *allocate(uint32_t kind, uint64_t bytes);
    void free_handle(vrb_buffer *handle) const;

    std::shared_ptr<Module> module_;
    vrb_device *device_;
    std::vector<Idle> idle_;
    uint64_t reused_ = 0;
    uint64_t created_ = 0;
    uint64_t leased_ = 0; // held by live buffers, at their allocated sizes
    uint64_t limit_ = 0;
};

} // namespace vrb
