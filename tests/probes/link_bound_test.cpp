// The PCIe link as a bound on figures of bytes that cross it: the rule itself on an
// H200's x16 Gen5 link, and the transfer and memory-kind probes applying it on the host
// backend described as a discrete card behind the slowest link there is (x1 Gen1).
#include <vrambench/core/card/link.hpp>
#include <vrambench/core/measurement/link_bound.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <set>

namespace {

using Status = vrb::ProbeResult::Status;

vrb::LinkSpeed gen(double gts, uint32_t width)
{
    vrb::LinkSpeed s;
    s.gts = gts;
    s.width = width;
    return s;
}

// A link as describe_link records it, read while idle: `current` may be below `max`.
nlohmann::json link_json(vrb::LinkSpeed max, vrb::LinkSpeed current, std::optional<vrb::LinkSpeed> slot = {})
{
    vrb::PcieLink link;
    link.address = "0000:00:06.0";
    link.max = max;
    link.current = current;
    if (slot) {
        link.port = "0000:00:01.0";
        link.port_max = *slot;
    }
    return vrb::to_json(link, "at description, idle");
}

// An H200 as its CUDA module describes it: its own HBM, and host memory apart from it.
vrb::DeviceRecord discrete_card()
{
    vrb::DeviceRecord d;
    d.id = "opencl:0";
    d.backend = "opencl";
    d.info.type = VRB_DEVICE_DISCRETE_GPU;
    d.info.heap_count = 2;
    d.info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
    d.info.heaps[1].flags = VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_HOST_VISIBLE;
    d.link = link_json(gen(32, 16), gen(32, 16));
    return d;
}

// host:0 as it describes itself: its one heap is device-local and host memory alike.
vrb::DeviceRecord host_device()
{
    vrb::DeviceRecord d;
    d.id = "host:0";
    d.backend = "host";
    d.info.type = VRB_DEVICE_CPU;
    d.info.heap_count = 1;
    d.info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_MEMORY;
    d.link = nlohmann::json();
    d.link_unknown = "a CPU is not a PCI device, so it has no PCIe link";
    return d;
}

vrb::ProbeResult figure(double gb_per_s)
{
    vrb::ProbeResult r;
    r.probe = "bandwidth.transfer";
    r.value = gb_per_s;
    return r;
}

vrb::ProbeResult checked(double gb_per_s, const vrb::DeviceRecord &device, double directions = 1)
{
    vrb::ProbeResult r = figure(gb_per_s);
    vrb::check_link_bound(r, device, directions, "host-to-device pinned");
    return r;
}

bool names(const vrb::ProbeResult &r, std::string_view text)
{
    return r.error && r.error->find(text) != std::string::npos;
}

} // namespace

TEST(LinkBound, AHostToDeviceFigureOf2099GBPerSecondOverA63GBPerSecondLinkIsSuspect)
{
    const vrb::ProbeResult r = checked(2099, discrete_card());
    EXPECT_EQ(r.status, Status::suspect);
    ASSERT_TRUE(r.error);
    for (const char *part : {"2099.0 GB/s (host-to-device pinned)", "x16 Gen5 link", "63.0 GB/s per direction",
                             "did not cross the link", "device-side copy of the host memory"})
        EXPECT_TRUE(names(r, part)) << part << " missing from: " << *r.error;
}

TEST(LinkBound, AHostToDeviceFigureOf55GBPerSecondOverA63GBPerSecondLinkIsNotSuspect)
{
    const vrb::ProbeResult r = checked(55, discrete_card());
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_FALSE(r.error);
}

TEST(LinkBound, AFigureWithinFivePercentOfTheLinksRateIsTheRateRoundedNotSuspect)
{
    // 63.0 GB/s x 1.05 = 66.2 GB/s.
    EXPECT_EQ(checked(65, discrete_card()).status, Status::ok);
    EXPECT_EQ(checked(67, discrete_card()).status, Status::suspect);
}

TEST(LinkBound, BothDirectionsAt94GBPerSecondIsNotSuspectButPastTwiceTheRateIs)
{
    EXPECT_EQ(checked(94, discrete_card(), 2).status, Status::ok);
    const vrb::ProbeResult past = checked(140, discrete_card(), 2);
    EXPECT_EQ(past.status, Status::suspect);
    EXPECT_TRUE(names(past, "2 x 63.0 GB/s per direction")) << past.error.value_or("");
}

TEST(LinkBound, AHostMemoryKindOnHost0IsNeverChecked)
{
    EXPECT_EQ(checked(2099, host_device()).status, Status::ok);
    // Not even were a link recorded for it: its own memory is the host's.
    vrb::DeviceRecord with_link = host_device();
    with_link.link = link_json(gen(32, 16), gen(32, 16));
    EXPECT_EQ(checked(2099, with_link).status, Status::ok);
    EXPECT_FALSE(vrb::host_link(with_link));
}

TEST(LinkBound, NoLinkKnownIsNotChecked)
{
    vrb::DeviceRecord never_read = discrete_card();
    never_read.link.reset();
    vrb::DeviceRecord none = discrete_card();
    none.link = nlohmann::json();
    none.link_unknown = "the opencl backend reports no PCI address to read the link by";
    vrb::DeviceRecord no_width = discrete_card();
    no_width.link = link_json(vrb::LinkSpeed{32, std::nullopt}, gen(32, 16));
    for (const vrb::DeviceRecord *d : {&never_read, &none, &no_width}) {
        EXPECT_FALSE(vrb::host_link(*d));
        EXPECT_EQ(checked(2099, *d).status, Status::ok);
    }
}

TEST(LinkBound, IsTheMostTheCardSupportsNotTheSpeedAnIdleGpuLoweredItsLinkTo)
{
    vrb::DeviceRecord idle = discrete_card();
    idle.link = link_json(gen(32, 16), gen(2.5, 16)); // Gen1 at description, 4.0 GB/s
    EXPECT_EQ(checked(55, idle).status, Status::ok);
    EXPECT_EQ(checked(2099, idle).status, Status::suspect);
}

TEST(LinkBound, ASlotSlowerThanTheCardBoundsTheFigureAndIsNamed)
{
    vrb::DeviceRecord in_gen4_slot = discrete_card();
    in_gen4_slot.link = link_json(gen(32, 16), gen(16, 16), gen(16, 16)); // 31.5 GB/s
    const vrb::ProbeResult r = checked(40, in_gen4_slot);
    EXPECT_EQ(r.status, Status::suspect);
    EXPECT_TRUE(names(r, "link of its x16 Gen4 slot carries, 31.5 GB/s per direction")) << r.error.value_or("");
    EXPECT_EQ(checked(30, in_gen4_slot).status, Status::ok);
}

TEST(LinkBound, ASuspectFigureKeepsThePeakSentenceAfterTheLinksAndAFailedOneStaysFailed)
{
    vrb::ProbeResult above_peak = figure(9716);
    above_peak.status = Status::suspect;
    above_peak.error = "9716.2 GB/s over 256 MiB is above the datasheet peak of 4800.0 GB/s";
    vrb::check_link_bound(above_peak, discrete_card(), 1, "read on memory kind pinned");
    EXPECT_EQ(above_peak.status, Status::suspect);
    ASSERT_TRUE(above_peak.error);
    EXPECT_EQ(above_peak.error->rfind("9716.0 GB/s (read on memory kind pinned)", 0), 0u) << *above_peak.error;
    EXPECT_TRUE(names(above_peak, "; 9716.2 GB/s over 256 MiB is above the datasheet peak")) << *above_peak.error;

    vrb::ProbeResult failed = figure(2099);
    failed.status = Status::verification_failed;
    vrb::check_link_bound(failed, discrete_card(), 1, "host-to-device pinned");
    EXPECT_EQ(failed.status, Status::verification_failed);
    EXPECT_FALSE(failed.error);
}

TEST(LinkBound, ReadsAndWritesCrossOneWayCopiesBothAndTriadsOneAndAHalf)
{
    EXPECT_DOUBLE_EQ(vrb::link_directions(vrb::bytes_moved(VRB_OP_READ, 16, 1024)), 1);
    EXPECT_DOUBLE_EQ(vrb::link_directions(vrb::bytes_moved(VRB_OP_WRITE, 16, 1024)), 1);
    EXPECT_DOUBLE_EQ(vrb::link_directions(vrb::bytes_moved(VRB_OP_COPY, 16, 1024)), 2);
    EXPECT_DOUBLE_EQ(vrb::link_directions(vrb::bytes_moved(VRB_OP_TRIAD, 16, 1024)), 1.5);
    EXPECT_DOUBLE_EQ(vrb::link_directions(vrb::bytes_moved(VRB_OP_TRANSFER, 1, 1 << 20)), 1);
}

namespace {

// The host backend described as a discrete card behind an x1 Gen1 link (0.25 GB/s),
// which every figure of its memory beats: the probes' checks are the only thing
// between those figures and "ok".
class LinkBoundProbes : public ::testing::Test {
  protected:
    void SetUp() override
    {
        entry = vrb::open_backend(VRAMBENCH_HOST_MODULE);
        if (entry.state != vrb::BackendEntry::State::available)
            GTEST_SKIP() << "host backend unavailable: " << entry.reason;
        device = entry.backend->open(0);
        record = vrb::describe_device(*entry.backend, device.get(), 0);
        for (uint32_t h = 0; h < record.info.heap_count; ++h)
            record.info.heaps[h].flags &= ~uint32_t(VRB_MEMORY_HOST_MEMORY);
        record.link = link_json(gen(2.5, 1), gen(2.5, 1));
        options.suite = vrb::Suite::quick;
        options.size = 8 << 20;
    }

    std::vector<vrb::ProbeResult> run(std::string_view id)
    {
        std::vector<vrb::ProbeResult> results;
        vrb::ProbeContext ctx{
            *device, record, options, [&](vrb::ProbeResult r) { results.push_back(std::move(r)); }, {}};
        for (const auto &p : vrb::all_probes())
            if (p->id() == id) p->run(ctx);
        return results;
    }

    vrb::BackendEntry entry;
    std::unique_ptr<vrb::Device> device;
    vrb::DeviceRecord record;
    vrb::ProbeOptions options;
};

constexpr double slowest_link = 0.25 * (1 + vrb::kLinkTolerance); // x1 Gen1, GB/s per direction

} // namespace

TEST_F(LinkBoundProbes, TransferMarksHostFiguresPastTheLinkSuspectEveryPointAndTheCurve)
{
    const auto results = run("bandwidth.transfer");
    ASSERT_FALSE(results.empty());
    std::set<std::string> directions;
    for (const auto &r : results) {
        const std::string direction = r.parameters.at("direction").get<std::string>();
        directions.insert(direction);
        EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed) << direction;
        EXPECT_EQ(r.status, Status::suspect) << direction << ": " << r.error.value_or("");
        EXPECT_TRUE(names(r, "x1 Gen1 link")) << r.error.value_or("");
        const double directions_at_once = direction.rfind("both-directions", 0) == 0 ? 2 : 1;
        for (const auto &p : r.extra.at("curve").at("points")) {
            const double value = p.at("value").get<double>();
            EXPECT_EQ(p.at("status"), value > slowest_link * directions_at_once ? "suspect" : "ok")
                << direction << " at " << p.at("transfer_bytes") << ": " << value << " GB/s";
        }
    }
    // The host backend's one kind plays host and device: one route each way.
    EXPECT_EQ(directions, (std::set<std::string>{"host-to-device pageable", "both-directions pageable"}));
}

TEST_F(LinkBoundProbes, KindsMarksKernelFiguresOnHostMemoryPastTheLinkSuspect)
{
    const auto results = run("memory.kinds");
    ASSERT_EQ(results.size(), 3u);
    for (const auto &r : results) {
        EXPECT_EQ(r.status, Status::suspect) << r.parameters.dump() << ": " << r.error.value_or("");
        EXPECT_TRUE(names(r, "on memory kind")) << r.error.value_or("");
    }
}

TEST_F(LinkBoundProbes, DeviceMemoryIsNotBoundByTheLinkInKindsOrTransfers)
{
    // The same memory called the device's own: nothing of it crosses the link.
    for (auto &kind : record.kinds)
        kind.flags &= ~uint32_t(VRB_MEMORY_HOST_MEMORY);
    auto results = run("memory.kinds");
    const auto transfers = run("bandwidth.transfer");
    results.insert(results.end(), transfers.begin(), transfers.end());
    ASSERT_EQ(results.size(), 4u) << "read, write and copy, and device-to-device";
    EXPECT_EQ(transfers.at(0).parameters.at("direction"), "device-to-device");
    for (const auto &r : results)
        EXPECT_FALSE(names(r, "did not cross the link")) << r.probe << " " << r.parameters.dump() << ": " << *r.error;
}
