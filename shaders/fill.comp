#version 450
// FILL (and WRITE, which is FILL with the random pattern): lane l of the operation
// receives vrb_pattern(pattern, l, seed).
#include "common.glsl"
#include "pattern.glsl"

#define USES_DST
#include "access.glsl"

ELEM pattern_element(uint pattern, uvec2 lane, uint seed)
{
#if WIDTH == 1
    return vrb_pattern(pattern, lane, seed);
#elif WIDTH == 2
    return uvec2(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, add64(lane, 1u), seed));
#else
    return uvec4(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, add64(lane, 1u), seed),
                 vrb_pattern(pattern, add64(lane, 2u), seed), vrb_pattern(pattern, add64(lane, 3u), seed));
#endif
}

void main()
{
    // Read before the loop, as in stream.comp.
    const uint dst_base = pc.dst_base, pattern = pc.pattern, seed = pc.seed;
    const uvec2 first_lane = pc.first_lane;
    FOR_EACH_ELEMENT(i)
        store_dst(dst_base + i, pattern_element(pattern, add64(first_lane, i * uint(WIDTH)), seed));
}
