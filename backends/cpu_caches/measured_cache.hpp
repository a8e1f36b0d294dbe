// The size of the last-level cache instance one core reaches, measured, for a CPU whose
// description gives only the whole package's total.
//
// Where a VM hides both sysfs's cache topology and CPUID's deterministic cache
// parameters, glibc's sysconf() still answers, from leaf 0x80000006 on AMD, with the L3
// of the whole package: 508 MiB on a Zen 5 EPYC whose cores each reach one CCD's 32 MiB.
// Planned and named from that total, every sweep point of up to 500 MiB would be "L3"
// and every "past the cache" buffer 16 times too large. No API of the guest says which
// CCX a core sits in, so the size one core reaches is measured: a dependent pointer chase
// over growing working sets, whose time per step jumps where the chain outgrows the cache.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vrb::cpu {

struct ChasePoint {
    uint64_t bytes = 0;
    double ns = 0; // per dependent step
};

struct CacheInstance {
    // Where the chase's time per step crosses halfway (geometrically) from the in-cache
    // level to the memory level, interpolated between the two sizes around the crossing;
    // `upto` when it never crossed (no knee below the total).
    uint64_t bytes = 0;
    bool knee_found = false;
    // A chase could not be run (no memory for its chain): nothing was learnt, and nothing
    // is kept for the boot.
    bool failed = false;
    std::vector<ChasePoint> points; // every size measured, in order
};

// Walks sizes from `from` up by factors of sqrt(2) to at most `upto` (and 1 GiB), asking
// `ns_per_step` for each, to the second size in a row whose step takes at least four
// times the fastest's (one slow size alone is a stall, not memory); walks them all again,
// keeping each size's fastest step, until a walk finds the largest knee so far again
// (within 1/8), or a walk after the first goes all the way to `upto` without a knee (no
// knee: with each size's fastest step, an earlier knee was a neighbour's doing); after six
// walks, the largest knee found. A step of 0 ns (the chase failed) ends it as `failed`.
// `between_walks` runs before each walk after the first. Pure, for tests.
CacheInstance find_cache_instance(uint64_t from, uint64_t upto, const std::function<double(uint64_t)> &ns_per_step,
                                  const std::function<void()> &between_walks = {});

// Nanoseconds per step of a random cyclic chain of 64-byte lines over `bytes` (transparent
// huge pages asked for, so the walk measures the cache, not the TLB): the least of three
// stretches timed in the thread's CPU time, which a time slice lost to a neighbour does
// not lift. 0 when memory for it cannot be had.
double chase_ns_per_step(uint64_t bytes);

// The instance kept in the file at `path` under `key` (one line: the key, the bytes, 1
// when a knee was found, the time it was kept in seconds), or else `measure`d and kept
// there. The file is locked while it is read and measured for: the modules a run
// describes side by side, each in a process of its own, would otherwise chase at once
// and halve each other's cache. An answer older than ten minutes at `now` is measured
// again and the larger of the two kept: other programs' traffic only makes a cache look
// smaller, so an answer taken on a busy machine is mended on a quieter one. A failed
// measurement is not kept. A file that cannot be opened is measured for each time; one
// that holds another key or anything unreadable is measured for and overwritten.
// Points are not kept.
CacheInstance remembered_cache_instance(const std::string &path, const std::string &key, int64_t now,
                                        const std::function<CacheInstance()> &measure);

// find_cache_instance with chase_ns_per_step on each CPU this process may use (at most
// eight; one on which the chase fails is passed over), the largest answer, or no knee
// when one CPU found none (its cache is the whole total), kept as above in
// $XDG_RUNTIME_DIR/vrambench (else /tmp/vrambench-UID, a folder only this user may use)
// under the boot's id and the bounds; once per process where neither can be had.
CacheInstance measured_cache_instance(uint64_t from, uint64_t upto);

} // namespace vrb::cpu
