#include "staging.hpp"

#include "buffer.hpp"
#include "commands.hpp"
#include "device.hpp"
#include "host_access.hpp"

#include <algorithm>
#include <cstring>

namespace vrb::vulkan {

namespace {

bool direct(const Buffer &buffer, uint64_t bytes)
{
    return choose_host_path(buffer.kind().properties, bytes, buffer.device()->options().always_stage) ==
           HostPath::Mapping;
}

// A mapped range of non-coherent memory, widened to whole atoms as Vulkan requires.
VkMappedMemoryRange atom_range(const Buffer &buffer, const Segment &segment, uint64_t offset, uint64_t bytes)
{
    const uint64_t atom = std::max<uint64_t>(buffer.device()->physical().properties.limits.nonCoherentAtomSize, 1);
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = segment.memory.get();
    range.offset = offset / atom * atom;
    const uint64_t end = (offset + bytes + atom - 1) / atom * atom;
    range.size = end >= segment.allocation_bytes ? VK_WHOLE_SIZE : end - range.offset;
    return range;
}

// Copies between the buffer and the staging buffer's first `bytes`, in either direction.
void record_staging_copy(VkCommandBuffer commands, const Buffer &buffer, uint64_t offset, VkBuffer staging,
                         uint64_t bytes, bool to_buffer)
{
    for (const CopyRegion &r : split_copy(offset, buffer.segment_bytes(), 0, UINT64_MAX, bytes)) {
        const VkBuffer segment = buffer.segments()[r.src_segment].buffer.get();
        VkBufferCopy region{};
        region.size = r.bytes;
        if (to_buffer) {
            region.srcOffset = r.dst_offset;
            region.dstOffset = r.src_offset;
            vkCmdCopyBuffer(commands, staging, segment, 1, &region);
        } else {
            region.srcOffset = r.src_offset;
            region.dstOffset = r.dst_offset;
            vkCmdCopyBuffer(commands, segment, staging, 1, &region);
        }
    }
}

} // namespace

void upload(Buffer &buffer, uint64_t offset, const void *source, uint64_t bytes)
{
    const auto *from = static_cast<const std::byte *>(source);
    Device &device = *buffer.device();
    if (direct(buffer, bytes)) {
        for (const CopyRegion &r : split_copy(offset, buffer.segment_bytes(), 0, UINT64_MAX, bytes)) {
            const Segment &segment = buffer.segments()[r.src_segment];
            std::memcpy(static_cast<std::byte *>(segment.mapping.get()) + r.src_offset, from + r.dst_offset, r.bytes);
            if (!buffer.coherent()) {
                const VkMappedMemoryRange range = atom_range(buffer, segment, r.src_offset, r.bytes);
                check(vkFlushMappedMemoryRanges(device.handle(), 1, &range), "flushing an upload");
            }
        }
        return;
    }
    HostBuffer &staging = device.staging();
    const QueueRef queue = device.queues().transfer;
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = std::min(bytes - done, staging.size());
        std::memcpy(staging.data(), from + done, n);
        staging.flush();
        CommandBuffer commands(device, queue.family);
        full_barrier(commands.get());
        record_staging_copy(commands.get(), buffer, offset + done, staging.buffer(), n, true);
        full_barrier(commands.get());
        commands.end();
        submit_and_wait(device, device.queue(queue), commands);
        done += n;
    }
}

void download(Buffer &buffer, uint64_t offset, void *destination, uint64_t bytes)
{
    auto *to = static_cast<std::byte *>(destination);
    Device &device = *buffer.device();
    if (direct(buffer, bytes)) {
        for (const CopyRegion &r : split_copy(offset, buffer.segment_bytes(), 0, UINT64_MAX, bytes)) {
            const Segment &segment = buffer.segments()[r.src_segment];
            if (!buffer.coherent()) {
                const VkMappedMemoryRange range = atom_range(buffer, segment, r.src_offset, r.bytes);
                check(vkInvalidateMappedMemoryRanges(device.handle(), 1, &range), "reading back a download");
            }
            std::memcpy(to + r.dst_offset, static_cast<const std::byte *>(segment.mapping.get()) + r.src_offset,
                        r.bytes);
        }
        return;
    }
    HostBuffer &staging = device.staging();
    const QueueRef queue = device.queues().transfer;
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = std::min(bytes - done, staging.size());
        CommandBuffer commands(device, queue.family);
        full_barrier(commands.get());
        record_staging_copy(commands.get(), buffer, offset + done, staging.buffer(), n, false);
        host_read_barrier(commands.get());
        commands.end();
        submit_and_wait(device, device.queue(queue), commands);
        staging.invalidate();
        std::memcpy(to + done, staging.data(), n);
        done += n;
    }
}

} // namespace vrb::vulkan
