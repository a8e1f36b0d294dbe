#version 450
// FILL (and WRITE, which is FILL with the random pattern): lane l of the operation
// receives vrb_pattern(pattern, l, seed).
#include "common.glsl"
#include "pattern.glsl"

#define USES_DST
#include "access.glsl"

ELEM pattern_element(uvec2 lane)
{
#if WIDTH == 1
    return vrb_pattern(pc.pattern, lane, pc.seed);
#elif WIDTH == 2
    return uvec2(vrb_pattern(pc.pattern, lane, pc.seed), vrb_pattern(pc.pattern, add64(lane, 1u), pc.seed));
#else
    return uvec4(vrb_pattern(pc.pattern, lane, pc.seed), vrb_pattern(pc.pattern, add64(lane, 1u), pc.seed),
                 vrb_pattern(pc.pattern, add64(lane, 2u), pc.seed), vrb_pattern(pc.pattern, add64(lane, 3u), pc.seed));
#endif
}

void main()
{
    FOR_EACH_ELEMENT(i)
        store_dst(pc.dst_base + i, pattern_element(add64(pc.first_lane, i * uint(WIDTH))));
}
