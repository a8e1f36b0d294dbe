// Pageable memory a CUDA/HIP device reads in place, against the recording stand-in of
// the runtime (standin/, whose device reports pageable memory access): the driver is
// asked to keep it in host memory and map it for the device, so that with HMM a kernel
// does not move the pages it touches into device memory and report device memory's
// speed as pageable memory's; a driver that refuses the advice leaves it usable.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

namespace standin = vrb::test::standin;
using standin::Call;

class PageableMemory : public testing::Test {
  protected:
    void SetUp() override
    {
        context_ = std::make_unique<vrb_context>(nullptr);
        device_ = context_->open(0);
        standin::clear();
    }

    static std::vector<standin::Record> advice()
    {
        std::vector<standin::Record> out;
        for (const standin::Record &r : standin::journal())
            if (r.call == Call::mem_advise_host_resident) out.push_back(r);
        return out;
    }

    std::unique_ptr<vrb_context> context_;
    std::unique_ptr<vrb_device> device_;
};

TEST_F(PageableMemory, TheDeviceReadsInPlaceIsAdvisedToStayInHostMemoryMappedForTheDevice)
{
    ASSERT_TRUE(device_->kinds[vrb::gpu::kind_pageable].flags & VRB_MEMORY_DEVICE_ACCESS);
    auto buffer = device_->alloc(vrb::gpu::kind_pageable, 8192);
    const auto calls = advice();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].bytes, 8192u);
    EXPECT_EQ(calls[0].dst, buffer->host);
    EXPECT_EQ(calls[0].device, 0);
    EXPECT_EQ(buffer->device_address, buffer->host);
}

TEST_F(PageableMemory, DeviceAndPinnedMemoryGetNoAdvice)
{
    auto device_memory = device_->alloc(vrb::gpu::kind_device, 4096);
    auto pinned = device_->alloc(vrb::gpu::kind_pinned, 4096);
    EXPECT_TRUE(advice().empty());
}

TEST_F(PageableMemory, ADriverThatRefusesTheAdviceLeavesTheMemoryUsable)
{
    standin::fail_next(Call::mem_advise_host_resident);
    auto buffer = device_->alloc(vrb::gpu::kind_pageable, 256);
    ASSERT_EQ(advice().size(), 1u);
    EXPECT_TRUE(advice()[0].failed);
    const std::vector<uint8_t> data(256, 0x5a);
    std::vector<uint8_t> read(256, 0);
    buffer->upload(0, data.data(), data.size());
    buffer->download(0, read.data(), read.size());
    EXPECT_EQ(read, data);
    EXPECT_EQ(buffer->device_address, buffer->host);
}

} // namespace
