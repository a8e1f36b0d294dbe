// CHASE: one thread, each load's address the previous load's value, so nothing overlaps
// and the time per step is the memory's latency at the chain's footprint. The ABI's
// chain of indices is first made into a chain of links (chase_walk.hpp), so a timed step
// is one load and nothing else; plain loads, so the caches serve them as they would any
// program's. Each pass follows the chain again from its start.
#include "chase_walk.hpp"
#include "kernel_common.cuh"

#include <vrambench/plugin_support.hpp>

namespace vrb::gpu {
namespace {

// words[1] becomes nonzero when an index inside the chain is odd (links cannot then lie
// at the indices' own bytes). Every thread that finds one stores the same value.
__global__ void __launch_bounds__(kThreads)
    chase_parity_kernel(uint32_t, const uint32_t *chain, uint64_t limit, uint64_t *words)
{
    bool odd = false;
    grid_stride<kUnroll>(
        thread_walk(limit),
        [&](uint64_t i, uint64_t stride) {
#pragma unroll
            for (unsigned k = 0; k < kUnroll; ++k)
                odd = odd || chase_index_is_odd_inside(chain[i + k * stride], limit);
        },
        [&](uint64_t i) { odd = odd || chase_index_is_odd_inside(chain[i], limit); });
    if (odd) words[1] = 1;
}

__global__ void __launch_bounds__(kThreads)
    chase_link_kernel(uint32_t, const uint32_t *chain, uint64_t limit, ChaseLinks links, uint64_t *slots)
{
    const uint64_t base = reinterpret_cast<uint64_t>(slots);
    grid_stride<1>(
        thread_walk(links.slots), [&](uint64_t s, uint64_t) { slots[s] = chase_link(chain, limit, links, s, base); },
        [](uint64_t) {});
    if (global_thread() == 0) slots[links.slots] = base + links.slots * sizeof(uint64_t); // the trap, to itself
}

// Only an index that is about to be followed must lie inside the chain; the final one
// is the answer, whatever it is. A walk that ended at the trap strayed: the indices are
// walked again, checked, for the first stray.
__global__ void chase_links_kernel(uint32_t passes, const uint64_t *slots, uint64_t steps, const uint32_t *chain,
                                   uint64_t limit, ChaseLinks links, uint64_t *words)
{
    if (steps == 0) {
        words[3] = 0;
        return;
    }
    const uint64_t start = reinterpret_cast<uint64_t>(slots);
    uint64_t end = start;
    bool trapped = false;
    for (uint32_t p = 0; p < passes; ++p) {
        // Every pass loads the chain again: no compiler may reuse the pass before, and
        // each pass's end is used, so none is dead code.
        asm volatile("" ::: "memory");
        end = chase_links(start, steps - 1);
        trapped = trapped || end == start + links.slots * sizeof(uint64_t);
    }
    uint64_t index = 0;
    ChaseStray stray;
    if ((trapped || !chase_index_at(end, start, links, index)) && chase_first_stray(chain, steps, limit, stray)) {
        report_fault(words, stray.step, stray.index);
        words[3] = stray.from;
        return;
    }
    words[3] = chain[index];
}

// The walk of the indices themselves, clamped (chase_walk.hpp), where no links could be
// made.
__global__ void chase_index_kernel(uint32_t passes, const uint32_t *chain, uint64_t steps, uint64_t limit,
                                   uint64_t *words)
{
    const uint32_t last_index = chase_last_index(limit);
    ChaseEnd end;
    bool strayed = false;
    for (uint32_t p = 0; p < passes; ++p) {
        asm volatile("" ::: "memory");
        end = chase_clamped(chain, steps, last_index);
        strayed = strayed || end.strayed;
    }
    ChaseStray stray;
    if (strayed && chase_first_stray(chain, steps, limit, stray)) {
        report_fault(words, stray.step, stray.index);
        words[3] = stray.from;
        return;
    }
    words[3] = end.last;
}

LaunchGeometry one_thread()
{
    LaunchGeometry g;
    g.blocks = 1;
    g.threads = 1;
    return g;
}

// Whether every index inside the chain is even, asked of the device before the runs.
bool all_indices_even(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape, StreamHandle stream)
{
    uint64_t odd = 0;
    check(memset_async(scratch.words, 0, kScratchWords * sizeof(uint64_t), stream), "clearing the chase's parity");
    const LaunchGeometry g = plan_kernel(chase_parity_kernel, op.src1_limit, shape, 0, 0xffffffffu);
    bind_launch(chase_parity_kernel, g, 0, false, "launching the chase's parity kernel",
                static_cast<const uint32_t *>(op.src1), op.src1_limit, scratch.words)
        .launch(stream, 1);
    check(copy_async(&odd, scratch.words + 1, sizeof odd, CopyKind::device_to_host, stream),
          "reading the chase's parity");
    check(stream_synchronize(stream), "waiting for the chase's parity");
    return odd == 0;
}

} // namespace

ChaseLinksMade make_chase_links(const KernelOp &op, const Scratch &scratch, const DeviceShape &shape,
                                StreamHandle stream)
{
    ChaseLinksMade made;
    if (op.count <= 1 || !op.chase_memory) return made;
    made.links = chase_links_for(op.src1_limit, all_indices_even(op, scratch, shape, stream));
    made.memory = op.chase_memory(made.links.bytes());
    if (!made.memory.address) return made;
    auto *slots = static_cast<uint64_t *>(made.memory.address);
    const LaunchGeometry g = plan_kernel(chase_link_kernel, made.links.slots, shape, 0, 0xffffffffu);
    bind_launch(chase_link_kernel, g, 0, false, "launching the chase's link kernel",
                static_cast<const uint32_t *>(op.src1), op.src1_limit, made.links, slots)
        .launch(stream, 1);
    check(stream_synchronize(stream), "waiting for the chase's links");
    return made;
}

PreparedKernel prepare_chase_op(const KernelOp &op, const ChaseLinksMade &made, const Scratch &scratch)
{
    const auto *chain = static_cast<const uint32_t *>(op.src1);
    if (!made.memory.address) {
        load_kernel(chase_index_kernel);
        return bind_launch(chase_index_kernel, one_thread(), 0, false, "launching the chase kernel", chain, op.count,
                           op.src1_limit, scratch.words);
    }
    load_kernel(chase_links_kernel);
    PreparedKernel prepared = bind_launch(chase_links_kernel, one_thread(), 0, false, "launching the chase kernel",
                                          static_cast<const uint64_t *>(made.memory.address), op.count, chain,
                                          op.src1_limit, made.links, scratch.words);
    prepared.keep = made.memory.owner;
    return prepared;
}

} // namespace vrb::gpu
