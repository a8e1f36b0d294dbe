// Patterns an element at a time, for the shaders that write (fill.comp) and check
// (check.comp) whole buffers: what a lane holds is pattern.glsl's; here is how to make
// an element's WIDTH lanes cheaply enough that a CPU device's fill and check run at its
// memory's speed rather than its ALUs'. Needs common.glsl and pattern.glsl.
#ifndef VRAMBENCH_PATTERN_ELEMENTS_GLSL
#define VRAMBENCH_PATTERN_ELEMENTS_GLSL

// The element whose first lane is `lane`: one branch on the (uniform) pattern per
// element, not one per lane.
ELEM pattern_element(uint pattern, uvec2 lane, uint seed)
{
    ELEM e;
    switch (pattern) {
    case VRB_PATTERN_ZEROS:
        e = ELEM(0u);
        break;
    case VRB_PATTERN_ONES:
        e = ELEM(0xffffffffu);
        break;
#if WIDTH == 1
    case VRB_PATTERN_WALKING_ONES:
        e = 1u << (lane.x & 31u);
        break;
    case VRB_PATTERN_ADDRESS:
        e = lane.x ^ lane.y;
        break;
    default:
        e = vrb_pattern_random(lane, seed);
        break;
#else
    case VRB_PATTERN_WALKING_ONES:
        // first_lane and every element start at a multiple of WIDTH: no lane wraps 32.
        for (uint k = 0u; k < uint(WIDTH); ++k)
            e[k] = 1u << ((lane.x + k) & 31u);
        break;
    case VRB_PATTERN_ADDRESS:
        for (uint k = 0u; k < uint(WIDTH); ++k) {
            const uvec2 l = add64(lane, k);
            e[k] = l.x ^ l.y;
        }
        break;
    default:
        for (uint k = 0u; k < uint(WIDTH); ++k)
            e[k] = vrb_pattern_random(add64(lane, k), seed);
        break;
#endif
    }
    return e;
}

// The random pattern over a walk that comes back to the same place in its block every
// `places` elements: its step in lanes is a multiple of the block (places 1: a GPU's
// grid-wide stride) or divides it (a CPU-tuned walk, stepping by the workgroup). Each
// place's block lanes are hashed once, into registers (the walk's inner loop unrolled
// over MOST_PLACES, so they are indexed by constants), and an element then costs one
// whitening word and an XOR per lane. 8 places cover the CPU-tuned 16-byte walk; more
// unrolled stores make llvmpipe's compile of the shader slower than the work it saves.
#define MOST_PLACES 8u

// 0: no cycle short enough, every lane is hashed.
uint places_of(uint walk_step)
{
    const uint lanes = walk_step * uint(WIDTH);
    if (lanes % VRB_PATTERN_BLOCK_LANES == 0u) return 1u;
    if (VRB_PATTERN_BLOCK_LANES % lanes == 0u && VRB_PATTERN_BLOCK_LANES / lanes <= MOST_PLACES)
        return VRB_PATTERN_BLOCK_LANES / lanes;
    return 0u;
}

// The block lanes of the element at `lane` (an element's lanes never straddle two
// blocks: first_lane is a multiple of WIDTH).
ELEM placed_lanes(uvec2 lane, uint seed)
{
#if WIDTH == 1
    return vrb_pattern_block_lane(lane.x & (VRB_PATTERN_BLOCK_LANES - 1u), seed);
#else
    ELEM placed;
    for (uint k = 0u; k < uint(WIDTH); ++k)
        placed[k] = vrb_pattern_block_lane((lane.x + k) & (VRB_PATTERN_BLOCK_LANES - 1u), seed);
    return placed;
#endif
}

// The block lanes of each of the `places` places a walk from walk_first by walk_step
// comes back to.
void place_walk(out ELEM placed[MOST_PLACES], uvec2 first_lane, uint seed, uint walk_first, uint walk_step,
                uint places)
{
    [[unroll]] for (uint k = 0u; k < MOST_PLACES; ++k)
        if (k < places) placed[k] = placed_lanes(add64(first_lane, (walk_first + k * walk_step) * uint(WIDTH)), seed);
}

// The random element at `lane` from its place's block lanes.
ELEM placed_element(ELEM placed, uvec2 lane)
{
    return placed ^ ELEM(vrb_pattern_whitening_of(lane));
}

#endif
