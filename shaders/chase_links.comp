#version 450
// Makes CHASE's chain of indices into links (backends/vulkan/chase_links.hpp), in two
// passes over the slots first_lane .. first_lane + count:
//   flags 0  asks whether the element at an even index 2 s holds an odd index inside the
//            chain, which rules out links at the indices' own bytes (link_shift 2):
//            results[slot].x becomes 1 if so. Elements at odd indices do not count: a walk
//            from index 0 that only ever loads even indices never reads them
//   flags 1  writes link s, for index s << (3 - link_shift): the address of the link of
//            the index the chain holds there, or the trap's for an index outside the
//            chain; the first dispatch also points the trap at itself
#define WIDTH 1
#include "common.glsl"
#include "chain.glsl"
#include "link.glsl"

layout(std430, binding = 1) buffer Results { uvec4 results[]; };

#define FLAG_WRITE_LINKS 1u

void main()
{
    WALK_RANGE;
    const uint64_t first = packUint2x32(pc.first_lane);
    const uint64_t inside = packUint2x32(sub64(pc.chain_limit, pc.chain_base)); // indices the chain holds
    const uint64_t base = packUint2x32(pc.link_base);
    const uint64_t trap = packUint2x32(pc.link_trap);
    if ((pc.flags & FLAG_WRITE_LINKS) == 0u) {
        bool odd = false;
        FOR_EACH_ELEMENT(i) {
            const uint v = chain_load(add64(pc.chain_base, unpackUint2x32((first + i) * 2ul)));
            odd = odd || (uint64_t(v) < inside && (v & 1u) != 0u);
        }
        if (odd) results[pc.slot].x = 1u;
        return;
    }
    FOR_EACH_ELEMENT(i) {
        const uint64_t s = first + i;
        const uint next = chain_load(add64(pc.chain_base, unpackUint2x32(s << (3u - pc.link_shift))));
        Link(base + s * 8ul).next = uint64_t(next) < inside ? base + (uint64_t(next) << pc.link_shift) : trap;
    }
    if (first == 0ul && gl_GlobalInvocationID.x == 0u) Link(trap).next = trap;
}
