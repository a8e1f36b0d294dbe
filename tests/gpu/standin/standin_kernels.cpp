// The stand-in runs no kernels but CHASE's, which it runs on the host (its device memory
// is host memory): an operation that needs another is refused, so that the host code
// around the kernels (the table, transfers, timing, CHASE's links kept with their chain)
// is built and tested as it ships. Its CHASE makes and walks the links with the very
// functions the kernels run (chase_walk.hpp), queued on the stream as a launch would be.
#include "kernels.hpp"
#include "standin_journal.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::gpu {
namespace {

namespace standin = vrb::test::standin;

[[noreturn]] PreparedKernel no_kernels()
{
    plugin::fail(VRB_ERROR_UNSUPPORTED, "the recording stand-in runs no kernels");
}

} // namespace

PreparedKernel prepare_stream_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}
PreparedKernel prepare_access_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}
PreparedKernel prepare_pattern_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}

ChaseLinksMade make_chase_links(const KernelOp &op, const Scratch &, const DeviceShape &, StreamHandle stream)
{
    ChaseLinksMade made;
    if (op.count <= 1 || !op.chase_memory) return made;
    const auto *chain = static_cast<const uint32_t *>(op.src1);
    bool all_even = true;
    for (uint64_t i = 0; i < op.src1_limit; ++i)
        all_even = all_even && !chase_index_is_odd_inside(chain[i], op.src1_limit);
    made.links = chase_links_for(op.src1_limit, all_even);
    made.memory = op.chase_memory(made.links.bytes());
    if (!made.memory.address) return made;
    auto *slots = static_cast<uint64_t *>(made.memory.address);
    const ChaseLinks links = made.links;
    const uint64_t limit = op.src1_limit;
    standin::enqueue(standin::Call::chase_links_made, stream, [=] {
        const uint64_t base = reinterpret_cast<uint64_t>(slots);
        for (uint64_t s = 0; s < links.slots; ++s)
            slots[s] = chase_link(chain, limit, links, s, base);
        slots[links.slots] = base + links.slots * sizeof(uint64_t);
    });
    check(stream_synchronize(stream), "waiting for the chase's links");
    return made;
}

PreparedKernel prepare_chase_op(const KernelOp &op, const ChaseLinksMade &made, const Scratch &scratch)
{
    if (!made.memory.address) plugin::fail(VRB_ERROR_UNSUPPORTED, "the recording stand-in walks CHASE's links only");
    PreparedKernel prepared;
    const auto start = reinterpret_cast<uint64_t>(made.memory.address);
    const ChaseLinks links = made.links;
    const auto *chain = static_cast<const uint32_t *>(op.src1);
    const uint64_t steps = op.count;
    uint64_t *words = scratch.words;
    prepared.launch = [=](StreamHandle stream, uint32_t passes) {
        standin::enqueue(standin::Call::chase_walk, stream, [=] {
            uint64_t end = start, index = 0;
            for (uint32_t p = 0; p < passes; ++p)
                end = chase_links(start, steps - 1);
            words[3] = chase_index_at(end, start, links, index) ? chain[index] : ~uint64_t{0};
        });
    };
    prepared.keep = made.memory.owner;
    return prepared;
}

} // namespace vrb::gpu
