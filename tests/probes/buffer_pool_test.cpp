// The run's buffer pool, on a mock device with 64 MiB of memory that refuses more.
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/registry.hpp>

#include <gtest/gtest.h>

using namespace vrb;

using vrb::MiB;

namespace {

class BufferPoolTest : public ::testing::Test {
  protected:
    void SetUp() override
    {
        entry_ = open_backend(MOCK_SMALL_MEMORY_PATH);
        ASSERT_EQ(entry_.state, BackendEntry::State::available) << entry_.reason;
        device_ = entry_.backend->open(0);
    }
    BackendEntry entry_;
    std::unique_ptr<Device> device_;
};

} // namespace

TEST_F(BufferPoolTest, LendsAReturnedBufferAgainForARequestThatFits)
{
    vrb_buffer *first = nullptr;
    {
        auto buffer = device_->acquire(0, 16 * MiB);
        first = buffer->handle();
    }
    EXPECT_EQ(device_->pool().idle_count(), 1u);
    auto again = device_->acquire(0, 8 * MiB);
    EXPECT_EQ(again->handle(), first);
    EXPECT_EQ(again->bytes(), 8 * MiB) << "a lease reports the bytes asked for, not the buffer's";
    EXPECT_EQ(device_->pool().created(), 1u);
    EXPECT_EQ(device_->pool().reused(), 1u);
}

TEST_F(BufferPoolTest, MakesANewBufferRatherThanLendOneOverFourTimesASmallRequest)
{
    vrb_buffer *large = nullptr;
    {
        auto buffer = device_->acquire(0, 32 * MiB);
        large = buffer->handle();
    }
    auto small = device_->acquire(0, 4 * MiB);
    EXPECT_NE(small->handle(), large);
    EXPECT_EQ(device_->pool().idle_count(), 1u) << "the large buffer stays for a large request";
}

TEST_F(BufferPoolTest, ReplacesSmallerIdleBuffersOfTheKindWhenItMakesALargerOne)
{
    device_->acquire(0, 8 * MiB).reset();
    device_->acquire(0, 16 * MiB).reset();
    EXPECT_EQ(device_->pool().idle_count(), 1u);
    EXPECT_EQ(device_->pool().idle_bytes(), 16 * MiB);
    // Only possible when the 8 and 16 MiB buffers are gone: 64 MiB is all there is.
    EXPECT_NO_THROW(device_->acquire(0, 64 * MiB));
}

TEST_F(BufferPoolTest, EmptiesItselfBeforeAnAllocationThatMeasuresCapacity)
{
    device_->acquire(0, 48 * MiB).reset();
    ASSERT_EQ(device_->pool().idle_bytes(), 48 * MiB);
    std::unique_ptr<Buffer> all;
    EXPECT_NO_THROW(all = device_->allocate(0, 64 * MiB));
    EXPECT_EQ(device_->pool().idle_count(), 0u);
    all.reset();
    EXPECT_EQ(device_->pool().idle_count(), 0u) << "a buffer from allocate() is freed, not pooled";
}

TEST_F(BufferPoolTest, RetriesOnceWithTheIdleBuffersFreedWhenTheDriverRunsOutOfMemory)
{
    device_->acquire(0, 60 * MiB).reset();
    // 8 MiB is small beside the idle 60 MiB, so a new buffer is made, and only fits
    // once the idle one is freed.
    std::unique_ptr<Buffer> small;
    EXPECT_NO_THROW(small = device_->acquire(0, 8 * MiB));
    EXPECT_EQ(device_->pool().idle_count(), 0u);
}

TEST_F(BufferPoolTest, PassesOnAnOutOfMemoryThatEmptyingItCannotCure)
{
    auto held = device_->acquire(0, 60 * MiB);
    try {
        device_->acquire(0, 8 * MiB);
        FAIL() << "64 MiB cannot hold 68";
    } catch (const BackendError &e) {
        EXPECT_EQ(e.status(), VRB_ERROR_OUT_OF_MEMORY);
        EXPECT_NE(std::string(e.what()).find("mock memory is full"), std::string::npos) << e.what();
    }
}

TEST_F(BufferPoolTest, FreesALeaseThatOutlivesItsDeviceRatherThanReturnItToAPoolThatIsGone)
{
    auto lease = device_->acquire(0, 40 * MiB);
    device_.reset();
    lease.reset(); // under AddressSanitizer, a return to the destroyed pool would be caught here
    device_ = entry_.backend->open(0);
    EXPECT_NO_THROW(device_->allocate(0, 64 * MiB)) << "the 40 MiB were given back to the driver";
}

TEST_F(BufferPoolTest, FreesItsIdleBuffersBeforeANewOneWouldTakeItPastItsLimit)
{
    device_->pool().set_limit(32 * MiB);
    device_->acquire(0, 32 * MiB).reset(); // idle, kept for a large request
    auto small = device_->acquire(0, 4 * MiB);
    EXPECT_EQ(device_->pool().idle_count(), 0u) << "32 MiB idle and 4 MiB leased would pass the 32 MiB limit";
    EXPECT_EQ(device_->pool().leased_bytes(), 4 * MiB);
    small.reset();
    EXPECT_EQ(device_->pool().leased_bytes(), 0u);
    EXPECT_EQ(device_->pool().idle_bytes(), 4 * MiB);
}

TEST_F(BufferPoolTest, MakesRoomForMemoryHeldOutsideItByFreeingItsIdleBuffersOnlyPastItsLimit)
{
    device_->pool().set_limit(32 * MiB);
    device_->acquire(0, 16 * MiB).reset();
    device_->pool().make_room(16 * MiB);
    EXPECT_EQ(device_->pool().idle_bytes(), 16 * MiB) << "16 MiB idle and 16 MiB outside reach the limit, not past it";
    device_->pool().make_room(17 * MiB);
    EXPECT_EQ(device_->pool().idle_count(), 0u) << "16 MiB idle and 17 MiB outside would pass the 32 MiB limit";
}
