// A run of many passes over a working set that fits in a cache does the work of every
// pass: the time grows with the passes. A backend that launched once per pass would
// pass this too; one whose compiler hoisted or dropped repeated passes (each pass's
// loads the same, only the last answer kept) would not.
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>

namespace {

struct Module {
    const char *name;
    const char *file;
};

void PrintTo(const Module &m, std::ostream *os)
{
    *os << m.name;
}

class PassesCost : public ::testing::TestWithParam<Module> {};

// The quickest of several runs: a busy machine only ever lengthens a run.
double quickest(vrb::Device &device, const vrb_operation &op)
{
    const auto out = device.run(op, 3);
    return *std::min_element(out.seconds.begin(), out.seconds.end());
}

} // namespace

TEST_P(PassesCost, FourTimesThePassesOverAnInCacheWorkingSetTakeAtLeastTwiceAsLong)
{
#if defined(VRAMBENCH_SANITIZED)
    GTEST_SKIP() << "cache and latency shapes are not measured in a sanitizer build: instrumentation changes them";
#endif
    vrb::BackendEntry entry = vrb::open_backend(GetParam().file);
    if (entry.state != vrb::BackendEntry::State::available || entry.backend->device_count() == 0)
        GTEST_SKIP() << GetParam().name << " unavailable: " << entry.reason;
    auto device = entry.backend->open(0);
    const uint32_t kind = device->find_kind(VRB_MEMORY_DEVICE_ACCESS);
    constexpr uint64_t bytes = 32 << 10; // in any L1 or L2, past any one vector register file
    auto src = device->allocate(kind, bytes);
    auto dst = device->allocate(kind, bytes);
    vrb_operation fill = vrb::make_operation(VRB_OP_FILL, 4, bytes / 4);
    fill.pattern = VRB_PATTERN_RANDOM;
    fill.dst = {src->handle(), 0};
    device->run(fill, 1);
    for (vrb_op_kind kind_op : {VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY}) {
        SCOPED_TRACE("operation " + std::to_string(kind_op));
        vrb_operation op = vrb::make_operation(kind_op, 16, bytes / 16);
        if (kind_op != VRB_OP_WRITE) op.src1 = {src->handle(), 0};
        if (kind_op != VRB_OP_READ) op.dst = {dst->handle(), 0};
        // Enough passes that a run's fixed cost (a dispatch, waking workers: a scheduler
        // tick of several ms on a loaded machine) is small beside them on every backend.
        uint32_t base = 2000;
        for (op.passes = base; base < (1u << 20) && quickest(*device, op) < 0.01; op.passes = base)
            base *= 2;
        // Rounds of both, interleaved: load that comes and goes then slows either side
        // alike, and the quickest run of each is the one it left alone.
        double some = 1e30, more = 1e30;
        for (int round = 0; round < 4; ++round) {
            op.passes = base;
            some = std::min(some, quickest(*device, op));
            op.passes = 4 * base;
            more = std::min(more, quickest(*device, op));
        }
        EXPECT_GE(more, 2 * some) << base << " passes: " << some << " s, " << 4 * base << " passes: " << more << " s";
    }
}

INSTANTIATE_TEST_SUITE_P(HostAndVulkan, PassesCost,
                         ::testing::Values(Module{"host", VRAMBENCH_HOST_MODULE}
#ifdef VRAMBENCH_VULKAN_MODULE
                                           ,
                                           Module{"vulkan", VRAMBENCH_VULKAN_MODULE}
#endif
                                           ),
                         [](const auto &info) { return std::string(info.param.name); });
