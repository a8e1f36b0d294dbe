#version 450
// CHASE by device address (backends/vulkan/chase_links.hpp): one invocation follows
// the links from the first, each step one load through a buffer reference whose value
// is the next step's address, so nothing but the load lies between two loads (the
// index walk, chase.comp, adds an add and a clamp). An index outside the chain was made
// a link to the trap, which links to itself: a walk that strays ends there, and only
// then are its indices walked again, checked, to report the first stray as the index
// walk does. The final step loads the index itself: it is the answer, whatever it is.
// A long chain runs as several dispatches; the position is handed over in the result
// slot as (answer or stray, stray found, link address).
#extension GL_EXT_control_flow_attributes : require
#define WIDTH 1
#include "common.glsl"
#include "chain.glsl"
#include "link.glsl"

layout(std430, binding = 1) buffer Results { uvec4 results[]; };

#define FLAG_FIRST 1u
#define FLAG_LAST 4u
// Steps between two checks of the loop's count: its compare and branch are issued
// once per eight dependent loads.
#define UNROLL 8u

uint index_at(uint j) { return chain_load(add64(pc.chain_base, j)); }

void main()
{
    uint64_t at = packUint2x32(pc.link_base);
    if ((pc.flags & FLAG_FIRST) == 0u) {
        const uvec4 state = results[pc.slot];
        if (state.y != 0u) return; // a dispatch before found the stray
        at = packUint2x32(state.zw);
    }
    const bool last = (pc.flags & FLAG_LAST) != 0u;
    const uint follows = pc.count - (last ? 1u : 0u);
    const uint64_t from = at;
    uint left = follows;
    for (; left >= UNROLL; left -= UNROLL) {
        [[unroll]] for (uint k = 0u; k < UNROLL; ++k) at = Link(at).next;
    }
    for (; left > 0u; --left)
        at = Link(at).next;

    if (at == packUint2x32(pc.link_trap)) {
        uint j = link_index(from);
        for (uint s = 0u; s < follows; ++s) {
            const uint next = index_at(j);
            if (!less64(add64(pc.chain_base, next), pc.chain_limit)) {
                results[pc.slot] = uvec4(next, 1u, 0u, 0u);
                return;
            }
            j = next;
        }
        // The links led to the trap but the indices do not: the chain changed under the walk.
        results[pc.slot] = uvec4(0xffffffffu, 1u, 0u, 0u);
        return;
    }
    results[pc.slot] = uvec4(last ? index_at(link_index(at)) : 0u, 0u, unpackUint2x32(at));
}
