// The size of the last-level cache instance one core reaches, measured, for a CPU whose
// description gives only the whole package's total.
//
// Where a VM hides both sysfs's cache topology and CPUID's deterministic cache
// parameters, glibc's sysconf() still answers, from leaf 0x80000006 on AMD, with the L3
// of the whole package: 508 MiB on a Zen 5 EPYC whose cores each reach one CCD's 32 MiB.
// Planned and named from that total, every sweep point of up to 500 MiB would be "L3"
// and every "past the cache" buffer 16 times too large. No API of the guest says which
// CCX a core sits in, so the size one core reaches is measured: one core reads growing
// buffers in order, a word a line, and its time per line steps up where the buffer
// outgrows the cache.
//
// Why a streaming read and not a pointer chase: a chase's lap over a buffer past a few
// MiB takes tens of milliseconds (a step waits on each miss), long enough for the other
// programs on a shared L3 to push its lines out; on a 2-vCPU Zen 5 VM its knee wandered
// from 5 to 18 MiB between minutes while the sweep's reads held their L3 level to 32 MiB.
// A read laps the same buffer in a fraction of a millisecond, as the sweep does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vrb::cpu {

struct ReadPoint {
    uint64_t bytes = 0;
    double ns = 0; // per line read
};

struct CacheInstance {
    // Where the time per line crosses halfway (geometrically) from the in-cache level to
    // the memory level, interpolated between the two sizes around the crossing;
    // `upto` when it never crossed (no knee below the total).
    uint64_t bytes = 0;
    bool knee_found = false;
    // A read could not be run (no memory for its buffer): nothing was learnt, and nothing
    // is kept for the boot.
    bool failed = false;
    std::vector<ReadPoint> points; // every size measured, in order
};

// Walks sizes from `from` up by factors of sqrt(2) to at most `upto` (and 1 GiB), asking
// `ns_per_line` for each, to the second size in a row whose line takes at least 1.6
// times the fastest's (one slow size alone is a stall, not memory); walks them all again,
// keeping each size's fastest line, until a walk finds the largest knee so far again
// (within 1/8), or a walk after the first goes all the way to `upto` without a knee (no
// knee: with each size's fastest line, an earlier knee was a neighbour's doing); after
// six walks, the largest knee found. A time of 0 (the read failed) ends it as `failed`.
// `between_walks` runs before each walk after the first. Pure, for tests.
CacheInstance find_cache_instance(uint64_t from, uint64_t upto, const std::function<double(uint64_t)> &ns_per_line,
                                  const std::function<void()> &between_walks = {});

// Nanoseconds per 64-byte line for one core reading a buffer of `bytes` in order, one
// word a line (transparent huge pages asked for, so it measures the cache, not the TLB;
// the prefetchers stream it, as they do the sweep's reads): the least of three stretches
// of at least 32 MiB timed in the thread's CPU time, which a time slice lost to a
// neighbour does not lift. 0 when memory for it cannot be had.
double read_ns_per_line(uint64_t bytes);

// The instance kept in the file at `path` under `key` (one line: the key, the bytes, 1
// when a knee was found, the time it was kept in seconds), or else `measure`d and kept
// there. The file is locked while it is read and measured for: the modules a run
// describes side by side, each in a process of its own, would otherwise read at once
// and halve each other's cache. An answer older than ten minutes at `now` is measured
// again and the larger of the two kept: other programs' traffic only makes a cache look
// smaller, so an answer taken on a busy machine is mended on a quieter one. A failed
// measurement is not kept. A file that cannot be opened is measured for each time; one
// that holds another key or anything unreadable is measured for and overwritten.
// Points are not kept.
CacheInstance remembered_cache_instance(const std::string &path, const std::string &key, int64_t now,
                                        const std::function<CacheInstance()> &measure);

// find_cache_instance with read_ns_per_line on each CPU this process may use (at most
// eight; one on which the read fails is passed over), the largest answer, or no knee
// when one CPU found none (its cache is the whole total), kept as above in
// $XDG_RUNTIME_DIR/vrambench (else /tmp/vrambench-UID, a folder only this user may use)
// under the boot's id and the bounds (measured each time where neither can be had). A
// process asks once: its first answer stands for its life, whatever bounds come later.
CacheInstance measured_cache_instance(uint64_t from, uint64_t upto);

} // namespace vrb::cpu
