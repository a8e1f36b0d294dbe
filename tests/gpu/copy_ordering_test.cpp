// The CUDA/HIP backend's host code, built against a recording stand-in of its runtime
// layer: every upload to and download from device memory is a copy queued on the
// device's own stream and waited for on that stream, so no copy races the kernels
// queued there and none returns before its bytes have landed.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

namespace {

namespace standin = vrb::test::standin;
using standin::Call;

class CopyOrdering : public testing::Test {
  protected:
    void SetUp() override
    {
        context_ = std::make_unique<vrb_context>(nullptr);
        device_ = context_->open(0);
        standin::clear();
    }

    // The copies and waits since the last clear, in order.
    static std::vector<standin::Record> copies_and_waits()
    {
        std::vector<standin::Record> out;
        for (const standin::Record &r : standin::journal())
            if (r.call == Call::legacy_copy || r.call == Call::async_copy || r.call == Call::async_memset ||
                r.call == Call::stream_synchronize)
                out.push_back(r);
        return out;
    }

    static std::vector<uint8_t> counting(std::size_t n, uint8_t from)
    {
        std::vector<uint8_t> v(n);
        std::iota(v.begin(), v.end(), from);
        return v;
    }

    std::unique_ptr<vrb_context> context_;
    std::unique_ptr<vrb_device> device_;
};

TEST_F(CopyOrdering, AnUploadToDeviceMemoryIsQueuedOnTheDeviceStreamAndWaitedForThere)
{
    auto buffer = device_->alloc(vrb::gpu::kind_device, 256);
    const std::vector<uint8_t> data = counting(64, 1);
    standin::clear();

    buffer->upload(16, data.data(), data.size());

    const auto calls = copies_and_waits();
    ASSERT_EQ(calls.size(), 2u) << (calls.empty() ? "no call" : standin::describe(calls[0]));
    EXPECT_EQ(calls[0].call, Call::async_copy) << standin::describe(calls[0]);
    EXPECT_EQ(calls[0].stream, device_->stream.get());
    EXPECT_EQ(calls[0].kind, int(standinMemcpyHostToDevice));
    EXPECT_EQ(calls[0].dst, static_cast<char *>(buffer->device_address) + 16);
    EXPECT_EQ(calls[0].src, data.data());
    EXPECT_EQ(calls[0].bytes, data.size());
    EXPECT_EQ(calls[1].call, Call::stream_synchronize) << standin::describe(calls[1]);
    EXPECT_EQ(calls[1].stream, device_->stream.get());
    // The stand-in lands a queued copy only when its stream is waited for.
    EXPECT_EQ(std::memcmp(static_cast<char *>(buffer->device_address) + 16, data.data(), data.size()), 0);
}

TEST_F(CopyOrdering, ADownloadFromDeviceMemoryIsQueuedOnTheDeviceStreamAndLandsBeforeItReturns)
{
    auto buffer = device_->alloc(vrb::gpu::kind_device, 256);
    const std::vector<uint8_t> data = counting(256, 7);
    std::memcpy(buffer->device_address, data.data(), data.size());
    std::vector<uint8_t> read(100, 0);
    standin::clear();

    buffer->download(40, read.data(), read.size());

    const auto calls = copies_and_waits();
    ASSERT_EQ(calls.size(), 2u) << (calls.empty() ? "no call" : standin::describe(calls[0]));
    EXPECT_EQ(calls[0].call, Call::async_copy) << standin::describe(calls[0]);
    EXPECT_EQ(calls[0].stream, device_->stream.get());
    EXPECT_EQ(calls[0].kind, int(standinMemcpyDeviceToHost));
    EXPECT_EQ(calls[0].src, static_cast<char *>(buffer->device_address) + 40);
    EXPECT_EQ(calls[0].dst, read.data());
    EXPECT_EQ(calls[0].bytes, read.size());
    EXPECT_EQ(calls[1].call, Call::stream_synchronize) << standin::describe(calls[1]);
    EXPECT_EQ(calls[1].stream, device_->stream.get());
    EXPECT_EQ(std::memcmp(read.data(), data.data() + 40, read.size()), 0);
}

TEST_F(CopyOrdering, EveryCopyOfARoundTripUsesTheStreamTheKernelsRunOn)
{
    auto buffer = device_->alloc(vrb::gpu::kind_device, 4096);
    const std::vector<uint8_t> data = counting(4096, 3);
    std::vector<uint8_t> read(4096, 0);
    standin::clear();

    for (uint64_t offset = 0; offset < 4096; offset += 1024)
        buffer->upload(offset, data.data() + offset, 1024);
    buffer->download(0, read.data(), read.size());

    const auto calls = copies_and_waits();
    ASSERT_EQ(calls.size(), 10u);
    for (std::size_t i = 0; i < calls.size(); i += 2) {
        EXPECT_EQ(calls[i].call, Call::async_copy) << "call " << i << ": " << standin::describe(calls[i]);
        EXPECT_EQ(calls[i].stream, device_->stream.get()) << "call " << i;
        EXPECT_EQ(calls[i + 1].call, Call::stream_synchronize) << "call " << i + 1;
        EXPECT_EQ(calls[i + 1].stream, calls[i].stream) << "call " << i + 1;
    }
    EXPECT_EQ(read, data);
}

TEST_F(CopyOrdering, HostMemoryKindsAreCopiedByTheHostWithoutTheRuntime)
{
    for (uint32_t kind : {uint32_t(vrb::gpu::kind_pinned), uint32_t(vrb::gpu::kind_pageable)}) {
        auto buffer = device_->alloc(kind, 128);
        const std::vector<uint8_t> data = counting(128, 9);
        std::vector<uint8_t> read(128, 0);
        standin::clear();
        buffer->upload(0, data.data(), data.size());
        buffer->download(0, read.data(), read.size());
        EXPECT_TRUE(copies_and_waits().empty()) << "kind " << kind << ": " << standin::describe(standin::journal()[0]);
        EXPECT_EQ(read, data) << "kind " << kind;
    }
}

TEST_F(CopyOrdering, ACopyThatDoesNotFitItsBufferIsRefusedBeforeTheRuntimeSeesIt)
{
    // Through the module's table, whose adapter checks every range.
    const vrb_plugin_table &t = vrb::test::standin_table();
    vrb_buffer *buffer = nullptr;
    ASSERT_EQ(t.buffer_alloc(reinterpret_cast<vrb_device *>(device_.get()), vrb::gpu::kind_device, 64, &buffer), VRB_OK)
        << t.last_error();
    std::vector<uint8_t> data(65, 1);
    standin::clear();
    EXPECT_EQ(t.buffer_upload(buffer, 0, data.data(), data.size()), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(t.buffer_download(buffer, 8, data.data(), 57), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(t.last_error()).find("runs past the end"), std::string::npos) << t.last_error();
    EXPECT_TRUE(copies_and_waits().empty());
    t.buffer_free(buffer);
}

} // namespace
