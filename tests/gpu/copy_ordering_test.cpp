// The CUDA/HIP backend's host code, built against a recording stand-in of its runtime
// layer: every upload to and download from device memory is a copy queued on the
// device's own stream and waited for on that stream, so no copy races the kernels
// queued there and none returns before its bytes have landed.
#include "backend.hpp"
#include "standin_journal.hpp"

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
        context_ = vrb::gpu::create_context(nullptr);
        device_ = vrb::gpu::open_device(*context_, 0);
        standin::clear();
    }

    // The copies and waits since the last clear, in order.
    static std::vector<standin::Record> copies_and_waits()
    {
        std::vector<standin::Record> out;
        for (const standin::Record &r : standin::journal())
            if (r.call != Call::stream_create && r.call != Call::other) out.push_back(r);
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
    auto buffer = vrb::gpu::allocate_buffer(*device_, vrb::gpu::kind_device, 256);
    const std::vector<uint8_t> data = counting(64, 1);
    standin::clear();

    vrb::gpu::upload(*buffer, 16, data.data(), data.size());

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
    auto buffer = vrb::gpu::allocate_buffer(*device_, vrb::gpu::kind_device, 256);
    const std::vector<uint8_t> data = counting(256, 7);
    std::memcpy(buffer->device_address, data.data(), data.size());
    std::vector<uint8_t> read(100, 0);
    standin::clear();

    vrb::gpu::download(*buffer, 40, read.data(), read.size());

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
    auto buffer = vrb::gpu::allocate_buffer(*device_, vrb::gpu::kind_device, 4096);
    const std::vector<uint8_t> data = counting(4096, 3);
    std::vector<uint8_t> read(4096, 0);
    standin::clear();

    for (uint64_t offset = 0; offset < 4096; offset += 1024)
        vrb::gpu::upload(*buffer, offset, data.data() + offset, 1024);
    vrb::gpu::download(*buffer, 0, read.data(), read.size());

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
        auto buffer = vrb::gpu::allocate_buffer(*device_, kind, 128);
        const std::vector<uint8_t> data = counting(128, 9);
        std::vector<uint8_t> read(128, 0);
        standin::clear();
        vrb::gpu::upload(*buffer, 0, data.data(), data.size());
        vrb::gpu::download(*buffer, 0, read.data(), read.size());
        EXPECT_TRUE(copies_and_waits().empty()) << "kind " << kind << ": " << standin::describe(standin::journal()[0]);
        EXPECT_EQ(read, data) << "kind " << kind;
    }
}

TEST_F(CopyOrdering, ACopyThatDoesNotFitItsBufferIsRefusedBeforeTheRuntimeSeesIt)
{
    auto buffer = vrb::gpu::allocate_buffer(*device_, vrb::gpu::kind_device, 64);
    std::vector<uint8_t> data(65, 1);
    standin::clear();
    EXPECT_THROW(vrb::gpu::upload(*buffer, 0, data.data(), data.size()), vrb::plugin::Failure);
    EXPECT_THROW(vrb::gpu::download(*buffer, 8, data.data(), 57), vrb::plugin::Failure);
    EXPECT_TRUE(copies_and_waits().empty());
}

} // namespace
