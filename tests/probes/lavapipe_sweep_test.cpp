// The working-set sweep on a CPU Vulkan device (Mesa's lavapipe): with the passes
// looped inside the shaders, a working set in the CPU's caches reads faster than one in
// memory, not at the rate dispatches are recorded and run.
//
// How much faster depends on the CPU and on Mesa, not only on the caches. On a 2-vCPU
// Zen 3 VM (L1d 32 KiB, L2 512 KiB per core, L3 32 MiB) with Mesa 22.3.6 the read at
// 64 KiB was 15 GB/s and at 256 MiB 11.6 GB/s on a quiet machine (1.3x); with other
// builds loading it (load average 3.3 to 5), over 41 runs, 7.6 to 24.8 GB/s against 4.4
// to 12 GB/s, 1.14x to 2.9x, twice or more in 12 runs. Twice the memory read is out of
// reach there: the CPU-tuned read fetches its 16-byte elements from texel buffers, which
// llvmpipe turns into AVX2 gathers (four per eight elements), and the gathers, not the
// caches, bound it: at best 26 to 28 GB/s (13 to 14 a core) from 64 KiB to 2 MiB, where
// the host backend reads 100 to 150 GB/s; at 256 MiB the host backend reads 12 to
// 13.5 GB/s, lavapipe 7 to 12. Mesa 22.3 has no faster way for a walk to read: storage
// buffer loads at per-lane offsets become a loop over the lanes (0.8 GB/s at 64 KiB), and
// llvmpipe loads once for all lanes only where the offset is built from constants and
// push constants alone, which the index of a loop never is. The in-cache read also scales
// with the cores the machine leaves free and the memory read hardly at all, so a loaded
// machine narrows the gap: the test asks for a margin below the least one measured.

#include <vrambench/core/probe.hpp>
#include <vrambench/core/registry.hpp>
#include <vrambench/core/runner.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#ifdef VRAMBENCH_VULKAN_MODULE

TEST(LavapipeSweep, ReadsSixtyFourKibibytesFasterThanTwoHundredFiftySixMebibytesOnANamedCachePlateau)
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
    std::vector<vrb::ProbeResult> results;
    vrb::ProbeContext ctx{*device, record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
    for (const auto &p : vrb::all_probes())
        if (p->id() == "bandwidth.sweep") p->run(ctx);

    const nlohmann::json *read = nullptr;
    for (const auto &r : results)
        if (r.parameters.at("operation") == "read") read = &r.extra.at("curve");
    ASSERT_NE(read, nullptr);
    // The point nearest 64 KiB (the full plan steps by less than 2x), and the largest.
    double in_cache = 0, memory = 0, nearest = 1e300;
    for (const auto &point : read->at("points")) {
        const double x = point.at("working_set_bytes").get<double>();
        const double distance = std::abs(std::log(x / (64 << 10)));
        if (distance < nearest) {
            nearest = distance;
            in_cache = point.at("value").get<double>();
        }
        if (x == 256 << 20) memory = point.at("value").get<double>();
    }
    ASSERT_GT(memory, 0) << read->dump();
    std::printf("lavapipe bandwidth.sweep read: 64 KiB %.2f GB/s, 256 MiB %.2f GB/s\n", in_cache, memory);
    // Below the least gap measured (1.14x), for machines busier still; a read timed over
    // dispatches instead of passes stays far under it (1 GB/s at 64 KiB).
    constexpr double margin = 1.05;
    EXPECT_GE(in_cache, margin * memory) << read->at("points").dump();
    std::string name;
    for (const auto &plateau : read->at("plateaus"))
        if (plateau.at("from").get<double>() <= 64 << 10 && plateau.at("to").get<double>() >= 64 << 10)
            name = plateau.at("name").get<std::string>();
    EXPECT_TRUE(name.rfind("cache", 0) == 0 || name.rfind("L", 0) == 0)
        << "64 KiB lies on plateau '" << name << "': " << read->at("plateaus").dump();
}

#endif
