#version 450
// CHASE: one invocation follows j = src1[j] from j = 0, each load depending on the one
// before, so the time per step is the memory's latency. A long chain runs as several
// dispatches (drivers bound the length of one loop and of one dispatch); the position
// is handed over in the result slot. Only an index about to be followed must lie
// inside the buffer; the final one is the answer, whatever it is. Where the device offers
// buffer device addresses, chase_addresses.comp walks instead, one load a step.
#define WIDTH 1
#include "common.glsl"
#include "chain.glsl"

layout(std430, binding = 1) buffer Results { uvec4 results[]; };

void main()
{
    uint j = 0u;
    uint fault = 0u;
    if ((pc.flags & 1u) == 0u) {
        uvec4 state = results[pc.slot];
        j = state.x;
        fault = state.y;
    }
#if defined(CHAIN_SINGLE)
    // One segment, whose elements a 32-bit index reaches. Between two loads there is
    // only the add that makes an index an address and a clamp into the chain: a compare
    // and branch there would be issued before the next load and lengthen every step on
    // a GPU (backends/cuda/chase_walk.hpp). The first index that had to be clamped is
    // kept, to be reported instead of the answer.
    const uint base = pc.chain_base.x;
    const uint last = pc.chain_limit.x - base - 1u;
    bool strayed = fault != 0u;
    uint stray = j;
    if (!strayed) {
        for (uint s = 0u; s < pc.count; ++s) {
            stray = strayed ? stray : j;
            strayed = strayed || j > last;
            j = chain[0].data[base + min(j, last)];
        }
    }
    results[pc.slot] = strayed ? uvec4(stray, 1u, 0u, 0u) : uvec4(j, 0u, 0u, 0u);
#else
    for (uint s = 0u; s < pc.count && fault == 0u; ++s) {
        uvec2 p = add64(pc.chain_base, j);
        if (!less64(p, pc.chain_limit)) {
            fault = 1u;
            break;
        }
        j = chain_load(p);
    }
    results[pc.slot] = uvec4(j, fault, 0u, 0u);
#endif
}
