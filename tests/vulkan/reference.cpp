#include "reference.hpp"

#include <vrambench/pattern.h>

namespace vrb::vulkan::test {

std::vector<uint32_t> random_lanes(uint64_t lanes, uint32_t seed)
{
    std::vector<uint32_t> v(lanes);
    for (uint64_t i = 0; i < lanes; ++i)
        v[i] = vrb_pattern_random(i, seed);
    return v;
}

uint64_t element_sum(const std::vector<uint32_t> &lanes, uint64_t element, uint32_t width)
{
    uint64_t s = 0;
    for (uint32_t k = 0; k < width; ++k)
        s += lanes[element * width + k];
    return s;
}

std::vector<uint32_t> expected_stream(vrb_op_kind kind, const std::vector<uint32_t> &src1,
                                      const std::vector<uint32_t> &src2, uint32_t scalar)
{
    std::vector<uint32_t> dst(src1.size());
    for (std::size_t i = 0; i < src1.size(); ++i) {
        switch (kind) {
        case VRB_OP_COPY: dst[i] = src1[i]; break;
        case VRB_OP_SCALE: dst[i] = scalar * src1[i]; break;
        case VRB_OP_ADD: dst[i] = src1[i] + src2[i]; break;
        case VRB_OP_TRIAD: dst[i] = src1[i] + scalar * src2[i]; break;
        default: break;
        }
    }
    return dst;
}

uint64_t expected_sum(vrb_op_kind kind, const std::vector<uint32_t> &src1, const std::vector<uint32_t> &src2,
                      uint64_t count, uint32_t width, uint64_t stride)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; ++i) {
        switch (kind) {
        case VRB_OP_READ: sum += element_sum(src1, i, width); break;
        case VRB_OP_STRIDED_READ: sum += element_sum(src1, i * stride, width); break;
        case VRB_OP_DOT:
            for (uint32_t k = 0; k < width; ++k)
                sum += uint32_t(src1[i * width + k] * src2[i * width + k]);
            break;
        default: break;
        }
    }
    return sum;
}

uint64_t expected_gather(const std::vector<uint32_t> &src1, const std::vector<uint32_t> &index, uint32_t width)
{
    uint64_t sum = 0;
    for (uint32_t j : index)
        sum += element_sum(src1, j, width);
    return sum;
}

} // namespace vrb::vulkan::test
