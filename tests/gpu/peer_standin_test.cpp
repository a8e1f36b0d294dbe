// The CUDA/HIP module's peers (peer_query, ABI 1.5), through its own table, against the
// recording stand-in (standin/): what it answers for devices that reach each other and
// for devices that do not, that it turns peer access on once and off when the device
// closes, that a copy between two devices' memory is the runtime's peer copy on the
// running device's stream naming both devices, and that a runtime's failure is an error
// naming the pair.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace standin = vrb::test::standin;
using standin::Call;

std::vector<standin::Record> calls_of(Call call)
{
    std::vector<standin::Record> out;
    for (const standin::Record &r : standin::journal())
        if (r.call == call) out.push_back(r);
    return out;
}

// The (device, peer) pairs of the journal's calls of `call`, in order.
std::vector<std::pair<int, int>> pairs_of(Call call)
{
    std::vector<std::pair<int, int>> out;
    for (const standin::Record &r : calls_of(call))
        out.emplace_back(r.device, r.peer);
    return out;
}

class StandinPeers : public testing::Test {
  protected:
    void SetUp() override
    {
        standin::set_device_count(2);
        standin::set_peer_access(true);
        ASSERT_EQ(t.init(nullptr, &context_), VRB_OK) << t.last_error();
        ASSERT_EQ(t.device_open(context_, 0, &first_), VRB_OK) << t.last_error();
        ASSERT_EQ(t.device_open(context_, 1, &second_), VRB_OK) << t.last_error();
        standin::clear();
    }
    void TearDown() override
    {
        for (vrb_buffer *b : buffers_)
            t.buffer_free(b);
        close_devices();
        if (context_) t.shutdown(context_);
        standin::set_device_count(1);
        standin::set_peer_access(true);
    }
    void close_devices()
    {
        if (second_) t.device_close(second_);
        if (first_) t.device_close(first_);
        first_ = second_ = nullptr;
    }

    uint32_t peer_bits(vrb_device *device, vrb_device *peer)
    {
        uint32_t bits = 0xdead;
        EXPECT_EQ(t.peer_query(device, peer, &bits), VRB_OK) << t.last_error();
        return bits;
    }
    vrb_buffer *device_buffer(vrb_device *device, uint64_t bytes)
    {
        vrb_buffer *b = nullptr;
        EXPECT_EQ(t.buffer_alloc(device, vrb::gpu::kind_device, bytes, &b), VRB_OK) << t.last_error();
        buffers_.push_back(b);
        return b;
    }
    static vrb_operation transfer(vrb_buffer *dst, vrb_buffer *src, uint64_t bytes)
    {
        vrb_operation op{};
        op.struct_size = sizeof op;
        op.kind = VRB_OP_TRANSFER;
        op.element_bytes = 1;
        op.count = bytes;
        op.stride = 1;
        op.dst = {dst, 0};
        op.src1 = {src, 0};
        return op;
    }
    // Runs `op` once. A real run returns once its stop event is reached, its copies done;
    // the stand-in's events are not, so its streams are waited for here.
    vrb_status run(vrb_device *device, const vrb_operation &op)
    {
        double seconds = 0;
        vrb_op_output out{};
        out.struct_size = sizeof out;
        const vrb_status status = t.run(device, &op, 1, &seconds, &out);
        (void)vrb::gpu::stream_synchronize(device->stream.get());
        (void)vrb::gpu::stream_synchronize(device->second_stream.get());
        return status;
    }

    const vrb_plugin_table &t = vrb::test::standin_table();
    vrb_context *context_ = nullptr;
    vrb_device *first_ = nullptr;
    vrb_device *second_ = nullptr;
    std::vector<vrb_buffer *> buffers_;
};

TEST_F(StandinPeers, TheTableOffersPeerQuery)
{
    EXPECT_NE(t.peer_query, nullptr);
}

TEST_F(StandinPeers, EachDeviceNamesTheLinkTheRuntimeReportsToEveryOtherAndNoneWhereItReportsNone)
{
    auto property = [&](uint32_t index, const std::string &key) {
        vrb_device_info info{};
        info.struct_size = sizeof info;
        EXPECT_EQ(t.device_describe(context_, index, &info), VRB_OK) << t.last_error();
        for (uint32_t i = 0; i < info.property_count; ++i)
            if (key == info.properties[i].key) return std::string(info.properties[i].value);
        return std::string("absent");
    };
    standin::set_link_between("xGMI, 1 hop");
    EXPECT_EQ(property(0, "link_to_device_1"), "xGMI, 1 hop");
    EXPECT_EQ(property(1, "link_to_device_0"), "xGMI, 1 hop");
    EXPECT_EQ(property(0, "link_to_device_0"), "absent");
    standin::set_link_between("");
    EXPECT_EQ(property(0, "link_to_device_1"), "absent");
}

TEST_F(StandinPeers, DevicesThatReachEachOtherCopyAndReadInPlaceWithAccessTurnedOnOnceByTheAskingDevice)
{
    EXPECT_EQ(peer_bits(first_, second_), uint32_t(VRB_PEER_COPY | VRB_PEER_ACCESS));
    EXPECT_EQ(peer_bits(first_, second_), uint32_t(VRB_PEER_COPY | VRB_PEER_ACCESS));
    EXPECT_EQ(peer_bits(second_, first_), uint32_t(VRB_PEER_COPY | VRB_PEER_ACCESS));

    // Asked once per ordered pair; each turned on by the device that reads.
    EXPECT_EQ(calls_of(Call::can_access_peer).size(), 2u);
    EXPECT_EQ(pairs_of(Call::enable_peer_access), (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));

    // Closing a device turns off what it turned on, and nothing else.
    standin::clear();
    close_devices();
    EXPECT_EQ(pairs_of(Call::disable_peer_access), (std::vector<std::pair<int, int>>{{1, 0}, {0, 1}}));
}

TEST_F(StandinPeers, DevicesThatDoNotReachEachOtherCopyThroughHostMemoryAndTheirKernelsRefuseThePeersMemory)
{
    standin::set_peer_access(false);
    EXPECT_EQ(peer_bits(first_, second_), uint32_t(VRB_PEER_COPY | VRB_PEER_THROUGH_HOST));
    EXPECT_TRUE(calls_of(Call::enable_peer_access).empty());

    vrb_buffer *own = device_buffer(first_, 4096);
    vrb_buffer *peers = device_buffer(second_, 4096);
    vrb_operation read{};
    read.struct_size = sizeof read;
    read.kind = VRB_OP_READ;
    read.element_bytes = 4;
    read.count = 1024;
    read.stride = 1;
    read.src1 = {peers, 0};
    EXPECT_EQ(run(first_, read), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(t.last_error()).find("no peer access"), std::string::npos) << t.last_error();
    // Copies are still the runtime's to stage.
    EXPECT_EQ(run(first_, transfer(peers, own, 4096)), VRB_OK) << t.last_error();
    EXPECT_EQ(calls_of(Call::peer_copy).size(), 1u);
}

TEST_F(StandinPeers, ACopyBetweenTwoDevicesIsOnePeerCopyOnTheRunningDevicesStreamNamingBothDevices)
{
    ASSERT_EQ(peer_bits(first_, second_) & VRB_PEER_COPY, uint32_t(VRB_PEER_COPY));
    vrb_buffer *own = device_buffer(first_, 8192);
    vrb_buffer *peers = device_buffer(second_, 8192);
    std::vector<uint8_t> data(8192);
    std::iota(data.begin(), data.end(), uint8_t(3));
    ASSERT_EQ(t.buffer_upload(own, 0, data.data(), data.size()), VRB_OK) << t.last_error();
    standin::clear();

    ASSERT_EQ(run(first_, transfer(peers, own, 8192)), VRB_OK) << t.last_error();
    const auto copies = calls_of(Call::peer_copy);
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_TRUE(calls_of(Call::async_copy).empty()) << "a copy between devices went to the plain copy";
    EXPECT_EQ(copies[0].stream, first_->stream.get());
    EXPECT_EQ(copies[0].device, 1); // the destination's
    EXPECT_EQ(copies[0].peer, 0);   // the source's
    EXPECT_EQ(copies[0].dst, peers->device_address);
    EXPECT_EQ(copies[0].src, own->device_address);
    EXPECT_EQ(copies[0].bytes, 8192u);

    std::vector<uint8_t> landed(8192);
    ASSERT_EQ(t.buffer_download(peers, 0, landed.data(), landed.size()), VRB_OK) << t.last_error();
    EXPECT_EQ(landed, data);

    // Both ways at once: the way back on the device's second stream, also a peer copy.
    vrb_operation both = transfer(peers, own, 4096);
    vrb_buffer *back = device_buffer(first_, 4096);
    both.src2 = {peers, 4096};
    both.dst2 = {back, 0};
    standin::clear();
    ASSERT_EQ(run(first_, both), VRB_OK) << t.last_error();
    const auto two = calls_of(Call::peer_copy);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[1].stream, first_->second_stream.get());
    EXPECT_EQ(two[1].device, 0);
    EXPECT_EQ(two[1].peer, 1);
}

TEST_F(StandinPeers, ACopyWithinOneDeviceStaysThePlainCopy)
{
    vrb_buffer *a = device_buffer(first_, 4096);
    vrb_buffer *b = device_buffer(first_, 4096);
    standin::clear();
    ASSERT_EQ(run(first_, transfer(b, a, 4096)), VRB_OK) << t.last_error();
    EXPECT_TRUE(calls_of(Call::peer_copy).empty());
    EXPECT_EQ(calls_of(Call::async_copy).size(), 1u);
}

TEST_F(StandinPeers, ARuntimeThatFailsTheQuestionIsADeviceErrorNamingThePairAndIsAskedAgainNextTime)
{
    standin::fail_next(Call::can_access_peer);
    uint32_t bits = 0xdead;
    EXPECT_NE(t.peer_query(first_, second_, &bits), VRB_OK);
    EXPECT_NE(std::string(t.last_error()).find("devices 0 and 1"), std::string::npos) << t.last_error();
    // A failure is not remembered as an answer.
    EXPECT_EQ(peer_bits(first_, second_), uint32_t(VRB_PEER_COPY | VRB_PEER_ACCESS));
}

TEST_F(StandinPeers, AFailureToTurnAccessOnIsAnErrorAndLeavesNothingOn)
{
    standin::fail_next(Call::enable_peer_access);
    uint32_t bits = 0xdead;
    EXPECT_NE(t.peer_query(first_, second_, &bits), VRB_OK);
    EXPECT_NE(std::string(t.last_error()).find("turning on peer access between devices 0 and 1"), std::string::npos)
        << t.last_error();
    standin::clear();
    close_devices();
    EXPECT_TRUE(calls_of(Call::disable_peer_access).empty());
}

TEST_F(StandinPeers, ADeviceIsNotItsOwnPeer)
{
    uint32_t bits = 0;
    EXPECT_EQ(t.peer_query(first_, first_, &bits), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(calls_of(Call::can_access_peer).empty());
}

} // namespace
