// The interop probes on this machine's Vulkan CPU device (Mesa's lavapipe), with the
// validation layer on and the host module loaded beside it as a partner: vulkan->vulkan
// through an opaque fd and host->vulkan through a host pointer verify both ways, the
// bandwidth on imported memory is measured beside the device's own, sync is skipped with
// lavapipe's reason, bad semaphore handles are refused before the driver sees them, and
// no probe leaves a file descriptor open.
#include <vrambench/core/card/link.hpp>
#include <vrambench/core/modules/external.hpp>
#include <vrambench/core/modules/external_semaphore.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include "../open_fds.hpp"
#include "interop_pairs.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <unistd.h>

#ifdef VRAMBENCH_VULKAN_MODULE

namespace {

class InteropProbes : public ::testing::Test {
  protected:
    void SetUp() override
    {
        ::setenv("VRAMBENCH_VULKAN_VALIDATION", "1", 1);
        fds_before = open_fds();
        entry = vrb::open_backend(VRAMBENCH_VULKAN_MODULE);
        if (entry.state != vrb::BackendEntry::State::available) GTEST_SKIP() << "vulkan unavailable: " << entry.reason;
        for (uint32_t i = 0; i < entry.backend->device_count() && index == UINT32_MAX; ++i)
            if (vrb::describe_device(*entry.backend, nullptr, i).info.type == VRB_DEVICE_CPU) index = i;
        if (index == UINT32_MAX) GTEST_SKIP() << "no CPU Vulkan device (lavapipe) here";
        device = entry.backend->open(index);
        record = vrb::describe_device(*entry.backend, device.get(), index);
        options.suite = vrb::Suite::quick;
        options.size = uint64_t(1) << 20;
        options.repetitions = 3;
        options.partner_modules = {VRAMBENCH_HOST_MODULE};
    }

    void TearDown() override
    {
        device.reset();
        entry = {};
        ::unsetenv("VRAMBENCH_VULKAN_VALIDATION");
        EXPECT_EQ(open_fds(), fds_before) << "an interop probe left a file descriptor open";
    }

    std::vector<vrb::ProbeResult> run(std::string_view probe)
    {
        std::vector<vrb::ProbeResult> results;
        vrb::ProbeContext ctx{
            *device, record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
        for (const auto &p : vrb::all_probes())
            if (p->id() == probe) p->run(ctx);
        return results;
    }

    static std::map<std::string, const vrb::ProbeResult *> by_pair(const std::vector<vrb::ProbeResult> &results)
    {
        std::map<std::string, const vrb::ProbeResult *> pairs;
        for (const auto &r : results)
            if (r.parameters.contains("pair")) pairs[r.parameters.at("pair").get<std::string>()] = &r;
        return pairs;
    }

    std::size_t fds_before = 0;
    vrb::BackendEntry entry;
    uint32_t index = UINT32_MAX;
    std::unique_ptr<vrb::Device> device;
    vrb::DeviceRecord record;
    vrb::ProbeOptions options;
};

TEST_F(InteropProbes, HandoffVerifiesVulkanToVulkanAndHostToVulkanBothWays)
{
    const auto results = run("interop.handoff");
    const auto pairs = by_pair(results);
    for (const char *pair : {"vulkan->vulkan", "host->vulkan"}) {
        ASSERT_TRUE(pairs.count(pair)) << pair << " did not form";
        const vrb::ProbeResult &r = *pairs.at(pair);
        EXPECT_EQ(r.status, vrb::ProbeResult::Status::ok) << pair << ": " << r.error.value_or("");
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << pair << ": " << r.verification.detail;
        EXPECT_EQ(r.value, 0.0);
    }
    EXPECT_EQ(pairs.at("host->vulkan")->parameters.at("handle"), "host-pointer");
    EXPECT_EQ(pairs.at("vulkan->vulkan")->parameters.at("handle"), "opaque-fd");
    // Which key found the exporter on the importer's card.
    EXPECT_EQ(pairs.at("host->vulkan")->parameters.at("card_matched_by"), "host memory");
    EXPECT_EQ(pairs.at("vulkan->vulkan")->parameters.at("card_matched_by"), "same device");
}

TEST_F(InteropProbes, BandwidthOnImportedMemoryIsMeasuredBesideTheDevicesOwnWithTheirRatio)
{
    options.size = uint64_t(64) << 10; // a pass far shorter than a run, even on a loaded machine
    const auto results = run("interop.bandwidth");
    std::size_t measured = 0, several = 0;
    for (const auto &r : results) {
        ASSERT_TRUE(r.parameters.contains("pair")) << r.error.value_or("");
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed)
            << r.parameters.dump() << ": " << r.verification.detail << r.error.value_or("");
        ASSERT_TRUE(r.value && *r.value > 0);
        const double ratio = r.extra.at("ratio_to_own_memory").get<double>();
        EXPECT_GT(ratio, 0);
        EXPECT_NEAR(ratio,
                    r.extra.at("imported_gb_per_s").get<double>() / r.extra.at("own_memory_gb_per_s").get<double>(),
                    1e-9);
        // As bandwidth.stream: a run of small arrays makes several passes, so a dispatch's
        // ramp and tail do not read as memory time, and the figure counts them all. (A
        // run the scheduler held up can stop the search at one pass: most make several.)
        const uint32_t passes = r.parameters.at("passes").get<uint32_t>();
        several += passes >= 2;
        several += r.extra.at("own_memory_passes").get<uint32_t>() >= 2;
        ASSERT_TRUE(r.bytes_per_run);
        const std::string operation = r.parameters.at("operation");
        const uint64_t arrays = operation == "read" ? 1 : operation == "copy" ? 2 : 3;
        EXPECT_EQ(*r.bytes_per_run, passes * arrays * r.parameters.at("array_bytes").get<uint64_t>());
        ++measured;
    }
    EXPECT_EQ(measured, 2u * 3u) << "read, copy and triad for each of the two pairs";
    EXPECT_GE(several, measured) << "of " << 2 * measured << " figures, imported and own, too few made several passes";
}

TEST_F(InteropProbes, BandwidthFreesTheDevicesOwnArraysBeforeAPairSharesAnyWhereTheRunHoldsToARamBudget)
{
    // lavapipe's memory is the machine's RAM: a shared array is resident twice (the
    // exporter's mapping and the importer's), so the own arrays must not stay beside them.
    const uint64_t array = uint64_t(64) << 10;
    options.size = array;
    run("interop.bandwidth");
    EXPECT_EQ(device->pool().idle_bytes(), 3 * array) << "without a budget the own arrays stay for the next probe";
    device->pool().release_idle();
    device->pool().set_limit(8 * array); // the six shared beside three idle would pass it
    const auto results = run("interop.bandwidth");
    ASSERT_FALSE(results.empty());
    for (const auto &r : results)
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << r.error.value_or("");
    EXPECT_EQ(device->pool().idle_bytes(), 0u) << "the own arrays were kept idle while the pairs shared theirs";
}

TEST_F(InteropProbes, BandwidthOnSharedHostMemoryPastTheImportersLinkIsSuspect)
{
    // lavapipe described as a discrete card behind an x1 Gen1 link (0.25 GB/s): the host
    // memory host:0 shares lies across it, and every figure of it beats the link.
    for (uint32_t h = 0; h < record.info.heap_count; ++h)
        record.info.heaps[h].flags &= ~uint32_t(VRB_MEMORY_HOST_MEMORY);
    vrb::PcieLink x1_gen1;
    x1_gen1.max.gts = x1_gen1.current.gts = 2.5;
    x1_gen1.max.width = x1_gen1.current.width = 1;
    record.link = vrb::to_json(x1_gen1, "at description, idle");
    std::size_t host_figures = 0;
    for (const auto &r : run("interop.bandwidth")) {
        if (r.parameters.value("pair", "") != "host->vulkan") continue;
        EXPECT_EQ(r.status, vrb::ProbeResult::Status::suspect) << r.parameters.dump() << ": " << r.error.value_or("");
        EXPECT_NE(r.error.value_or("").find("on host memory host:0 shares) is above what the x1 Gen1 link carries"),
                  std::string::npos)
            << r.error.value_or("");
        ++host_figures;
    }
    EXPECT_EQ(host_figures, 3u) << "read, copy and triad";
}

TEST_F(InteropProbes, BandwidthIsMeasuredAtTheMostThePairSharesInOneAllocationWhenTheStreamSizeIsMore)
{
    // A device whose segments (the most one descriptor binds) are 256 KiB, as lavapipe's
    // 128 MiB are to the standard suite's 341 MiB streams.
    ::setenv("VRAMBENCH_VULKAN_SEGMENT_BYTES", "262144", 1);
    vrb::BackendEntry small = vrb::open_backend(VRAMBENCH_VULKAN_MODULE);
    ::unsetenv("VRAMBENCH_VULKAN_SEGMENT_BYTES");
    ASSERT_EQ(small.state, vrb::BackendEntry::State::available) << small.reason;
    auto small_device = small.backend->open(index);
    const vrb::DeviceRecord small_record = vrb::describe_device(*small.backend, small_device.get(), index);
    EXPECT_EQ(vrb::interop::max_shared_bytes(small_record.info), 262144u);
    options.size = 1u << 20;
    std::vector<vrb::ProbeResult> results;
    vrb::ProbeContext ctx{
        *small_device, small_record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
    for (const auto &p : vrb::all_probes())
        if (p->id() == "interop.bandwidth") p->run(ctx);
    std::size_t measured = 0;
    for (const auto &r : results) {
        EXPECT_EQ(r.status, vrb::ProbeResult::Status::ok) << r.parameters.dump() << ": " << r.error.value_or("");
        EXPECT_EQ(r.parameters.value("array_bytes", 0u), 262144u) << r.parameters.dump();
        EXPECT_NE(r.parameters.value("size_rule", "").find("capped to 256 KiB, the largest"), std::string::npos)
            << r.parameters.dump();
        measured += r.value.has_value();
    }
    EXPECT_EQ(measured, 2u * 3u) << "read, copy and triad for each of the two pairs";
    small_device.reset();
}

TEST_F(InteropProbes, ImportTimesExportImportAndFirstTouchAndVerifiesTheFirstRead)
{
    const auto results = run("interop.import");
    const auto pairs = by_pair(results);
    ASSERT_EQ(pairs.size(), 2u);
    for (const auto &[name, r] : pairs) {
        EXPECT_EQ(r->verification.status, vrb::Verification::Status::passed)
            << name << ": " << r->verification.detail << r->error.value_or("");
        EXPECT_EQ(r->metric, "time");
        ASSERT_TRUE(r->value && *r->value > 0);
        EXPECT_GE(*r->value, r->extra.at("import_seconds_median").get<double>());
    }
}

// lavapipe (Mesa 22.3) offers no exportable timeline semaphore: the pair forms (the
// module has the slots) and is skipped with the driver's own answers.
TEST_F(InteropProbes, SyncOnLavapipeIsSkippedWithTheDriversAnswers)
{
    const auto results = run("interop.sync");
    ASSERT_EQ(results.size(), 1u) << "vulkan->vulkan only: the host module has no semaphore slots";
    const vrb::ProbeResult &r = results[0];
    EXPECT_EQ(r.parameters.at("pair"), "vulkan->vulkan");
    EXPECT_EQ(r.status, vrb::ProbeResult::Status::skipped);
    const std::string why = r.error.value_or("");
    for (const char *words :
         {"cannot share a timeline semaphore as an opaque fd: vkGetPhysicalDeviceExternalSemaphoreProperties answered "
          "externalSemaphoreFeatures 0x0 (neither exportable nor importable), compatibleHandleTypes 0x0",
          "the device does not offer VK_KHR_external_semaphore_fd"})
        EXPECT_NE(why.find(words), std::string::npos) << why;
}

TEST_F(InteropProbes, AHandleOfAnotherCardIsRefusedAndItsFdClosedByTheCaller)
{
    auto exporter = entry.backend->open(index);
    auto exported = vrb::allocate_exportable(*exporter, 0, 1 << 20, VRB_EXTERNAL_OPAQUE_FD);
    vrb::ExternalHandle handle = vrb::export_buffer(*exported);
    handle.edit().device_uuid[3] ^= 0x5a;
    try {
        vrb::import_buffer(*device, handle);
        FAIL() << "imported memory of another card";
    } catch (const vrb::BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("another card"), std::string::npos) << e.what();
    }
    // The handle still owns the fd and closes it: TearDown counts the fds.
}

TEST_F(InteropProbes, ADmaBufIsRefusedWhereTheDeviceOffersNoneNamingTheExtension)
{
    // Mesa 22.3's lavapipe offers opaque fds and host pointers, not VK_EXT_external_memory_dma_buf.
    auto expect_refused = [](const std::function<void()> &attempt, const std::string &words) {
        try {
            attempt();
            ADD_FAILURE() << "a dma-buf was shared by a device that offers none";
        } catch (const vrb::BackendError &e) {
            EXPECT_EQ(e.status(), VRB_ERROR_UNSUPPORTED) << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    auto exporter = entry.backend->open(index);
    expect_refused([&] { vrb::allocate_exportable(*exporter, 0, 1 << 20, VRB_EXTERNAL_DMA_BUF); },
                   "does not offer VK_EXT_external_memory_dma_buf: no dma-buf to export");
    // The memory of an opaque fd, handed over as if it were a dma-buf: refused before the
    // driver is asked about the fd, which stays the caller's.
    auto exported = vrb::allocate_exportable(*exporter, 0, 1 << 20, VRB_EXTERNAL_OPAQUE_FD);
    vrb::ExternalHandle handle = vrb::export_buffer(*exported);
    handle.edit().type = VRB_EXTERNAL_DMA_BUF;
    expect_refused([&] { vrb::import_buffer(*device, handle); },
                   "does not offer VK_EXT_external_memory_dma_buf: no dma-buf to import");
    EXPECT_TRUE(handle.is_fd()) << "a refused import leaves the fd with the caller";
}

// A semaphore handle of this card around `fd`, owned by the returned handle.
vrb::ExternalHandle semaphore_handle_around(int fd, const vrb_device_info &card)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.memory_type_index = UINT32_MAX;
    h.flags = VRB_EXTERNAL_UUIDS_KNOWN;
    std::memcpy(h.device_uuid, card.uuid, sizeof h.device_uuid);
    std::memset(h.driver_uuid, 0, sizeof h.driver_uuid);
    std::snprintf(h.api, sizeof h.api, "CUDA"); // another API: its driver UUID is not compared
    return vrb::ExternalHandle(h);
}

TEST_F(InteropProbes, BadSemaphoreHandlesAreRefusedBeforeVulkanSeesThem)
{
    const vrb_device_info card = device->describe();
    auto refused = [&](vrb::ExternalHandle &handle, const std::string &words) {
        try {
            vrb::import_semaphore(*device, handle);
            ADD_FAILURE() << "imported a bad semaphore handle";
        } catch (const vrb::BackendError &e) {
            EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    const int closed = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ::close(closed);
    vrb::ExternalHandle closed_handle = semaphore_handle_around(closed, card);
    closed_handle.given_away();
    refused(closed_handle, "is not open");

    std::FILE *file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    vrb::ExternalHandle file_handle = semaphore_handle_around(::dup(::fileno(file)), card);
    std::fclose(file);
    refused(file_handle, "is a file, not a semaphore");

    // Memory Vulkan exported: a memfd on lavapipe, and a handle with bytes.
    auto exporter = entry.backend->open(index);
    auto exported = vrb::allocate_exportable(*exporter, 0, 1 << 20, VRB_EXTERNAL_OPAQUE_FD);
    vrb::ExternalHandle memory = vrb::export_buffer(*exported);
    refused(memory, "bytes of memory: it is not a semaphore");
    vrb::ExternalHandle memory_fd = semaphore_handle_around(::dup(int(memory.get().handle)), card);
    refused(memory_fd, "is a file, not a semaphore");

    vrb::ExternalHandle other_card = semaphore_handle_around(::dup(int(memory.get().handle)), card);
    other_card.edit().device_uuid[5] ^= 0x33;
    refused(other_card, "the semaphore lives on another card");
    // Every handle still owns its fd and closes it: TearDown counts the fds.
}

TEST_F(InteropProbes, TheHostDeviceImportsNothingAndSaysSo)
{
    vrb::BackendEntry host = vrb::open_backend(VRAMBENCH_HOST_MODULE);
    ASSERT_EQ(host.state, vrb::BackendEntry::State::available) << host.reason;
    auto host_device = host.backend->open(0);
    const vrb::DeviceRecord host_record = vrb::describe_device(*host.backend, host_device.get(), 0);
    std::vector<vrb::ProbeResult> results;
    vrb::ProbeContext ctx{
        *host_device, host_record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
    for (const auto &p : vrb::all_probes())
        if (p->id() == "interop.handoff") p->run(ctx);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, vrb::ProbeResult::Status::skipped);
    EXPECT_NE(results[0].error.value_or("").find("imports no memory"), std::string::npos) << *results[0].error;
}

} // namespace

#endif
