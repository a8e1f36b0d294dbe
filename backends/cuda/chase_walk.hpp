// The pointer chase's walk, the same code in the chase kernels and in their host tests.
//
// A step's address is the value the step before it loaded, and the time per step is the
// latency asked for only if nothing else lies on that path. A GPU issues a warp's
// instructions in order, so a compare and branch on each loaded index (to stop before
// following one outside the chain) would wait for the load and hold back the next one:
// some ten cycles a step, a third of an L1 hit; even forming an address from an index
// (a clamp, a widening multiply, an add) costs 6-12% of an L1 hit.
//
// So the timed walk follows links: before the runs, the module turns the ABI's chain of
// 32-bit indices into a chain of 64-bit addresses in memory of the chain's own kind
// (chase_link), and a step is one load whose value is the next step's address
// (chase_links). An index outside the chain becomes a link to a trap, a link to itself
// that lies outside every slot, so a walk that strays stays in the chain's memory and
// ends at the trap: the end is checked once, off the timed path, and a walk that ended
// there is walked again over the indices, checked, to report the first stray exactly.
//
// Where the indices allow, a link lies at the very byte its index does (slot i at byte
// 4 i: every index followed is even, as with one node per line), so the chain touches
// the same lines and pages as the ABI's; otherwise at byte 8 i.
//
// chase_clamped is the walk of the indices themselves, kept for a module that cannot
// make the links (memory of the chain's kind it cannot allocate).
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#include "gpu_runtime.hpp"
#define VRB_CHASE_FN __host__ __device__ inline
#else
#define VRB_CHASE_FN inline
#endif

namespace vrb::gpu {

// Steps taken between two checks of the loop's count, so its compare and branch are
// issued once per eight dependent loads.
inline constexpr unsigned kChaseUnroll = 8;

struct ChaseEnd {
    uint32_t last = 0;    // the index the final step loaded: the chase's answer, never followed
    bool strayed = false; // some index that was to be followed lay outside the chain
};

// The largest index a walk may follow in a chain of `limit` elements. Indices are
// 32-bit, so past 2^32 elements every index is inside.
VRB_CHASE_FN uint32_t chase_last_index(uint64_t limit)
{
    return limit == 0 ? 0u : limit > 0xffffffffull ? 0xffffffffu : uint32_t(limit - 1);
}

// `steps` dependent loads from chain[0]; an index past `last_index` is followed as
// last_index and noted. The same loads as an unclamped walk whenever nothing strays.
VRB_CHASE_FN ChaseEnd chase_clamped(const uint32_t *chain, uint64_t steps, uint32_t last_index)
{
    ChaseEnd end;
    if (steps == 0) return end;
    uint32_t j = 0;
    bool strayed = false;
    auto step = [&] {
        const uint32_t next = chain[j];
        strayed |= next > last_index;
        j = next < last_index ? next : last_index;
    };
    uint64_t follow = steps - 1; // the final load's value is the answer, not an address
    for (; follow >= kChaseUnroll; follow -= kChaseUnroll)
        for (unsigned k = 0; k < kChaseUnroll; ++k)
            step();
    for (; follow > 0; --follow)
        step();
    end.last = chain[j];
    end.strayed = strayed;
    return end;
}

// Where an unclamped walk would first leave the chain: the step that loaded the index
// (counted from 1), the index, and the index it was loaded from.
struct ChaseStray {
    uint64_t step = 0;
    uint32_t index = 0, from = 0;
};

// Walks as chase_clamped does but checks every index before following it; false when
// none lies outside.
VRB_CHASE_FN bool chase_first_stray(const uint32_t *chain, uint64_t steps, uint64_t limit, ChaseStray &stray)
{
    uint32_t j = 0;
    for (uint64_t step = 0; step + 1 < steps; ++step) {
        const uint32_t next = chain[j];
        if (next >= limit) {
            stray = {step + 1, next, j};
            return true;
        }
        j = next;
    }
    return false;
}

// How links are laid out: link s, an 8-byte address, stands for index s << (3 - shift)
// and lies at byte 8 s, that is at byte index << shift; shift is 2 (links where the
// indices lie: every index inside the chain is even) or 3. The trap follows the last link.
struct ChaseLinks {
    unsigned shift = 3;
    uint64_t slots = 0; // links, the trap not counted
    uint64_t bytes() const { return (slots + 1) * sizeof(uint64_t); }
};

VRB_CHASE_FN ChaseLinks chase_links_for(uint64_t limit, bool all_even)
{
    ChaseLinks l;
    l.shift = all_even ? 2u : 3u;
    l.slots = all_even ? (limit + 1) / 2 : limit;
    return l;
}

// Whether index `value` of a chain of `limit` indices rules out links at the indices'
// own bytes: an odd index inside the chain. Indices outside lead to the trap either way.
VRB_CHASE_FN bool chase_index_is_odd_inside(uint32_t value, uint64_t limit)
{
    return value < limit && (value & 1u) != 0;
}

// The link of slot s: the address of the slot its index names, or the trap's.
VRB_CHASE_FN uint64_t chase_link(const uint32_t *chain, uint64_t limit, const ChaseLinks &l, uint64_t s, uint64_t base)
{
    const uint64_t trap = base + l.slots * sizeof(uint64_t);
    const uint32_t next = chain[s << (3 - l.shift)];
    return next < limit ? base + (uint64_t(next) << l.shift) : trap;
}

// One step: the link at `address`. A link's value comes from memory, so a compiler
// cannot tell it points to global memory and would load through a generic address
// (CUDA's LD instead of LDG, AMD's flat instead of global load), which costs a step more
// than the memory's latency: the load names global memory itself. Not volatile on AMD,
// where that would make it bypass the L1 (glc); the kernel's passes are kept apart by
// a compiler barrier and by using every pass's end.
VRB_CHASE_FN uint64_t chase_step(uint64_t address)
{
#if defined(__CUDA_ARCH__)
    uint64_t next;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(address));
    return next;
#elif defined(__HIP_DEVICE_COMPILE__)
    return *reinterpret_cast<const __attribute__((address_space(1))) uint64_t *>(address);
#else
    return *reinterpret_cast<const volatile uint64_t *>(address);
#endif
}

// `follows` dependent loads from `start`, each loaded value the next address: nothing
// but the load lies between two loads. Returns the address the walk ended at.
VRB_CHASE_FN uint64_t chase_links(uint64_t start, uint64_t follows)
{
    uint64_t p = start;
    // A loop of a constant kChaseUnroll trips: compilers unroll it whole.
    for (; follows >= kChaseUnroll; follows -= kChaseUnroll)
        for (unsigned k = 0; k < kChaseUnroll; ++k)
            p = chase_step(p);
    for (; follows > 0; --follows)
        p = chase_step(p);
    return p;
}

// The index a walk of links that ended at `end` stands at, or false at the trap (a
// stray). The chase's answer is then the value at that index of the chain.
VRB_CHASE_FN bool chase_index_at(uint64_t end, uint64_t base, const ChaseLinks &l, uint64_t &index)
{
    const uint64_t slot = (end - base) / sizeof(uint64_t);
    if (slot >= l.slots) return false;
    index = slot << (3 - l.shift);
    return true;
}

} // namespace vrb::gpu
