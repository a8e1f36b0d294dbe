// interop.sync on the futex-mock modules (tests/mock/semaphore_plugin.cpp), whose
// semaphores are real counters shared through fds and whose devices run their waits and
// signals in order on a queue thread: pairs form within a module and between two, each
// trip is timed beside the same trip inside one API, a module whose waits do not hold
// fails verification, every side that cannot share says why, bad handles are refused
// before anything is mapped, and no file descriptor is left open.
#include <vrambench/core/modules/external_semaphore.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/results/schema.hpp>
#include <vrambench/core/run/runner.hpp>

#include "../open_fds.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

using vrb::ProbeResult;
using vrb::Verification;

class InteropSync : public ::testing::Test {
  protected:
    void SetUp() override
    {
        fds_before = open_fds();
        options.suite = vrb::Suite::quick;
        options.partner_modules = {MOCK_SEMB_PATH, VRAMBENCH_HOST_MODULE, MOCK_MULTI_PATH};
    }

    void TearDown() override
    {
        ::unsetenv("VRAMBENCH_MOCK_NO_EXPORT");
        ::unsetenv("VRAMBENCH_MOCK_IMPORT_UNSUPPORTED");
        ::unsetenv("VRAMBENCH_MOCK_IGNORE_WAITS");
        EXPECT_EQ(open_fds(), fds_before) << "a file descriptor was left open";
    }

    struct Opened {
        vrb::BackendEntry entry;
        std::unique_ptr<vrb::Device> device;
        vrb::DeviceRecord record;
    };

    static Opened open(const char *module, uint32_t index)
    {
        Opened o;
        o.entry = vrb::open_backend(module);
        EXPECT_EQ(o.entry.state, vrb::BackendEntry::State::available) << o.entry.reason;
        if (o.entry.state != vrb::BackendEntry::State::available) return o;
        o.device = o.entry.backend->open(index);
        o.record = vrb::describe_device(*o.entry.backend, o.device.get(), index);
        return o;
    }

    std::vector<ProbeResult> run(Opened &importer)
    {
        std::vector<ProbeResult> results;
        vrb::ProbeContext ctx{
            *importer.device, importer.record, options, [&](ProbeResult r) { results.push_back(std::move(r)); }, {}};
        for (const auto &p : vrb::all_probes())
            if (p->id() == "interop.sync") p->run(ctx);
        return results;
    }

    static std::map<std::string, ProbeResult> by_pair(const std::vector<ProbeResult> &results)
    {
        std::map<std::string, ProbeResult> pairs;
        for (const auto &r : results)
            if (r.parameters.contains("pair")) pairs[r.parameters.at("pair").get<std::string>()] = r;
        return pairs;
    }

    static nlohmann::json result_set(const Opened &o, const std::vector<ProbeResult> &results)
    {
        nlohmann::json doc;
        doc["schema_version"] = vrb::schema_version;
        doc["tool"] = {{"name", "vrambench"}, {"version", "0.0.0"}, {"git_commit", "test"}};
        doc["run"] = {{"id", "synctest"},         {"started", vrb::utc_now()}, {"finished", vrb::utc_now()},
                      {"command_line", {"test"}}, {"status", "complete"},      {"suite", "quick"}};
        doc["host"] = vrb::host_json();
        doc["backends"] = vrb::backends_json({o.entry});
        doc["devices"] = nlohmann::json::array({vrb::to_json(o.record)});
        doc["results"] = nlohmann::json::array();
        for (const auto &r : results)
            doc["results"].push_back(vrb::to_json(r));
        return doc;
    }

    std::size_t fds_before = 0;
    vrb::ProbeOptions options;
};

TEST_F(InteropSync, EveryPairWithSemaphoresIsTimedBesideTheSameTripInsideOneApi)
{
    Opened b = open(MOCK_SEMA_PATH, 0);
    ASSERT_TRUE(b.device);
    const auto results = run(b);
    const auto pairs = by_pair(results);
    ASSERT_EQ(results.size(), 2u) << "one result for the module with itself and one with the other module";
    for (const char *name : {"sema->sema", "semb->sema"}) {
        ASSERT_TRUE(pairs.count(name)) << name << " did not form";
        const ProbeResult &r = pairs.at(name);
        EXPECT_EQ(r.status, ProbeResult::Status::ok) << name << ": " << r.error.value_or("");
        EXPECT_EQ(r.verification.status, Verification::Status::passed) << name << ": " << r.verification.detail;
        EXPECT_EQ(r.metric, "latency");
        EXPECT_EQ(r.unit, "ns");
        EXPECT_EQ(r.parameters.at("trips"), 200);
        ASSERT_EQ(r.samples.size(), 200u);
        ASSERT_TRUE(r.value && *r.value > 0);
        ASSERT_TRUE(r.statistics);
        EXPECT_DOUBLE_EQ(*r.value, r.statistics->median);
        EXPECT_GE(r.extra.at("p99_ns").get<double>(), r.statistics->median);
        EXPECT_LE(r.extra.at("p99_ns").get<double>(), r.statistics->max);
        const double own = r.extra.at("one_api_median_ns").get<double>();
        ASSERT_GT(own, 0);
        EXPECT_NEAR(r.extra.at("ratio_to_one_api").get<double>(), r.statistics->median / own, 1e-9);
        EXPECT_GE(r.extra.at("one_api_p99_ns").get<double>(), own);
    }
    EXPECT_EQ(pairs.at("semb->sema").parameters.at("exporter"), "semb:0");
    EXPECT_EQ(pairs.at("sema->sema").extra.at("one_api_device"), "sema:0");
    const auto violation = vrb::validate_result_json(result_set(b, results));
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
}

TEST_F(InteropSync, AModuleWhoseDeviceWaitsDoNotHoldFailsVerificationInsteadOfLookingFast)
{
    ::setenv("VRAMBENCH_MOCK_IGNORE_WAITS", "sema", 1);
    Opened b = open(MOCK_SEMA_PATH, 0);
    ASSERT_TRUE(b.device);
    const auto pairs = by_pair(run(b));
    ASSERT_TRUE(pairs.count("semb->sema"));
    const ProbeResult &r = pairs.at("semb->sema");
    EXPECT_EQ(r.status, ProbeResult::Status::verification_failed);
    EXPECT_EQ(r.verification.status, Verification::Status::failed);
    EXPECT_NE(r.verification.detail.find("the device-side wait did not hold"), std::string::npos)
        << r.verification.detail;
}

TEST_F(InteropSync, AnExporterThatCannotCreateASemaphoreIsSkippedWithItsOwnReason)
{
    ::setenv("VRAMBENCH_MOCK_NO_EXPORT", "semb", 1);
    Opened b = open(MOCK_SEMA_PATH, 0);
    ASSERT_TRUE(b.device);
    const auto pairs = by_pair(run(b));
    ASSERT_TRUE(pairs.count("semb->sema"));
    const ProbeResult &r = pairs.at("semb->sema");
    EXPECT_EQ(r.status, ProbeResult::Status::skipped);
    EXPECT_NE(r.error.value_or("").find("semb exports no semaphore: it only imports one"), std::string::npos)
        << r.error.value_or("");
    EXPECT_EQ(pairs.at("sema->sema").status, ProbeResult::Status::ok) << pairs.at("sema->sema").error.value_or("");
}

// A driver's "not supported" at import (the CUDA/HIP module's answer where the device
// imports no timeline semaphore) is the pair skipped in the driver's words, not failed.
TEST_F(InteropSync, AnImportTheDriverAnswersNotSupportedIsSkippedInItsWords)
{
    ::setenv("VRAMBENCH_MOCK_IMPORT_UNSUPPORTED", "sema", 1);
    Opened a = open(MOCK_SEMA_PATH, 0);
    ASSERT_TRUE(a.device);
    const auto pairs = by_pair(run(a));
    ASSERT_TRUE(pairs.count("semb->sema"));
    const ProbeResult &r = pairs.at("semb->sema");
    EXPECT_EQ(r.status, ProbeResult::Status::skipped) << r.error.value_or("");
    EXPECT_NE(r.error.value_or("").find("the driver answered not supported"), std::string::npos)
        << r.error.value_or("");
}

TEST_F(InteropSync, AnImporterWithoutTheSemaphoreSlotsMeasuresNothingAndSaysWhatItLacks)
{
    Opened host = open(VRAMBENCH_HOST_MODULE, 0);
    ASSERT_TRUE(host.device);
    const auto results = run(host);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, ProbeResult::Status::skipped);
    const std::string why = results[0].error.value_or("");
    EXPECT_NE(why.find("no exporter in this run can share a semaphore with host:0"), std::string::npos) << why;
    EXPECT_NE(why.find("host:0 imports no semaphore: the host module has no semaphore_import"), std::string::npos)
        << why;
}

class SemaphoreHandles : public InteropSync {
  protected:
    void SetUp() override
    {
        InteropSync::SetUp();
        a = open(MOCK_SEMA_PATH, 0);
        b = open(MOCK_SEMB_PATH, 0);
        other_card = open(MOCK_SEMB_PATH, 1);
        ASSERT_TRUE(a.device && b.device && other_card.device);
        exported = vrb::create_exportable_semaphore(*a.device, VRB_EXTERNAL_OPAQUE_FD);
    }
    void TearDown() override
    {
        exported.reset();
        a = {};
        b = {};
        other_card = {};
        InteropSync::TearDown();
    }

    // The import fails with INVALID_ARGUMENT and a message holding `words`; the handle
    // still owns its fd and closes it (TearDown counts).
    void expect_refused(vrb::ExternalHandle &handle, const std::string &words)
    {
        try {
            vrb::import_semaphore(*b.device, handle);
            ADD_FAILURE() << "imported a bad handle";
        } catch (const vrb::BackendError &e) {
            EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    }
    // A good handle's fields around another fd, owned by the returned handle.
    vrb::ExternalHandle around(int fd)
    {
        vrb::ExternalHandle good = vrb::export_semaphore(*exported);
        vrb_external_handle h = good.get();
        h.handle = fd;
        return vrb::ExternalHandle(h);
    }

    Opened a, b, other_card;
    std::unique_ptr<vrb::Semaphore> exported;
};

TEST_F(SemaphoreHandles, ASignalCrossesAndTheImporterTakesTheFd)
{
    vrb::ExternalHandle handle = vrb::export_semaphore(*exported);
    const int fd = static_cast<int>(handle.get().handle);
    auto imported = vrb::import_semaphore(*b.device, handle);
    EXPECT_EQ(::fcntl(fd, F_GETFD), -1) << "the importer took the fd and closed it";
    exported->signal(3);
    imported->host_wait(3, 10'000'000'000ull);
    imported->signal(7);
    exported->host_wait(7, 10'000'000'000ull);
}

TEST_F(SemaphoreHandles, ADeviceWaitHoldsTheSignalsEnqueuedAfterIt)
{
    vrb::ExternalHandle handle = vrb::export_semaphore(*exported);
    auto imported = vrb::import_semaphore(*b.device, handle);
    auto second = vrb::create_exportable_semaphore(*b.device, VRB_EXTERNAL_OPAQUE_FD);
    imported->device_wait(1);
    second->signal(1);
    try {
        second->host_wait(1, 20'000'000);
        FAIL() << "the signal ran before the wait it was enqueued behind";
    } catch (const vrb::BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_DEVICE);
        EXPECT_NE(std::string(e.what()).find("holds 0 after 20000000 ns of waiting for 1"), std::string::npos)
            << e.what();
    }
    exported->signal(1);
    second->host_wait(1, 10'000'000'000ull);
}

TEST_F(SemaphoreHandles, AClosedFdIsRefused)
{
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ::close(fd);
    vrb::ExternalHandle handle = around(fd);
    handle.given_away(); // nothing to close
    expect_refused(handle, "is not open");
}

TEST_F(SemaphoreHandles, ARegularFileIsRefused)
{
    std::FILE *file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    vrb::ExternalHandle handle = around(::dup(::fileno(file)));
    std::fclose(file);
    expect_refused(handle, "not a futex-mock semaphore's counter");
}

TEST_F(SemaphoreHandles, AMemoryFdIsRefused)
{
    const int fd = ::memfd_create("vrambench-test-memory", MFD_CLOEXEC);
    ASSERT_EQ(::ftruncate(fd, 16), 0);
    vrb::ExternalHandle handle = around(fd);
    expect_refused(handle, "not a futex-mock semaphore's counter");
    vrb::ExternalHandle described = vrb::export_semaphore(*exported);
    described.edit().bytes = described.edit().allocation_bytes = 4096;
    expect_refused(described, "4096 bytes of memory: it is not a semaphore");
}

TEST_F(SemaphoreHandles, ASemaphoreOfAnotherCardIsRefusedNamingBoth)
{
    vrb::ExternalHandle handle = vrb::export_semaphore(*exported);
    try {
        vrb::import_semaphore(*other_card.device, handle);
        FAIL() << "imported a semaphore of another card";
    } catch (const vrb::BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("the semaphore lives on another card"), std::string::npos) << e.what();
    }
}

TEST_F(SemaphoreHandles, TheTableRefusesSignallingZeroAndAnotherDevicesSemaphore)
{
    const vrb_plugin_table &table = a.device->module().table();
    EXPECT_EQ(table.semaphore_signal(a.device->handle(), exported->handle(), 0), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(table.last_error()).find("signalling 0"), std::string::npos) << table.last_error();
    auto second_device = a.entry.backend->open(1);
    EXPECT_EQ(table.semaphore_signal(second_device->handle(), exported->handle(), 1), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(table.last_error()).find("a semaphore of another device"), std::string::npos)
        << table.last_error();
    EXPECT_EQ(table.semaphore_host_wait(nullptr, 1, 1), VRB_ERROR_INVALID_ARGUMENT);
}

} // namespace
