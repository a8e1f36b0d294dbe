// The pointer chase's walk, the same code in the chase kernel and in its host tests.
//
// A step's address is the value the step before it loaded, and the time per step is the
// latency asked for only if nothing else lies on that path. A GPU issues a warp's
// instructions in order, so a compare and branch on each loaded index (to stop before
// following one outside the chain) would wait for the load and hold back the next one:
// some ten cycles a step, a third of an L1 hit. The walk instead clamps each index into
// the chain (one min before the address is formed) and only notes that one strayed;
// a walk that strayed is walked again, checked, to report the first stray exactly.
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

} // namespace vrb::gpu
