// The OpenCL module on the machine's OpenCL driver (PoCL in CI), loaded as the core
// loads it. VRAMBENCH_OPENCL_SEGMENT_BYTES shrinks segments to one page, so buffers of
// a few pages take every path a buffer past CL_DEVICE_MAX_MEM_ALLOC_SIZE takes.
#include "../sanitized_build.hpp"

#include <vrambench/core/modules/backend.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace {

using vrb::Backend;
using vrb::BackendError;
using vrb::Device;

std::shared_ptr<Backend> backend()
{
    static std::shared_ptr<Backend> loaded =
        Backend::create(vrb::Module::load(VRB_OPENCL_MODULE), vrb::default_host_table());
    return loaded;
}

std::vector<uint32_t> random_lanes(std::size_t n, uint32_t seed)
{
    std::vector<uint32_t> lanes(n);
    for (std::size_t i = 0; i < n; ++i)
        lanes[i] = vrb_pattern_random(i, seed);
    return lanes;
}

void upload(vrb::Buffer &b, uint64_t offset, const std::vector<uint32_t> &lanes)
{
    b.upload(offset, std::as_bytes(std::span(lanes)));
}

std::vector<uint32_t> download(vrb::Buffer &b, uint64_t offset, std::size_t lanes)
{
    std::vector<uint32_t> out(lanes);
    b.download(offset, std::as_writable_bytes(std::span(out)));
    return out;
}

uint32_t kind_named(Device &device, const std::string &name)
{
    const auto kinds = device.memory_kinds();
    for (uint32_t k = 0; k < kinds.size(); ++k)
        if (name == kinds[k].name) return k;
    ADD_FAILURE() << "no memory kind " << name;
    return 0;
}

class OpenclBackend : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (backend()->device_count() == 0) GTEST_SKIP() << "no OpenCL device";
    }
};

// Every test of this class opens its device with one-page segments.
class OpenclSegmentedBuffers : public OpenclBackend {
  protected:
    void SetUp() override
    {
        OpenclBackend::SetUp();
        if (IsSkipped()) return;
        setenv("VRAMBENCH_OPENCL_SEGMENT_BYTES", "4096", 1);
        device_ = backend()->open(0);
        unsetenv("VRAMBENCH_OPENCL_SEGMENT_BYTES");
    }
    std::unique_ptr<Device> device_;
};

} // namespace

TEST_F(OpenclBackend, ListsTheDeviceWithItsPlatformAndMemoryKinds)
{
    const vrb_device_info info = backend()->describe(0);
    EXPECT_STREQ(info.api, "OpenCL");
    EXPECT_TRUE(info.known & VRB_KNOWN_TOTAL_MEMORY);
    bool platform = false;
    for (uint32_t p = 0; p < info.property_count; ++p)
        platform |= std::string(info.properties[p].key) == "platform" && std::strlen(info.properties[p].value) > 0;
    EXPECT_TRUE(platform);
    auto device = backend()->open(0);
    const auto kinds = device->memory_kinds();
    ASSERT_GE(kinds.size(), 3u);
    EXPECT_STREQ(kinds[0].name, "device");
    EXPECT_STREQ(kinds[1].name, "pinned");
    EXPECT_STREQ(kinds[2].name, "host-pointer");
    for (const auto &k : kinds)
        EXPECT_TRUE(k.flags & VRB_MEMORY_DEVICE_ACCESS) << k.name;
}

// VRAMBENCH_OPENCL_KERNELS=gpu puts a CPU driver on the GPU's kernels and geometry, so
// their answers are checked where no GPU is (the opencl_gpu_kernels test runs the whole
// conformance kit so): a set below one wave is walked whole by one group on every
// compute unit, as on a GPU.
TEST_F(OpenclBackend, AskedForTheGpuKernelsACpuDriverWalksASmallSetWholeOnceOnEveryComputeUnit)
{
    const auto x = random_lanes(1024, 5);
    const uint64_t sum = std::accumulate(x.begin(), x.end(), uint64_t{0});
    auto read_with = [&](const char *kernels) {
        if (kernels) setenv("VRAMBENCH_OPENCL_KERNELS", kernels, 1);
        auto device = backend()->open(0);
        unsetenv("VRAMBENCH_OPENCL_KERNELS");
        auto a = device->allocate(0, x.size() * 4);
        upload(*a, 0, x);
        vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, x.size());
        read.src1 = {a->handle(), 0};
        read.passes = 2;
        return device->run(read, 1).output;
    };
    const vrb_device_info info = backend()->describe(0);
    if (info.type != VRB_DEVICE_CPU) GTEST_SKIP() << "the driver here is no CPU driver";
    const vrb_op_output gpu = read_with("gpu");
    EXPECT_EQ(gpu.checksum, sum);
    EXPECT_TRUE(gpu.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(gpu.passes, 2u * std::max<uint32_t>(info.compute_units, 1))
        << "two passes, each a walk by one group a unit, not by a wave of them";
    const vrb_op_output cpu = read_with(nullptr);
    EXPECT_EQ(cpu.checksum, sum);
    EXPECT_FALSE(cpu.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT) << "a CPU driver's own kernels give each core a block";
    EXPECT_EQ(cpu.passes, 2u);
}

// The per-unit walk runs the kernels built at its own, wider group width: every stream
// operation of a sweep still answers right below one wave, at every element width, and
// the device's own width still serves what is shared out after it.
TEST_F(OpenclBackend, TheGpuKernelsBuiltForThePerUnitWalkAnswerEveryStreamOperationBelowOneWave)
{
    if (vrb::test::sanitized_build) GTEST_SKIP() << "run by the release build";
    const vrb_device_info info = backend()->describe(0);
    if (info.type != VRB_DEVICE_CPU) GTEST_SKIP() << "the driver here is no CPU driver";
    setenv("VRAMBENCH_OPENCL_KERNELS", "gpu", 1);
    auto device = backend()->open(0);
    unsetenv("VRAMBENCH_OPENCL_KERNELS");
    const std::size_t lanes = 2000 + 12; // below a wave of 8 groups of 256 a core at every width
    const auto x = random_lanes(lanes, 31), y = random_lanes(lanes, 32);
    auto a = device->allocate(0, lanes * 4), b = device->allocate(0, lanes * 4), d = device->allocate(0, lanes * 4);
    upload(*a, 0, x);
    upload(*b, 0, y);
    const uint32_t units = std::max<uint32_t>(info.compute_units, 1);
    for (uint32_t element : {4u, 8u, 16u}) {
        SCOPED_TRACE(std::to_string(element) + "-byte elements");
        const uint64_t count = lanes * 4 / element - 1; // a tail short of the last element
        const std::size_t used = count * element / 4;
        uint64_t sum = 0, dot = 0;
        for (std::size_t i = 0; i < used; ++i) {
            sum += x[i];
            dot += uint32_t(x[i] * y[i]);
        }
        vrb_operation read = vrb::make_operation(VRB_OP_READ, element, count);
        read.src1 = {a->handle(), 0};
        read.passes = 3;
        const vrb_op_output got = device->run(read, 1).output;
        EXPECT_TRUE(got.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
        EXPECT_EQ(got.passes, 3u * units);
        EXPECT_EQ(got.checksum, sum);
        vrb_operation product = read;
        product.kind = VRB_OP_DOT;
        product.src2 = {b->handle(), 0};
        EXPECT_EQ(device->run(product, 1).output.checksum, dot);

        vrb_operation triad = vrb::make_operation(VRB_OP_TRIAD, element, count);
        triad.scalar = 7;
        triad.dst = {d->handle(), 0};
        triad.src1 = {a->handle(), 0};
        triad.src2 = {b->handle(), 0};
        triad.passes = 2;
        upload(*d, 0, std::vector<uint32_t>(lanes, 0));
        EXPECT_TRUE(device->run(triad, 1).output.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
        const auto got_triad = download(*d, 0, used);
        for (std::size_t i = 0; i < used; ++i)
            ASSERT_EQ(got_triad[i], x[i] + 7u * y[i]) << "triad, lane " << i;

        vrb_operation write = vrb::make_operation(VRB_OP_WRITE, element, count);
        write.dst = {d->handle(), 0};
        write.seed = 40 + element;
        write.passes = 2;
        upload(*d, 0, std::vector<uint32_t>(lanes, 0));
        device->run(write, 1);
        const auto want = random_lanes(used, write.seed);
        EXPECT_EQ(download(*d, 0, used), want);
    }
    // Past the wave the device's own width shares the set out again.
    const auto big = random_lanes(3 * 1000 * 1000, 33);
    auto c = device->allocate(0, big.size() * 4);
    upload(*c, 0, big);
    vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, big.size());
    read.src1 = {c->handle(), 0};
    read.passes = 2;
    const vrb_op_output shared = device->run(read, 1).output;
    EXPECT_FALSE(shared.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
    EXPECT_EQ(shared.passes, 2u);
    EXPECT_EQ(shared.checksum, std::accumulate(big.begin(), big.end(), uint64_t{0}));
}

// Past one wave the GPU kernels move every group's share on each pass (PASS_FIRST): the
// reads still sum every element once a pass, the dot too, and a write's every lane is its
// pattern, whatever the passes and the element width.
TEST_F(OpenclBackend, TheGpuKernelsMovingTheirSharesOnEachPassStillCoverASetPastOneWaveOnceAPass)
{
    if (vrb::test::sanitized_build) GTEST_SKIP() << "run by the release build";
    if (backend()->describe(0).type != VRB_DEVICE_CPU) GTEST_SKIP() << "the driver here is no CPU driver";
    setenv("VRAMBENCH_OPENCL_KERNELS", "gpu", 1);
    auto device = backend()->open(0);
    unsetenv("VRAMBENCH_OPENCL_KERNELS");
    const std::size_t lanes = 3 * 1000 * 1000 + 4; // past a wave of 8 groups of 256 a core
    const auto x = random_lanes(lanes, 21), y = random_lanes(lanes, 22);
    uint64_t sum = 0, dot = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
        sum += x[i];
        dot += uint32_t(x[i] * y[i]);
    }
    auto a = device->allocate(0, lanes * 4), b = device->allocate(0, lanes * 4), d = device->allocate(0, lanes * 4);
    upload(*a, 0, x);
    upload(*b, 0, y);
    for (uint32_t element : {4u, 16u}) {
        for (uint32_t passes : {1u, 3u, 10u}) {
            SCOPED_TRACE(std::to_string(element) + "-byte elements, " + std::to_string(passes) + " passes");
            vrb_operation read = vrb::make_operation(VRB_OP_READ, element, lanes * 4 / element);
            read.src1 = {a->handle(), 0};
            read.passes = passes;
            const vrb_op_output got = device->run(read, 1).output;
            EXPECT_FALSE(got.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT);
            EXPECT_EQ(got.checksum, sum);
            vrb_operation product = read;
            product.kind = VRB_OP_DOT;
            product.src2 = {b->handle(), 0};
            EXPECT_EQ(device->run(product, 1).output.checksum, dot);
            upload(*d, 0, std::vector<uint32_t>(lanes, 0));
            vrb_operation write = vrb::make_operation(VRB_OP_WRITE, element, lanes * 4 / element);
            write.dst = {d->handle(), 0};
            write.seed = 900 + passes;
            write.passes = passes;
            device->run(write, 1);
            EXPECT_EQ(download(*d, 0, lanes), random_lanes(lanes, write.seed));
        }
    }
}

TEST_F(OpenclBackend, RefusesAnAllocationPastTheDevicesMemoryAsOutOfMemory)
{
    auto device = backend()->open(0);
    const uint64_t too_much = device->describe().total_memory_bytes + 4096;
    try {
        device->allocate(0, too_much);
        FAIL() << "allocated more than the device holds";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_OUT_OF_MEMORY);
        EXPECT_NE(std::string(e.what()).find("exceed the device's"), std::string::npos) << e.what();
    }
}

TEST_F(OpenclBackend, RefusesASegmentSizeThatIsNotANumberWhenOpening)
{
    setenv("VRAMBENCH_OPENCL_SEGMENT_BYTES", "4k", 1);
    try {
        backend()->open(0);
        ADD_FAILURE() << "opened with a malformed setting";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("VRAMBENCH_OPENCL_SEGMENT_BYTES=4k"), std::string::npos) << e.what();
    }
    unsetenv("VRAMBENCH_OPENCL_SEGMENT_BYTES");
}

TEST_F(OpenclBackend, AChaseInOneSegmentEndsWhereTheHostWalkEndsAndFailsOnTheFirstIndexOutsideIt)
{
    auto device = backend()->open(0);
    const uint64_t offset = 64, n = 3000;
    auto data = device->allocate(0, offset + n * 4);
    std::vector<uint32_t> chain(n);
    for (uint64_t j = 0; j < n; ++j)
        chain[j] = static_cast<uint32_t>((j + 1031) % n); // one cycle through all of them
    upload(*data, offset, chain);
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 1000);
    chase.src1 = {data->handle(), offset};
    uint32_t j = 0, at_500 = 0;
    for (int s = 0; s < 1000; ++s) {
        if (s == 500) at_500 = j;
        j = chain[j];
    }
    EXPECT_EQ(device->run(chase, 2).output.checksum, j);
    // The index step 501 loads leads outside; it is met when step 502 follows it.
    chain[at_500] = 77777;
    upload(*data, offset, chain);
    try {
        device->run(chase, 2);
        ADD_FAILURE() << "an index past src1 was followed";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("chase index 77777"), std::string::npos) << e.what();
    }
    chase.count = 501; // ends on it without following it: an answer
    EXPECT_EQ(device->run(chase, 1).output.checksum, 77777u);
}

TEST_F(OpenclBackend, CopyAndTriadPastTheCachesWriteEveryLaneAlignedOrNot)
{
    // 40 MiB arrays through PoCL, many times slower under the sanitizers: the release
    // build runs it, the sanitized build the smaller copies above.
    if (vrb::test::sanitized_build) GTEST_SKIP() << "run by the release build";
    // Past the caches a CPU's elementwise kernels store with streaming stores, which take
    // whole aligned lines: an aligned destination, one 16 bytes off, and a tail of lanes.
    auto device = backend()->open(0);
    const uint64_t bytes = (uint64_t(40) << 20) + 4096;
    auto a = device->allocate(0, bytes), b = device->allocate(0, bytes), c = device->allocate(0, bytes);
    const auto x = random_lanes(bytes / 4, 3), y = random_lanes(bytes / 4, 4);
    upload(*a, 0, x);
    upload(*b, 0, y);
    for (uint64_t offset : {uint64_t(0), uint64_t(16)}) {
        const uint64_t count = (bytes - 4096) / 8 + 3;
        vrb_operation copy = vrb::make_operation(VRB_OP_COPY, 8, count);
        copy.dst = {c->handle(), offset};
        copy.src1 = {a->handle(), 0};
        device->run(copy, 1);
        auto got = download(*c, offset, count * 2);
        for (uint64_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], x[i]) << "copy, offset " << offset << ", lane " << i;
        vrb_operation triad = vrb::make_operation(VRB_OP_TRIAD, 8, count);
        triad.scalar = 5;
        triad.dst = {c->handle(), offset};
        triad.src1 = {a->handle(), 0};
        triad.src2 = {b->handle(), 0};
        device->run(triad, 1);
        got = download(*c, offset, count * 2);
        for (uint64_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], x[i] + 5u * y[i]) << "triad, offset " << offset << ", lane " << i;
    }
}

TEST_F(OpenclSegmentedBuffers, UploadAndDownloadCrossSegmentBoundaries)
{
    auto buffer = device_->allocate(0, 5 * 4096 + 100);
    const auto lanes = random_lanes(3000, 7);
    upload(*buffer, 4092, lanes);
    EXPECT_EQ(download(*buffer, 4092, lanes.size()), lanes);
}

TEST_F(OpenclSegmentedBuffers, ReadAndTriadAcrossSegmentsMatchTheHost)
{
    const uint64_t bytes = 5 * 4096 + 112;
    auto a = device_->allocate(0, bytes), b = device_->allocate(kind_named(*device_, "pinned"), bytes),
         c = device_->allocate(0, bytes);
    const auto x = random_lanes(bytes / 4, 1), y = random_lanes(bytes / 4, 2);
    upload(*a, 0, x);
    upload(*b, 0, y);
    for (uint32_t width : {4u, 8u, 16u}) {
        const uint64_t count = (bytes - 64) / width;
        vrb_operation read = vrb::make_operation(VRB_OP_READ, width, count);
        read.src1 = {a->handle(), 48};
        uint64_t expected = 0;
        for (uint64_t i = 0; i < count * width / 4; ++i)
            expected += x[12 + i];
        EXPECT_EQ(device_->run(read, 2).output.checksum, expected) << width;

        vrb_operation triad = vrb::make_operation(VRB_OP_TRIAD, width, count);
        triad.scalar = 3;
        triad.dst = {c->handle(), 16};
        triad.src1 = {a->handle(), 32};
        triad.src2 = {b->handle(), 64 - width};
        device_->run(triad, 1);
        const auto got = download(*c, 16, count * width / 4);
        for (uint64_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], x[8 + i] + 3u * y[(64 - width) / 4 + i]) << "width " << width << ", lane " << i;
    }
}

TEST_F(OpenclSegmentedBuffers, GatherAndChaseFollowIndicesIntoEverySegment)
{
    const uint64_t bytes = 6 * 4096;
    auto data = device_->allocate(0, bytes), index = device_->allocate(0, 4 * 4096);
    const auto x = random_lanes(bytes / 4, 3);
    upload(*data, 0, x);
    // The chain: lane j points at j + 1031 (mod the lanes after the offset), so it
    // visits every segment.
    const uint64_t offset = 256, lanes = (bytes - offset) / 4;
    std::vector<uint32_t> chain(lanes);
    for (uint64_t j = 0; j < lanes; ++j)
        chain[j] = static_cast<uint32_t>((j + 1031) % lanes);
    upload(*data, offset, chain);
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 5000);
    chase.src1 = {data->handle(), offset};
    EXPECT_EQ(device_->run(chase, 1).output.checksum, (5000ull * 1031) % lanes);

    const auto all = download(*data, 0, bytes / 4);
    std::vector<uint32_t> indices(4 * 4096 / 4 - 8);
    for (std::size_t i = 0; i < indices.size(); ++i)
        indices[i] = static_cast<uint32_t>((i * 977) % ((bytes - offset) / 16));
    upload(*index, 0, indices);
    vrb_operation gather = vrb::make_operation(VRB_OP_GATHER, 16, indices.size() - 3);
    gather.src1 = {data->handle(), offset};
    gather.src2 = {index->handle(), 12};
    uint64_t expected = 0;
    for (std::size_t i = 3; i < indices.size(); ++i)
        for (int l = 0; l < 4; ++l)
            expected += all[offset / 4 + indices[i] * 4 + l];
    EXPECT_EQ(device_->run(gather, 1).output.checksum, expected);

    indices[100] = static_cast<uint32_t>((bytes - offset) / 16); // one past the end
    upload(*index, 0, indices);
    try {
        device_->run(gather, 1);
        ADD_FAILURE() << "a gather index past src1 was followed";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("gather index 1520 at position 97"), std::string::npos) << e.what();
    }
}

TEST_F(OpenclSegmentedBuffers, ChaseOverMoreSegmentsThanTheKernelsBindIsRefused)
{
    auto data = device_->allocate(0, 9 * 4096);
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 10);
    chase.src1 = {data->handle(), 0};
    try {
        device_->run(chase, 1);
        ADD_FAILURE() << "ran over 9 segments";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_UNSUPPORTED);
        EXPECT_NE(std::string(e.what()).find("9 segments"), std::string::npos) << e.what();
    }
}

TEST_F(OpenclSegmentedBuffers, TransfersToAndFromPinnedMemoryArriveWholeThroughItsHostAddress)
{
    // Pinned memory is copied through its mapped host address (a driver may keep a
    // device-side copy of it): what the device's buffer holds after each copy, and what
    // the pinned buffer holds once unmapped, must be what was sent.
    const uint64_t bytes = 4 * 4096;
    auto pinned = device_->allocate(kind_named(*device_, "pinned"), bytes), dev = device_->allocate(0, bytes);
    std::vector<uint32_t> lanes(bytes / 4);
    for (std::size_t i = 0; i < lanes.size(); ++i)
        lanes[i] = static_cast<uint32_t>(i * 2654435761u);
    upload(*pinned, 0, lanes);
    vrb_operation in = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes - 1000);
    in.src1 = {pinned->handle(), 600};
    in.dst = {dev->handle(), 400};
    device_->run(in, 2);
    const auto arrived = download(*dev, 400, (bytes - 1000) / 4);
    for (std::size_t i = 0; i < arrived.size(); ++i)
        ASSERT_EQ(arrived[i], lanes[150 + i]) << i;

    upload(*pinned, 0, std::vector<uint32_t>(bytes / 4, 0u));
    vrb_operation out = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes - 1000);
    out.src1 = {dev->handle(), 400};
    out.dst = {pinned->handle(), 600};
    device_->run(out, 2);
    const auto back = download(*pinned, 600, (bytes - 1000) / 4);
    for (std::size_t i = 0; i < back.size(); ++i)
        ASSERT_EQ(back[i], lanes[150 + i]) << i;
}

TEST_F(OpenclSegmentedBuffers, TransfersAndChecksCrossSegmentsOfBothSides)
{
    const uint64_t bytes = 4 * 4096;
    auto src = device_->allocate(0, bytes), dst = device_->allocate(kind_named(*device_, "host-pointer"), bytes);
    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 8, bytes / 8);
    fill.pattern = VRB_PATTERN_ADDRESS;
    fill.dst = {src->handle(), 0};
    device_->run(fill, 1);
    vrb_operation copy = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes - 1000);
    copy.src1 = {src->handle(), 600};
    copy.dst = {dst->handle(), 400};
    device_->run(copy, 1);
    const auto got = download(*dst, 400, (bytes - 1000) / 4);
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], 150 + i) << i;

    vrb_operation check = vrb::make_operation(VRB_OP_CHECK, 16, bytes / 16);
    check.pattern = VRB_PATTERN_ADDRESS;
    check.src1 = {src->handle(), 0};
    EXPECT_EQ(device_->run(check, 1).output.mismatches, 0u);
    upload(*src, 3 * 4096 + 8, std::vector<uint32_t>{12345u});
    const auto answer = device_->run(check, 1).output;
    EXPECT_EQ(answer.mismatches, 1u);
    EXPECT_EQ(answer.first_mismatch, 3u * 1024 + 2);
}
