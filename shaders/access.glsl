// How shaders read their stream operands src1 (binding 1) and, with USES_SRC2, src2
// (binding 2), and write dst (binding 0), in one of two ways that move the same bits:
//   default     storage buffers, one access of the element's width per element: what
//               GPU programs use, and what GPUs run at full speed;
//   CPU_TUNED   for CPU implementations such as llvmpipe, which turn every storage
//               buffer access into a loop over SIMD lanes with a bounds check per lane
//               and 32-bit component: operands are read from uniform texel buffers
//               (vector gathers there), and elements of 8 and 16 bytes are written as
//               64-bit components, half as many of those per-lane stores.
//
// Every operand is `restrict` (the ABI's operands of one operation do not overlap), so
// a compiler may issue the loads of later elements before the stores of earlier ones.
#ifndef VRAMBENCH_ACCESS_GLSL
#define VRAMBENCH_ACCESS_GLSL

#ifdef CPU_TUNED

#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

ELEM texel_element(uvec4 t)
{
#if WIDTH == 1
    return t.x;
#elif WIDTH == 2
    return t.xy;
#else
    return t;
#endif
}

layout(binding = 1) uniform usamplerBuffer src1_texels;
#define LOAD_SRC1(i) texel_element(texelFetch(src1_texels, int(i)))
#ifdef USES_SRC2
layout(binding = 2) uniform usamplerBuffer src2_texels;
#define LOAD_SRC2(i) texel_element(texelFetch(src2_texels, int(i)))
#endif

#ifdef USES_DST
#if WIDTH == 1
layout(std430, binding = 0) writeonly restrict buffer Dst { uint dst[]; };
void store_dst(uint i, uint v) { dst[i] = v; }
#elif WIDTH == 2
layout(std430, binding = 0) writeonly restrict buffer Dst { uint64_t dst[]; };
void store_dst(uint i, uvec2 v) { dst[i] = pack64(v); }
#else
layout(std430, binding = 0) writeonly restrict buffer Dst { u64vec2 dst[]; };
void store_dst(uint i, uvec4 v) { dst[i] = u64vec2(pack64(v.xy), pack64(v.zw)); }
#endif
#endif

#else

layout(std430, binding = 1) readonly restrict buffer Src1 { ELEM src1[]; };
#define LOAD_SRC1(i) src1[i]
#ifdef USES_SRC2
layout(std430, binding = 2) readonly restrict buffer Src2 { ELEM src2[]; };
#define LOAD_SRC2(i) src2[i]
#endif

#ifdef USES_DST
layout(std430, binding = 0) writeonly restrict buffer Dst { ELEM dst[]; };
void store_dst(uint i, ELEM v) { dst[i] = v; }
#endif

#endif

#endif
