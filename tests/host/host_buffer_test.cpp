// Where the host backend's buffers lie, on its own classes (no module loaded).
#include "host_module.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace vrb::host {
namespace {

TEST(HostBuffers, NoTwoBuffersStartAMultipleOf128MiBApartNorWithin64KiBOfOne)
{
    // 128 MiB buffers: mappings of that size land a multiple of it apart, where an AMD
    // core's L1 confuses the two buffers' lines (host_backend.cpp, next_stagger).
    HostContext ctx(nullptr);
    auto device = ctx.open(0);
    constexpr uint64_t bytes = uint64_t{128} << 20, period = uint64_t{128} << 20, clear = uint64_t{64} << 10;
    auto a = device->alloc(0, bytes), b = device->alloc(0, bytes), c = device->alloc(0, bytes);
    const HostBuffer *buffers[] = {a.get(), b.get(), c.get()};
    for (const HostBuffer *x : buffers)
        for (const HostBuffer *y : buffers) {
            if (x == y) continue;
            const auto from = reinterpret_cast<uintptr_t>(x->bytes_at(0)),
                       to = reinterpret_cast<uintptr_t>(y->bytes_at(0));
            EXPECT_EQ(from % 4096, 0u);
            const uint64_t apart = (to - from) % period; // modulo 2^64, then the period: a power of two
            EXPECT_GE(apart, clear) << "buffers at " << from << " and " << to;
            EXPECT_LE(apart, period - clear) << "buffers at " << from << " and " << to;
        }
}

} // namespace
} // namespace vrb::host
