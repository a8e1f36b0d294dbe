// Buffers past 2^32 bytes and lane numbers past 2^32 on a real GPU: a 16 GiB buffer is
// several allocations and several bindings, and every operation must still see one
// buffer. Needs about 40 GiB of device memory, so it runs only when
// VRAMBENCH_VULKAN_LARGE_TESTS=1 (scripts on GPU machines set it).
#include "backend.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

namespace vrb::vulkan::test {
namespace {

constexpr uint64_t GiB = uint64_t(1) << 30;

// sum of vrb_pattern_random(lane, seed) over lanes [first, first + count), on all cores.
uint64_t pattern_sum(uint64_t first, uint64_t count, uint32_t seed)
{
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    std::vector<uint64_t> partial(n, 0);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t)
        threads.emplace_back([&, t] {
            uint64_t s = 0;
            for (uint64_t l = first + count * t / n; l < first + count * (t + 1) / n; ++l)
                s += vrb_pattern_random(l, seed);
            partial[t] = s;
        });
    for (auto &t : threads)
        t.join();
    uint64_t s = 0;
    for (uint64_t p : partial)
        s += p;
    return s;
}

class LargeBuffers : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (!std::getenv("VRAMBENCH_VULKAN_LARGE_TESTS")) GTEST_SKIP() << "set VRAMBENCH_VULKAN_LARGE_TESTS=1 on a GPU";
        device = shared_device();
        ASSERT_NE(device, nullptr);
        for (const Kind &k : memory_kinds(device)) {
            const bool local = k.info.flags & VRB_MEMORY_DEVICE_LOCAL;
            if (local && k.info.max_allocation_bytes >= 40 * GiB && !kind) kind = k.index + 1;
            if ((k.info.flags & VRB_MEMORY_HOST_VISIBLE) && !(k.info.flags & VRB_MEMORY_DEVICE_LOCAL) && !host)
                host = k.index + 1;
        }
        if (!kind) GTEST_SKIP() << "no device-local heap of 40 GiB";
    }
    vrb_device *device = nullptr;
    uint32_t kind = 0, host = 0; // index + 1; 0: none
};

TEST_F(LargeBuffers, a_16_gib_buffer_is_filled_checked_read_copied_and_transferred_across_its_segments)
{
    const uint64_t bytes = 16 * GiB + 4096;
    const uint64_t lanes = bytes / 4;
    const uint32_t seed = 77;
    BufferPtr a = alloc(device, kind - 1, bytes), b = alloc(device, kind - 1, bytes);
    ASSERT_TRUE(a && b);

    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 16, bytes / 16);
    fill.dst = {a.get(), 0};
    fill.pattern = VRB_PATTERN_RANDOM;
    fill.seed = seed;
    run(device, fill);

    vrb_operation check = vrb::make_operation(VRB_OP_CHECK, 16, bytes / 16);
    check.src1 = {a.get(), 0};
    check.pattern = VRB_PATTERN_RANDOM;
    check.seed = seed;
    EXPECT_EQ(run(device, check).output.mismatches, 0u);

    // One wrong lane past 2^32: found, and named by its 64-bit number.
    const uint64_t bad = lanes - 3;
    const uint32_t wrong = vrb_pattern_random(bad, seed) ^ 1u;
    upload(a.get(), bad * 4, &wrong, 4);
    RunResult r = run(device, check);
    EXPECT_EQ(r.output.mismatches, 1u);
    EXPECT_EQ(r.output.first_mismatch, bad);
    const uint32_t right = vrb_pattern_random(bad, seed);
    upload(a.get(), bad * 4, &right, 4);

    vrb_operation read = vrb::make_operation(VRB_OP_READ, 4, lanes);
    read.src1 = {a.get(), 0};
    EXPECT_EQ(run(device, read).output.checksum, pattern_sum(0, lanes, seed));

    vrb_operation copy = vrb::make_operation(VRB_OP_COPY, 16, bytes / 16);
    copy.src1 = {a.get(), 0};
    copy.dst = {b.get(), 0};
    run(device, copy);
    check.src1 = {b.get(), 0};
    EXPECT_EQ(run(device, check).output.mismatches, 0u);

    // The copy engine over the whole buffer, then a piece of it into host memory.
    vrb_operation transfer = vrb::make_operation(VRB_OP_TRANSFER, 1, bytes);
    transfer.src1 = {b.get(), 0};
    transfer.dst = {a.get(), 0};
    run(device, transfer);
    check.src1 = {a.get(), 0};
    EXPECT_EQ(run(device, check).output.mismatches, 0u);
    if (host) {
        BufferPtr h = alloc(device, host - 1, 2 * GiB);
        transfer.count = 2 * GiB;
        transfer.src1 = {a.get(), 15 * GiB};
        transfer.dst = {h.get(), 0};
        run(device, transfer);
        const auto got = download<uint32_t>(h.get(), 2 * GiB - 4096, 1024);
        for (uint64_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], vrb_pattern_random((17 * GiB - 4096) / 4 + i, seed)) << "lane " << i;
    }

    // GATHER and CHASE reach every segment: the random pattern read as indices.
    std::vector<uint32_t> index(1 << 20);
    for (uint64_t i = 0; i < index.size(); ++i)
        index[i] = vrb_pattern_random(i, 5) & ((1u << 30) - 1);
    BufferPtr ib = alloc(device, kind - 1, index.size() * 4);
    upload(ib.get(), 0, index);
    vrb_operation gather = vrb::make_operation(VRB_OP_GATHER, 16, index.size());
    gather.src1 = {a.get(), 0};
    gather.src2 = {ib.get(), 0};
    uint64_t want = 0;
    for (uint32_t j : index)
        for (uint64_t k = 0; k < 4; ++k)
            want += vrb_pattern_random(uint64_t(j) * 4 + k, seed);
    EXPECT_EQ(run(device, gather).output.checksum, want);

    vrb_operation chase = vrb::make_operation(VRB_OP_CHASE, 4, 200'000);
    chase.src1 = {a.get(), 0};
    uint32_t j = 0;
    for (uint64_t s = 0; s < chase.count; ++s)
        j = vrb_pattern_random(j, seed);
    EXPECT_EQ(run(device, chase).output.checksum, j);
}

} // namespace
} // namespace vrb::vulkan::test
