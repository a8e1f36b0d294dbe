// Every operation of the vocabulary on a real device, against answers computed on the
// host. Skipped, with the module's reason, where the module finds no device.
#include "loaded_module.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using vrb::test::BuiltModule;
using vrb::test::LoadedModule;

struct Output {
    vrb_status status = VRB_OK;
    std::string error;
    std::vector<double> seconds;
    vrb_op_output out{};
};

class Buffer;

// One opened device of one module, closed (and its backend shut down) at the end.
class Session {
  public:
    Session(const vrb_plugin_table *t, vrb_context *c, vrb_device *d) : t_(t), context_(c), device_(d) {}
    ~Session()
    {
        if (device_) t_->device_close(device_);
        if (context_) t_->shutdown(context_);
    }
    const vrb_plugin_table &table() const { return *t_; }
    vrb_device *device() const { return device_; }

    uint32_t kind(const std::string &name) const
    {
        uint32_t count = 0;
        t_->memory_kind_count(device_, &count);
        for (uint32_t k = 0; k < count; ++k) {
            vrb_memory_kind_info info{};
            info.struct_size = sizeof info;
            if (t_->memory_kind_describe(device_, k, &info) == VRB_OK && name == info.name) return k;
        }
        return UINT32_MAX;
    }
    uint32_t kind_flags(uint32_t kind) const
    {
        vrb_memory_kind_info info{};
        info.struct_size = sizeof info;
        return t_->memory_kind_describe(device_, kind, &info) == VRB_OK ? info.flags : 0;
    }
    vrb_device_info describe() const
    {
        vrb_device_info info{};
        info.struct_size = sizeof info;
        t_->device_describe(context_, 0, &info);
        return info;
    }

    Output run(const vrb_operation &op, uint32_t repetitions = 1) const
    {
        Output o;
        o.seconds.assign(repetitions, 0.0);
        o.out.struct_size = sizeof o.out;
        o.status = t_->run(device_, &op, repetitions, o.seconds.data(), &o.out);
        if (o.status != VRB_OK) o.error = t_->last_error();
        return o;
    }

  private:
    const vrb_plugin_table *t_;
    vrb_context *context_;
    vrb_device *device_;
};

class Buffer {
  public:
    Buffer(const Session &s, uint32_t kind, uint64_t bytes) : t_(&s.table())
    {
        status_ = t_->buffer_alloc(s.device(), kind, bytes, &buffer_);
    }
    ~Buffer()
    {
        if (buffer_) t_->buffer_free(buffer_);
    }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    vrb_buffer *get() const { return buffer_; }
    vrb_status status() const { return status_; }

    template <typename T> void upload(const std::vector<T> &data, uint64_t offset = 0) const
    {
        ASSERT_EQ(t_->buffer_upload(buffer_, offset, data.data(), data.size() * sizeof(T)), VRB_OK) << t_->last_error();
    }
    template <typename T> std::vector<T> download(std::size_t count, uint64_t offset = 0) const
    {
        std::vector<T> data(count);
        EXPECT_EQ(t_->buffer_download(buffer_, offset, data.data(), count * sizeof(T)), VRB_OK) << t_->last_error();
        return data;
    }

  private:
    const vrb_plugin_table *t_;
    vrb_buffer *buffer_ = nullptr;
    vrb_status status_ = VRB_OK;
};

std::vector<uint32_t> random_lanes(std::size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint32_t> v(n);
    for (auto &x : v)
        x = rng();
    return v;
}

uint64_t lane_sum(const std::vector<uint32_t> &v, std::size_t from, std::size_t n)
{
    uint64_t s = 0;
    for (std::size_t i = 0; i < n; ++i)
        s += v[from + i];
    return s;
}

class GpuOperations : public testing::TestWithParam<BuiltModule> {
  protected:
    void SetUp() override
    {
        module_ = std::make_unique<LoadedModule>(GetParam().path);
        ASSERT_TRUE(module_->loaded()) << module_->error();
        const vrb_plugin_table *t = module_->table();
        ASSERT_NE(t, nullptr);
        const vrb_host_table host = vrb::test::quiet_host();
        vrb_context *context = nullptr;
        const vrb_status status = t->init(&host, &context);
        if (status == VRB_ERROR_UNAVAILABLE) VRB_SKIP_UNLESS_GPU_REQUIRED(GetParam().name, t->last_error());
        ASSERT_EQ(status, VRB_OK) << t->last_error();
        vrb_device *device = nullptr;
        const vrb_status opened = t->device_open(context, 0, &device);
        session_ = std::make_unique<Session>(t, context, device);
        ASSERT_EQ(opened, VRB_OK) << t->last_error();
        device_kind_ = session_->kind("device");
        ASSERT_NE(device_kind_, UINT32_MAX);
    }
    void TearDown() override
    {
        session_.reset();
        module_.reset();
    }

    std::unique_ptr<LoadedModule> module_;
    std::unique_ptr<Session> session_;
    uint32_t device_kind_ = 0;
};

TEST_P(GpuOperations, OffersDevicePinnedAndPageableMemoryWithTheirFlags)
{
    const uint32_t device = session_->kind("device"), pinned = session_->kind("pinned"),
                   pageable = session_->kind("pageable");
    ASSERT_NE(pinned, UINT32_MAX);
    ASSERT_NE(pageable, UINT32_MAX);
    EXPECT_EQ(session_->kind_flags(device), uint32_t(VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS));
    EXPECT_TRUE(session_->kind_flags(pinned) & VRB_MEMORY_PINNED);
    EXPECT_TRUE(session_->kind_flags(pinned) & VRB_MEMORY_HOST_MEMORY);
    EXPECT_TRUE(session_->kind_flags(pageable) & VRB_MEMORY_PAGEABLE);
    const vrb_device_info info = session_->describe();
    EXPECT_TRUE(info.known & VRB_KNOWN_PCI_ADDRESS);
    EXPECT_EQ(std::strlen(info.pci_address), 12u) << info.pci_address;
    EXPECT_TRUE(info.known & VRB_KNOWN_COMPUTE_UNITS);
}

TEST_P(GpuOperations, StreamOperationsMatchTheHostForEveryElementWidth)
{
    const uint32_t scalar = 0x9e3779b9u;
    for (uint32_t e : {4u, 8u, 16u}) {
        SCOPED_TRACE("element_bytes " + std::to_string(e));
        const uint32_t lanes = e / 4;
        const uint64_t count = 100003;                        // leaves remainders everywhere
        const uint64_t in_offset = 3 * e, out_offset = 5 * e; // offsets are honoured
        const std::size_t n = count * lanes;
        const std::vector<uint32_t> a = random_lanes(n, 1), b = random_lanes(n, 2);
        Buffer A(*session_, device_kind_, count * e + in_offset), B(*session_, device_kind_, count * e + in_offset),
            D(*session_, device_kind_, count * e + out_offset);
        A.upload(a, in_offset);
        B.upload(b, in_offset);

        auto binary = [&](vrb_op_kind kind) {
            vrb_operation op = vrb::make_operation(kind, e, count);
            op.scalar = scalar;
            op.src1 = {A.get(), in_offset};
            op.src2 = {B.get(), in_offset};
            op.dst = {D.get(), out_offset};
            const Output o = session_->run(op, 2);
            EXPECT_EQ(o.status, VRB_OK) << o.error;
            return D.download<uint32_t>(n, out_offset);
        };
        std::vector<uint32_t> got = binary(VRB_OP_COPY);
        EXPECT_EQ(got, a);
        got = binary(VRB_OP_SCALE);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i], uint32_t(scalar * a[i])) << i;
        got = binary(VRB_OP_ADD);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i], uint32_t(a[i] + b[i])) << i;
        got = binary(VRB_OP_TRIAD);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i], uint32_t(a[i] + scalar * b[i])) << i;

        vrb_operation read = vrb::make_operation(VRB_OP_READ, e, count);
        read.src1 = {A.get(), in_offset};
        Output o = session_->run(read);
        ASSERT_EQ(o.status, VRB_OK) << o.error;
        EXPECT_EQ(o.out.checksum, lane_sum(a, 0, n));

        vrb_operation dot = vrb::make_operation(VRB_OP_DOT, e, count);
        dot.src1 = {A.get(), in_offset};
        dot.src2 = {B.get(), in_offset};
        o = session_->run(dot);
        ASSERT_EQ(o.status, VRB_OK) << o.error;
        uint64_t expected = 0;
        for (std::size_t i = 0; i < n; ++i)
            expected += uint32_t(a[i] * b[i]);
        EXPECT_EQ(o.out.checksum, expected);

        vrb_operation write = vrb::make_operation(VRB_OP_WRITE, e, count);
        write.seed = 77;
        write.dst = {D.get(), out_offset};
        o = session_->run(write);
        ASSERT_EQ(o.status, VRB_OK) << o.error;
        got = D.download<uint32_t>(n, out_offset);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i], vrb_pattern_random(i, 77)) << i;
    }
}

TEST_P(GpuOperations, FillAndCheckAgreeWithThePatternsAndFindPlantedMismatches)
{
    const uint64_t count = 65537;
    for (uint32_t e : {4u, 16u}) {
        const std::size_t n = count * (e / 4);
        Buffer D(*session_, device_kind_, count * e);
        for (uint32_t pattern = 0; pattern < VRB_PATTERN_COUNT; ++pattern) {
            SCOPED_TRACE("pattern " + std::to_string(pattern) + ", element_bytes " + std::to_string(e));
            vrb_operation fill = vrb::make_operation(VRB_OP_FILL, e, count);
            fill.pattern = pattern;
            fill.seed = 5;
            fill.dst = {D.get(), 0};
            ASSERT_EQ(session_->run(fill).status, VRB_OK);
            const std::vector<uint32_t> got = D.download<uint32_t>(n);
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(got[i], vrb_pattern(pattern, i, 5)) << i;

            vrb_operation check = vrb::make_operation(VRB_OP_CHECK, e, count);
            check.pattern = pattern;
            check.seed = 5;
            check.src1 = {D.get(), 0};
            Output o = session_->run(check);
            ASSERT_EQ(o.status, VRB_OK) << o.error;
            EXPECT_EQ(o.out.mismatches, 0u);

            for (uint64_t lane : {uint64_t(4099), uint64_t(777)})
                D.upload(std::vector<uint32_t>{~vrb_pattern(pattern, lane, 5)}, lane * 4);
            o = session_->run(check);
            ASSERT_EQ(o.status, VRB_OK) << o.error;
            EXPECT_EQ(o.out.mismatches, 2u);
            EXPECT_EQ(o.out.first_mismatch, 777u);
        }
    }
}

TEST_P(GpuOperations, StridedReadAndGatherSumWhatTheHostSums)
{
    const uint32_t e = 8, lanes = 2;
    const uint64_t elements = 50000;
    const std::vector<uint32_t> a = random_lanes(elements * lanes, 3);
    Buffer A(*session_, device_kind_, elements * e);
    A.upload(a);

    const uint64_t stride = 7, count = (elements - 1) / stride + 1;
    vrb_operation strided = vrb::make_operation(VRB_OP_STRIDED_READ, e, count);
    strided.stride = stride;
    strided.src1 = {A.get(), 0};
    Output o = session_->run(strided);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    uint64_t expected = 0;
    for (uint64_t i = 0; i < count; ++i)
        expected += lane_sum(a, i * stride * lanes, lanes);
    EXPECT_EQ(o.out.checksum, expected);

    const uint64_t gathers = 30011;
    std::mt19937 rng(9);
    std::vector<uint32_t> index(gathers);
    for (auto &j : index)
        j = rng() % (elements - 10); // read from src1.offset = 10 elements
    Buffer I(*session_, device_kind_, gathers * 4);
    I.upload(index);
    vrb_operation gather = vrb::make_operation(VRB_OP_GATHER, e, gathers);
    gather.src1 = {A.get(), 10 * e};
    gather.src2 = {I.get(), 0};
    o = session_->run(gather);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    expected = 0;
    for (uint32_t j : index)
        expected += lane_sum(a, (10 + uint64_t(j)) * lanes, lanes);
    EXPECT_EQ(o.out.checksum, expected);

    index[1234] = uint32_t(elements - 10); // one past the end, seen from the offset
    I.upload(index);
    o = session_->run(gather);
    EXPECT_EQ(o.status, VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(o.error.find("outside"), std::string::npos) << o.error;
    // The device is still fine after a refused index.
    EXPECT_EQ(session_->run(strided).status, VRB_OK);
}

TEST_P(GpuOperations, ChaseEndsWhereTheHostWalkEnds)
{
    const uint32_t n = 4096;
    std::vector<uint32_t> chain(n);
    std::iota(chain.begin(), chain.end(), 0u);
    std::mt19937 rng(11);
    for (uint32_t i = n - 1; i > 0; --i)
        std::swap(chain[i], chain[rng() % i]); // one cycle (Sattolo)
    const uint64_t offset = 64;
    Buffer C(*session_, device_kind_, offset + n * 4);
    C.upload(chain, offset);
    for (uint64_t steps : {uint64_t(0), uint64_t(1), uint64_t(10007)}) {
        vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, steps);
        chase.src1 = {C.get(), offset};
        const Output o = session_->run(chase, 2);
        ASSERT_EQ(o.status, VRB_OK) << o.error;
        uint32_t j = 0;
        for (uint64_t s = 0; s < steps; ++s)
            j = chain[j];
        EXPECT_EQ(o.out.checksum, j) << steps << " steps";
    }
    chain[chain[0]] = n; // the second step leads outside
    C.upload(chain, offset);
    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 3);
    chase.src1 = {C.get(), offset};
    const Output o = session_->run(chase);
    EXPECT_EQ(o.status, VRB_ERROR_INVALID_ARGUMENT);
}

TEST_P(GpuOperations, TransfersCopyBytesExactlyBetweenEveryPairOfKinds)
{
    const uint64_t bytes = (1u << 20) + 3, offset = 5;
    std::vector<uint8_t> data(bytes);
    std::mt19937 rng(13);
    for (auto &x : data)
        x = uint8_t(rng());
    for (const char *from : {"device", "pinned", "pageable"}) {
        for (const char *to : {"device", "pinned", "pageable"}) {
            SCOPED_TRACE(std::string(from) + " to " + to);
            Buffer S(*session_, session_->kind(from), bytes + offset), D(*session_, session_->kind(to), bytes + offset);
            S.upload(data, offset);
            vrb_operation t = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes);
            t.src1 = {S.get(), offset};
            t.dst = {D.get(), offset};
            const Output o = session_->run(t, 2);
            ASSERT_EQ(o.status, VRB_OK) << o.error;
            // Between two host buffers the device takes no part: the host's clock times it.
            const bool host_only = std::string(from) != "device" && std::string(to) != "device";
            EXPECT_EQ(o.out.timer, uint32_t(host_only ? VRB_TIMER_HOST_MONOTONIC : VRB_TIMER_DEVICE_EVENTS));
            EXPECT_TRUE(D.download<uint8_t>(bytes, offset) == data);
        }
    }
    // Both directions at once.
    Buffer H1(*session_, session_->kind("pinned"), bytes), D1(*session_, device_kind_, bytes),
        D2(*session_, device_kind_, bytes), H2(*session_, session_->kind("pinned"), bytes);
    std::vector<uint8_t> other(data.rbegin(), data.rend());
    H1.upload(data);
    D2.upload(other);
    vrb_operation t = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes);
    t.src1 = {H1.get(), 0};
    t.dst = {D1.get(), 0};
    t.src2 = {D2.get(), 0};
    t.dst2 = {H2.get(), 0};
    const Output o = session_->run(t, 3);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_TRUE(D1.download<uint8_t>(bytes) == data);
    EXPECT_TRUE(H2.download<uint8_t>(bytes) == other);
}

TEST_P(GpuOperations, EveryRunIsTimedByTheDevicesEvents)
{
    const uint64_t count = 1 << 24;
    Buffer D(*session_, device_kind_, count * 16);
    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 16, count);
    fill.pattern = VRB_PATTERN_RANDOM;
    fill.dst = {D.get(), 0};
    const Output o = session_->run(fill, 7);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_EQ(o.out.timer, uint32_t(VRB_TIMER_DEVICE_EVENTS));
    for (double s : o.seconds) {
        EXPECT_GT(s, 0.0);
        EXPECT_LT(s, 10.0);
    }
}

TEST_P(GpuOperations, RepeatsTheWholeOperationForEachPassAndAnswersAsForOne)
{
    const uint64_t count = 4099;
    const std::vector<uint32_t> a = random_lanes(count * 4, 21);
    Buffer A(*session_, device_kind_, count * 16), D(*session_, device_kind_, count * 16);
    A.upload(a);
    vrb_operation read = vrb::make_operation(VRB_OP_READ, 16, count);
    read.src1 = {A.get(), 0};
    read.passes = 5;
    Output o = session_->run(read, 3);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    // A set this small is below one wave of a GPU: every block walks it whole, and the
    // passes made count each block's (the flag says so), 5 for each block.
    const bool whole = (o.out.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT) != 0;
    const uint32_t walkers = whole ? o.out.passes / 5 : 1;
    EXPECT_EQ(o.out.passes, 5u * walkers);
    if (whole) EXPECT_GT(walkers, 1u);
    EXPECT_EQ(o.out.checksum, lane_sum(a, 0, count * 4));

    vrb_operation transfer = vrb::make_operation(VRB_OP_TRANSFER, 1, count * 16);
    transfer.src1 = {A.get(), 0};
    transfer.dst = {D.get(), 0};
    transfer.passes = 2;
    o = session_->run(transfer, 2);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_EQ(o.out.passes, 2u);
    EXPECT_EQ(D.download<uint32_t>(count * 4), a);

    read.passes = 0; // 0 means once
    o = session_->run(read);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_EQ(o.out.passes, walkers);
}

TEST_P(GpuOperations, KernelsReachPinnedMemoryDirectlyAndRefuseMemoryOutOfReach)
{
    const uint64_t count = 10000;
    const std::vector<uint32_t> a = random_lanes(count, 17);
    for (const char *kind : {"pinned", "pageable"}) {
        SCOPED_TRACE(kind);
        const uint32_t k = session_->kind(kind);
        Buffer H(*session_, k, count * 4);
        H.upload(a);
        vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, count);
        read.src1 = {H.get(), 0};
        const Output o = session_->run(read);
        if (session_->kind_flags(k) & VRB_MEMORY_DEVICE_ACCESS) {
            ASSERT_EQ(o.status, VRB_OK) << o.error;
            EXPECT_EQ(o.out.checksum, lane_sum(a, 0, count));
        } else {
            EXPECT_EQ(o.status, VRB_ERROR_UNSUPPORTED);
            EXPECT_NE(o.error.find(kind), std::string::npos) << o.error;
        }
    }
}

TEST_P(GpuOperations, RefusesOperandsOutsideTheirBuffers)
{
    Buffer A(*session_, device_kind_, 4096);
    vrb_operation read = vrb::make_operation(VRB_OP_READ, 16, 257);
    read.src1 = {A.get(), 0};
    EXPECT_EQ(session_->run(read).status, VRB_ERROR_INVALID_ARGUMENT);
    read.count = 256;
    read.src1.offset = 8; // not a multiple of 16
    EXPECT_EQ(session_->run(read).status, VRB_ERROR_INVALID_ARGUMENT);
    read.src1.offset = 0;
    EXPECT_EQ(session_->run(read, 0).status, VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(session_->run(read).status, VRB_OK);
}

TEST_P(GpuOperations, AnImpossibleAllocationIsOutOfMemoryAndLeavesTheDeviceUsable)
{
    Buffer huge(*session_, device_kind_, uint64_t(1) << 60);
    EXPECT_EQ(huge.status(), VRB_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(huge.get(), nullptr);
    Buffer fine(*session_, device_kind_, 1 << 20);
    EXPECT_EQ(fine.status(), VRB_OK);
    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 4, 1 << 18);
    fill.dst = {fine.get(), 0};
    EXPECT_EQ(session_->run(fill).status, VRB_OK);
}

TEST_P(GpuOperations, CountsPastTwoToThe32LanesAreCoveredExactly)
{
    const uint64_t count = (uint64_t(1) << 32) + 7; // 4-byte elements: 16 GiB
    const vrb_device_info info = session_->describe();
    if (info.free_memory_bytes < count * 4 + (uint64_t(4) << 30)) GTEST_SKIP() << "needs about 20 GiB free";
    Buffer D(*session_, device_kind_, count * 4);
    ASSERT_EQ(D.status(), VRB_OK);

    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 4, count);
    fill.pattern = VRB_PATTERN_ADDRESS;
    fill.dst = {D.get(), 0};
    ASSERT_EQ(session_->run(fill).status, VRB_OK);
    const uint64_t planted = (uint64_t(1) << 32) + 3;
    EXPECT_EQ(D.download<uint32_t>(1, planted * 4)[0], vrb_pattern(VRB_PATTERN_ADDRESS, planted, 0));
    D.upload(std::vector<uint32_t>{0xdeadbeefu}, planted * 4);
    vrb_operation check = vrb::make_operation(VRB_OP_CHECK, 4, count);
    check.pattern = VRB_PATTERN_ADDRESS;
    check.src1 = {D.get(), 0};
    Output o = session_->run(check);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_EQ(o.out.mismatches, 1u);
    EXPECT_EQ(o.out.first_mismatch, planted);

    fill.pattern = VRB_PATTERN_ONES;
    ASSERT_EQ(session_->run(fill).status, VRB_OK);
    vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, count);
    read.src1 = {D.get(), 0};
    o = session_->run(read);
    ASSERT_EQ(o.status, VRB_OK) << o.error;
    EXPECT_EQ(o.out.checksum, count * uint64_t(0xffffffffu)); // modulo 2^64
}

std::vector<BuiltModule> operation_modules = vrb::test::built_modules();
INSTANTIATE_TEST_SUITE_P(Built, GpuOperations, testing::ValuesIn(operation_modules),
                         [](const testing::TestParamInfo<BuiltModule> &info) { return info.param.name; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuOperations);

} // namespace
