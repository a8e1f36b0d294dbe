// Every operation of the vocabulary, at every element width and at sizes that are and
// are not multiples of a workgroup (1, 3, 1000 elements and a few MiB), on every memory
// kind a shader can use, with the shaders written for GPUs and those tuned for CPU
// implementations, compared with the host recomputation.
#include "backend.hpp"
#include "exercise.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace vrb::vulkan::test {
namespace {

using Param = std::tuple<vrb_op_kind, uint32_t>;

class EveryOperation : public ::testing::TestWithParam<Param> {};

std::vector<Exercise> exercises_of(const Param &p)
{
    const auto [kind, bytes] = p;
    std::vector<Exercise> list;
    for (uint64_t count : {uint64_t(1), uint64_t(3), uint64_t(1000), (uint64_t(3) << 20) / bytes + 5}) {
        Exercise e{kind, bytes, count};
        if (kind == VRB_OP_CHASE && count > 1000) e.count = 100'000; // several dispatches' worth of steps
        e.offset_elements = count == 3 ? 0 : 5;
        list.push_back(e);
    }
    return list;
}

TEST_P(EveryOperation, matches_the_host_recomputation_at_every_size_on_every_memory_kind)
{
    for (const char *tuning : kTunings) {
        SCOPED_TRACE(std::string(tuning) + " shaders");
        vrb_device *device = shared_device(tuning);
        ASSERT_NE(device, nullptr);
        for (const Kind &kind : memory_kinds(device)) {
            if (!(kind.info.flags & VRB_MEMORY_DEVICE_ACCESS)) continue;
            SCOPED_TRACE(std::string("memory kind ") + kind.info.name);
            for (const Exercise &e : exercises_of(GetParam()))
                exercise(device, kind.index, e);
        }
    }
}

std::string name_of(const ::testing::TestParamInfo<Param> &info)
{
    const std::string e = describe(Exercise{std::get<0>(info.param), std::get<1>(info.param), 0});
    // "copy_of_0_elements_of_16_bytes" -> "copy_of_16_byte_elements"
    const std::string op = e.substr(0, e.find("_of_"));
    return op + "_of_" + std::to_string(std::get<1>(info.param)) + "_byte_elements";
}

INSTANTIATE_TEST_SUITE_P(Vocabulary, EveryOperation,
                         ::testing::Combine(::testing::Values(VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE,
                                                              VRB_OP_ADD, VRB_OP_TRIAD, VRB_OP_DOT, VRB_OP_STRIDED_READ,
                                                              VRB_OP_GATHER, VRB_OP_FILL, VRB_OP_CHECK),
                                            ::testing::Values(4u, 8u, 16u)),
                         name_of);

INSTANTIATE_TEST_SUITE_P(Chase, EveryOperation,
                         ::testing::Combine(::testing::Values(VRB_OP_CHASE), ::testing::Values(4u)), name_of);

} // namespace
} // namespace vrb::vulkan::test
