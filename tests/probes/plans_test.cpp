#include "chain.hpp"
#include "curve_plan.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <gtest/gtest.h>

#include <set>

TEST(CurvePlans, RefuseAnEmptySizeRange)
{
    EXPECT_THROW(vrb::geometric_sizes(0, 1 << 20, 2, 4096), vrb::UsageError);
    EXPECT_THROW(vrb::geometric_sizes(1 << 20, 4096, 2, 4096), vrb::UsageError);
    EXPECT_THROW(vrb::geometric_sizes(4096, 1 << 20, 1.0, 4096), vrb::UsageError);
}

TEST(StreamPlans, RefuseASizeBelowOneSixteenByteElementAndTakeOneOfSixteen)
{
    const vrb::DeviceRecord device;
    vrb::ProbeOptions options;
    options.size = 8;
    try {
        (void)vrb::plan_stream(device, options);
        ADD_FAILURE() << "an 8-byte stream array was planned";
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("--size 8 is too small: at least 16 bytes"), std::string::npos)
            << e.what();
    }
    options.size = 16;
    EXPECT_EQ(vrb::plan_stream(device, options).bytes, 16u);
}

TEST(CurvePlans, GrowGeometricallyAndEndExactlyAtTheLargestSize)
{
    const auto sizes = vrb::geometric_sizes(4096, 1 << 20, 2, 4096);
    ASSERT_EQ(sizes.size(), 9u);
    EXPECT_EQ(sizes.front(), 4096u);
    EXPECT_EQ(sizes.back(), 1u << 20);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        EXPECT_EQ(sizes[i], 2 * sizes[i - 1]);
}

TEST(CurvePlans, RefuseAZeroStrideAndOneThatLeavesASingleElement)
{
    EXPECT_THROW(vrb::check_stride(0, 1024), vrb::UsageError);
    EXPECT_THROW(vrb::check_stride(1024, 1024), vrb::UsageError);
    EXPECT_NO_THROW(vrb::check_stride(1023, 1024));
}

TEST(CurvePlans, RefuseAnOffsetPastTheBufferOrOffTheElement)
{
    EXPECT_THROW(vrb::check_offset(4096, 4, 4096), vrb::UsageError);
    EXPECT_THROW(vrb::check_offset(6, 4, 4096), vrb::UsageError);
    EXPECT_NO_THROW(vrb::check_offset(256, 4, 4096));
    try {
        vrb::check_offset(8192, 4, 4096);
    } catch (const vrb::UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("past the end"), std::string::npos) << e.what();
    }
}

TEST(CurvePlans, RefuseAMemoryKindTheDeviceLacks)
{
    vrb::DeviceRecord device;
    device.id = "test:0";
    vrb_memory_kind_info kind{};
    kind.flags = VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PINNED;
    std::snprintf(kind.name, sizeof kind.name, "pinned");
    device.kinds.push_back(kind);
    EXPECT_THROW(vrb::check_kind(device, 3, 0), vrb::RunError);
    EXPECT_THROW(vrb::check_kind(device, 0, VRB_MEMORY_DEVICE_ACCESS), vrb::RunError);
    EXPECT_NO_THROW(vrb::check_kind(device, 0, VRB_MEMORY_PINNED));
}

TEST(CurvePlans, StridesReachAPageAndOffsetsReach256Bytes)
{
    for (auto [suite, economy] :
         {std::pair{vrb::Suite::quick, 0u}, std::pair{vrb::Suite::standard, 0u},
          std::pair{vrb::Suite::standard, vrb::most_economy}, std::pair{vrb::Suite::full, 0u}}) {
        vrb::ProbeOptions options;
        options.suite = suite;
        options.economy = economy;
        const auto strides = vrb::stride_plan(options, 4);
        EXPECT_EQ(strides.front(), 1u);
        EXPECT_GE(strides.back() * 4, 4096u);
        const auto offsets = vrb::alignment_plan(options, 4);
        EXPECT_EQ(offsets.front(), 0u);
        EXPECT_GE(offsets.back(), 256u);
        for (uint64_t o : offsets)
            EXPECT_EQ(o % 4, 0u);
    }
}

TEST(Chain, IsOneCycleThroughEveryNode)
{
    const auto next = vrb::sattolo_cycle(1000, 7);
    std::set<uint32_t> seen;
    uint32_t node = 0;
    for (int i = 0; i < 1000; ++i) {
        seen.insert(node);
        node = next[node];
    }
    EXPECT_EQ(node, 0u);
    EXPECT_EQ(seen.size(), 1000u);
    EXPECT_EQ(vrb::sattolo_cycle(1000, 7), next); // the same chain every time
}

TEST(Chain, LanesPointAtTheNextNodesLane)
{
    const auto chain = vrb::spread_chain(8, 8, 1);
    std::vector<uint32_t> lanes(128);
    vrb::chain_lanes(chain, 16, 0, lanes);
    EXPECT_EQ(lanes[0], chain.line[chain.next[0]] * 16);
    EXPECT_EQ(vrb::chase_end(chain, 16, 8), 0u);
    EXPECT_EQ(vrb::chase_end(chain, 16, 1), chain.line[chain.next[0]] * 16u);
}

TEST(Chain, SpreadsFewNodesOverTheWholeSpanInDistinctLines)
{
    const uint64_t lines = 1ull << 24; // a 1 GiB span of 64-byte lines
    const auto chain = vrb::spread_chain(lines, 4096, 3);
    EXPECT_EQ(chain.line.front(), 0u);
    for (std::size_t k = 1; k < chain.line.size(); ++k)
        EXPECT_LT(chain.line[k - 1], chain.line[k]);
    EXPECT_GE(chain.line.back(), lines - lines / 4096);
    EXPECT_EQ(vrb::chase_end(chain, 16, 4096), 0u); // one lap through every node
    EXPECT_THROW(vrb::spread_chain(4, 8, 1), std::invalid_argument);
}

TEST(Chain, WrittenInPiecesIsTheSameAsWrittenWhole)
{
    const auto chain = vrb::spread_chain(1024, 100, 9);
    std::vector<uint32_t> whole(1024 * 16), pieces(1024 * 16);
    vrb::chain_lanes(chain, 16, 0, whole);
    for (uint64_t first = 0; first < pieces.size(); first += 1000)
        vrb::chain_lanes(chain, 16, first,
                         std::span(pieces).subspan(first, std::min<std::size_t>(1000, pieces.size() - first)));
    EXPECT_EQ(whole, pieces);
    // Following the lanes from lane 0 walks the chain the host walks.
    uint64_t lane = 0;
    for (int step = 0; step < 37; ++step)
        lane = whole[lane];
    EXPECT_EQ(lane, vrb::chase_end(chain, 16, 37));
}

TEST(CurvePlans, RefuseAChaseSizePastWhat32BitLinksReach)
{
    vrb::DeviceRecord device;
    vrb::ProbeOptions options;
    options.size = 32ull << 30;
    EXPECT_THROW(vrb::plan_chase(device, options), vrb::UsageError);
    options.size = 1ull << 30;
    EXPECT_EQ(vrb::plan_chase(device, options).to, 1ull << 30);
    // An --llc that would ask for more is cut to the limit, and says so.
    options.size.reset();
    device.llc_option = 8ull << 30;
    const auto plan = vrb::plan_chase(device, options);
    EXPECT_LT(plan.to, 16ull << 30);
    EXPECT_EQ(plan.reason, "limit");
}
