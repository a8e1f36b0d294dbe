// Buffers made of many segments (each its own VkBuffer and allocation), as a 16 GiB
// buffer is on a real GPU. VRAMBENCH_VULKAN_SEGMENT_BYTES shrinks segments to 64 KiB so
// buffers of a few hundred KiB cross many boundaries at every offset; staging is forced
// with a chunk that is not a power of two, so uploads and downloads cross chunks too.
#include "backend.hpp"
#include "exercise.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

namespace vrb::vulkan::test {
namespace {

class SegmentedBuffers : public ::testing::Test {
  protected:
    static void SetUpTestSuite()
    {
        const ScopedEnv segments("VRAMBENCH_VULKAN_SEGMENT_BYTES", "65536");
        const ScopedEnv staging("VRAMBENCH_VULKAN_STAGING", "always");
        const ScopedEnv chunk("VRAMBENCH_VULKAN_STAGING_BYTES", "12288");
        context_ = new ContextPtr(open_context());
        for (const char *tuning : kTunings) {
            const ScopedEnv mode("VRAMBENCH_VULKAN_SHADERS", tuning);
            devices_[tuning] = *context_ ? open_device(context_->get()) : DevicePtr();
        }
    }
    static void TearDownTestSuite()
    {
        devices_.clear();
        delete context_;
    }
    void SetUp() override
    {
        for (const char *tuning : kTunings)
            ASSERT_TRUE(devices_[tuning]);
    }
    static vrb_device *device(const char *tuning = "gpu") { return devices_[tuning].get(); }

    static ContextPtr *context_;
    static std::map<std::string, DevicePtr> devices_;
};

ContextPtr *SegmentedBuffers::context_ = nullptr;
std::map<std::string, DevicePtr> SegmentedBuffers::devices_;

TEST_F(SegmentedBuffers, round_trip_bytes_across_segments_and_staging_chunks)
{
    const uint64_t bytes = 300'001, offset = 65'533;
    std::vector<uint8_t> data(bytes);
    for (uint64_t i = 0; i < bytes; ++i)
        data[i] = static_cast<uint8_t>(vrb_pattern_random(i, 5));
    BufferPtr buffer = alloc(device(), 0, offset + bytes + 3);
    upload(buffer.get(), offset, data);
    EXPECT_EQ(download<uint8_t>(buffer.get(), offset, bytes), data);
    EXPECT_EQ(download<uint8_t>(buffer.get(), offset + 1000, 70'000),
              std::vector<uint8_t>(data.begin() + 1000, data.begin() + 71'000));
}

TEST_F(SegmentedBuffers, run_every_operation_across_segment_boundaries)
{
    for (const char *tuning : kTunings) {
        SCOPED_TRACE(std::string(tuning) + " shaders");
        for (vrb_op_kind kind : {VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE, VRB_OP_ADD, VRB_OP_TRIAD,
                                 VRB_OP_DOT, VRB_OP_STRIDED_READ, VRB_OP_GATHER, VRB_OP_FILL, VRB_OP_CHECK}) {
            for (uint32_t bytes : {4u, 16u}) {
                // About 600 KiB per operand, 7 elements off every segment boundary.
                Exercise e{kind, bytes, 600'000 / bytes + 3, 7, 5};
                if (kind == VRB_OP_STRIDED_READ) e.count /= 5;
                exercise(device(tuning), 0, e);
            }
        }
    }
    // A chain over seven segments, followed for more steps than one dispatch takes.
    exercise(device(), 0, Exercise{VRB_OP_CHASE, 4, 100'000, 3});
}

TEST_F(SegmentedBuffers, strided_reads_whose_stride_spans_whole_segments)
{
    // Every element in its own segment: one piece per element.
    for (const char *tuning : kTunings)
        exercise(device(tuning), 0, Exercise{VRB_OP_STRIDED_READ, 16, 9, 1, 65536 / 16 + 1});
}

TEST_F(SegmentedBuffers, gather_beyond_the_reachable_segments_is_refused_as_unsupported)
{
    // 17 segments of source: more than a gather can bind at once.
    BufferPtr source = alloc(device(), 0, 17 * 65536);
    BufferPtr index = alloc(device(), 0, 64);
    vrb_operation op = vrb::make_operation(VRB_OP_GATHER, 16, 4);
    op.src1 = {source.get(), 0};
    op.src2 = {index.get(), 0};
    const vrb_status status = try_run(device(), op);
    EXPECT_EQ(status, VRB_ERROR_UNSUPPORTED) << why(status);
    // From a later offset the reach starts later and fits.
    const std::vector<uint32_t> zeros(4, 0);
    upload(index.get(), 0, zeros);
    op.src1.offset = 65536;
    EXPECT_EQ(try_run(device(), op), VRB_OK) << why(try_run(device(), op));
}

} // namespace
} // namespace vrb::vulkan::test
