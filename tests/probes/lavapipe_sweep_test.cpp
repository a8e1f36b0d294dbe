// The working-set sweep on a CPU Vulkan device (Mesa's lavapipe): with the passes
// looped inside the shaders, a working set in the CPU's caches reads at cache speed,
// not at the rate dispatches are recorded and run.
#include <vrambench/core/probe.hpp>
#include <vrambench/core/registry.hpp>
#include <vrambench/core/runner.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#ifdef VRAMBENCH_VULKAN_MODULE

TEST(LavapipeSweep, ReadsSixtyFourKibibytesAtLeastTwiceAsFastAsTwoHundredFiftySixMebibytesOnANamedCachePlateau)
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
    // The full plan: runs of about 2 ms, far past lavapipe's fixed cost per submission
    // (waking its worker threads), which shorter runs on a busy machine still feel.
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
    EXPECT_GE(in_cache, 2 * memory) << read->at("points").dump();
    std::string name;
    for (const auto &plateau : read->at("plateaus"))
        if (plateau.at("from").get<double>() <= 64 << 10 && plateau.at("to").get<double>() >= 64 << 10)
            name = plateau.at("name").get<std::string>();
    EXPECT_TRUE(name.rfind("cache", 0) == 0 || name.rfind("L", 0) == 0)
        << "64 KiB lies on plateau '" << name << "': " << read->at("plateaus").dump();
}

#endif
