// The working-set sweep on a CPU Vulkan device (Mesa's lavapipe): with the passes
// looped inside the shaders, small working sets read at the speed the CPU's caches give
// lavapipe, not at the rate dispatches are recorded and run (which held 8 KiB at
// 0.2 GB/s and 64 KiB at 0.8 GB/s, a seventh of the read from memory).
//
// How much faster the caches are depends on the CPU and on Mesa. On a 2-vCPU Zen 3 VM
// (L1d 32 KiB, L2 512 KiB per core, L3 32 MiB) with Mesa 22.3.6, quiet, the read climbs
// from 6.6 GB/s at 4 KiB to 16-17.5 GB/s from 128 KiB to 2 MiB and falls to 11.5-12.9
// GB/s from 32 MiB on; 64 KiB sits on the climb at 12.9 GB/s, level with memory. With
// other builds loading it, over 41 runs, 64 KiB read 7.6 to 24.8 GB/s against 4.4 to
// 12 GB/s at 256 MiB. Twice the memory read is out of reach there: the CPU-tuned read
// fetches its 16-byte elements from texel buffers, which llvmpipe turns into AVX2 gathers
// (four per eight elements), and the gathers, not the caches, bound it, where the host
// backend reads 100 to 150 GB/s in cache and 12 to 13.5 from memory. Mesa 22.3 has no
// faster way for a walk to read: storage buffer loads at per-lane offsets become a loop
// over the lanes (0.8 GB/s at 64 KiB), and llvmpipe loads once for all lanes only where
// the offset is built from constants and push constants alone, which a loop index never
// is. So the test pins what holds on a quiet and on a loaded machine: 64 KiB is timed over
// many passes, and reads far above the dispatch-bound rate; the in-cache and memory
// figures are printed for the log.

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#ifdef VRAMBENCH_VULKAN_MODULE

TEST(LavapipeSweep, ReadsSmallWorkingSetsAtTheSpeedOfItsLoadsNotOfItsDispatches)
{
#if defined(VRAMBENCH_SANITIZED)
    GTEST_SKIP() << "cache and latency shapes are not measured in a sanitizer build: instrumentation changes them";
#endif
    vrb::BackendEntry entry = vrb::open_backend(VRAMBENCH_VULKAN_MODULE);
    if (entry.state != vrb::BackendEntry::State::available) GTEST_SKIP() << "vulkan unavailable: " << entry.reason;
    uint32_t cpu_device = UINT32_MAX;
    for (uint32_t i = 0; i < entry.backend->device_count() && cpu_device == UINT32_MAX; ++i)
        if (vrb::describe_device(*entry.backend, nullptr, i).info.type == VRB_DEVICE_CPU) cpu_device = i;
    if (cpu_device == UINT32_MAX) GTEST_SKIP() << "no CPU Vulkan device (lavapipe) here";
    auto device = entry.backend->open(cpu_device);
    const vrb::DeviceRecord record = vrb::describe_device(*entry.backend, device.get(), cpu_device);

    vrb::ProbeOptions options;
    // The quick plan, the one a user runs first: runs of about half a millisecond.
    options.suite = vrb::Suite::quick;
    options.size = uint64_t(256) << 20;
    // The median of ten runs per point, the figure a user is shown: a busy machine's
    // stalls neither make a step nor lift one lucky run of the largest size.
    options.repetitions = 10;
    struct Read {
        double at_64k = 0, best = 0, best_x = 0, memory = 0;
        uint32_t passes_64k = 0;
        std::string points;
    };
    auto sweep = [&]() {
        std::vector<vrb::ProbeResult> results;
        vrb::ProbeContext ctx{
            *device, record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
        for (const auto &p : vrb::all_probes())
            if (p->id() == "bandwidth.sweep") p->run(ctx);
        Read got;
        const nlohmann::json *read = nullptr;
        for (const auto &r : results)
            if (r.parameters.at("operation") == "read") read = &r.extra.at("curve");
        if (!read) return got;
        got.points = read->at("points").dump();
        const uint64_t llc = record.last_level_cache_bytes();
        // The point nearest 64 KiB, the best point inside the last-level cache, and 256 MiB.
        double nearest = 1e300;
        for (const auto &point : read->at("points")) {
            const double x = point.at("working_set_bytes").get<double>(), y = point.at("value").get<double>();
            if (const double distance = std::abs(std::log(x / (64 << 10))); distance < nearest) {
                nearest = distance;
                got.at_64k = y;
                got.passes_64k = point.value("passes", 0u);
            }
            if ((llc == 0 || x <= llc) && y > got.best) {
                got.best = y;
                got.best_x = x;
            }
            if (x == 256 << 20) got.memory = y;
        }
        std::printf("lavapipe bandwidth.sweep read: 64 KiB %.2f GB/s (%u passes a run), best in cache %.2f GB/s at "
                    "%.0f KiB, 256 MiB %.2f GB/s\n",
                    got.at_64k, got.passes_64k, got.best, got.best_x / 1024, got.memory);
        return got;
    };
    // Timed over dispatches, 64 KiB read at a seventh of memory's rate (0.14x); over passes,
    // at least as fast as memory on a quiet machine. On a loaded 2-core machine, where a
    // half-millisecond run loses a time slice and a 25 ms one averages it out, 64 KiB fell
    // to 0.31x and 0.48x in two sweeps in a row; 0.3x keeps twice the margin over the
    // dispatch-bound rate. Up to three sweeps are taken before the test fails; a
    // dispatch-bound sweep fails them all, and one timed over one pass fails the first.
    Read read = sweep();
    ASSERT_GT(read.memory, 0) << read.points;
    EXPECT_GE(read.passes_64k, 8u) << "64 KiB is timed over dispatches, not over passes: " << read.points;
    for (int again = 0; again < 2 && read.at_64k < 0.3 * read.memory; ++again) {
        read = sweep();
        ASSERT_GT(read.memory, 0) << read.points;
    }
    EXPECT_GE(read.at_64k, 0.3 * read.memory) << read.points;
    // Whether lavapipe's caches show above its memory read is up to the CPU's gathers
    // (see above): on this kind of machine the best in-cache read was 1.07x to 1.66x the
    // memory read over nine quiet runs, too close to assert a plateau. Printed, not pinned.
}

#endif
