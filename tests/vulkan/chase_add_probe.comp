#version 450
// Not a vrambench shader: the walk by address of shaders/chase_addresses.comp with an add
// on its dependent path, in every step or only once per unrolled round (ADD_PER_ROUND),
// which the SPIR-V check of the chase must refuse (chase_spirv_test.cpp).
#extension GL_EXT_control_flow_attributes : require
#define WIDTH 1
#include "common.glsl"
#include "link.glsl"

layout(std430, binding = 1) buffer Results { uvec4 results[]; };

void main()
{
    uint64_t at = packUint2x32(pc.link_base);
    for (uint left = pc.count; left >= 8u; left -= 8u) {
#ifdef ADD_PER_ROUND
        [[unroll]] for (uint k = 0u; k < 8u; ++k) at = Link(at).next;
        at += uint64_t(pc.link_shift);
#else
        [[unroll]] for (uint k = 0u; k < 8u; ++k) at = Link(at).next + uint64_t(pc.link_shift);
#endif
    }
    results[pc.slot] = uvec4(unpackUint2x32(at), 0u, 0u);
}
