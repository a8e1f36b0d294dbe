#version 450
// Evaluates shaders/pattern.glsl and the 64-bit helpers of shaders/common.glsl for
// given lanes, so a test can compare them with pattern.h at any lane number, including
// those past 2^32 that no buffer on a CPU device can reach.
#include "common.glsl"
#include "pattern.glsl"

layout(std430, binding = 0) readonly buffer Cases { uvec4 cases[]; };     // lane low, lane high, seed, pattern
layout(std430, binding = 1) writeonly buffer Answers { uvec4 answers[]; }; // pattern, lane + 0xffffffff, lane >> 7

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    uvec4 c = cases[i];
    answers[i] = uvec4(vrb_pattern(c.w, c.xy, c.z), add64(c.xy, 0xffffffffu), shr64(c.xy, 7u).x);
}
