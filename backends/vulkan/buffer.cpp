#include "buffer.hpp"

#include "device.hpp"
#include "external_memory.hpp"
#include "splitting.hpp"
#include "staging.hpp"

#include <atomic>

namespace vrb::vulkan {

namespace {

// A stamp no buffer's contents had before.
uint64_t next_contents() noexcept
{
    static std::atomic<uint64_t> last{0};
    return ++last;
}

} // namespace

Buffer::Buffer(Device &device, const MemoryKind &kind, uint64_t bytes)
    : device_(device), kind_(kind), bytes_(bytes), segment_bytes_(device.shape().segment_bytes)
{
    const VkDevice vk = device.handle();
    const uint64_t count = segment_count(bytes, segment_bytes_);
    const uint32_t limit = device.physical().properties.limits.maxMemoryAllocationCount;
    if (count > limit)
        fail(VRB_ERROR_OUT_OF_MEMORY, std::to_string(bytes) + " bytes need " + std::to_string(count) +
                                          " allocations, more than the device allows (" + std::to_string(limit) + ")");
    device.reserve_heap(kind.heap_index, bytes);
    reserved_ = bytes;
    // A constructor that throws runs no destructor of its own, only its members': this
    // guard gives the reservation back if a segment fails. On success ~Buffer will.
    struct Unreserve {
        Buffer *self;
        ~Unreserve()
        {
            if (self) self->device_.release_heap(self->kind_.heap_index, self->reserved_);
        }
    } unreserve{this};

    segments_.reserve(count);
    for (uint64_t s = 0; s < count; ++s) {
        Segment segment;
        segment.bytes = std::min(segment_bytes_, bytes - s * segment_bytes_);
        segment.buffer_bytes = (segment.bytes + 15) / 16 * 16;
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = segment.buffer_bytes;
        info.usage = device.buffer_usage();
        set_sharing(info, device.sharing_families());
        VkBuffer buffer = VK_NULL_HANDLE;
        check(vkCreateBuffer(vk, &info, nullptr, &buffer), "creating a buffer segment");
        segment.buffer = Owned<VkBuffer>(vk, buffer);

        VkMemoryRequirements requirements;
        vkGetBufferMemoryRequirements(vk, buffer, &requirements);
        if (!(requirements.memoryTypeBits & (1u << kind.type_index)))
            fail(VRB_ERROR_UNSUPPORTED, "memory kind " + kind.name + " cannot hold a storage buffer");
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.allocationSize = requirements.size;
        allocate.memoryTypeIndex = kind.type_index;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        const VkResult result = vkAllocateMemory(vk, &allocate, nullptr, &memory);
        if (result < 0)
            fail_vk(result, "allocating segment " + std::to_string(s + 1) + " of " + std::to_string(count) + " (" +
                                std::to_string(requirements.size) + " bytes) of " + kind.name + " memory");
        segment.memory = Owned<VkDeviceMemory>(vk, memory);
        segment.allocation_bytes = requirements.size;
        check(vkBindBufferMemory(vk, buffer, memory, 0), "binding a buffer segment");
        if (kind.properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
            void *pointer = nullptr;
            check(vkMapMemory(vk, memory, 0, VK_WHOLE_SIZE, 0, &pointer), "mapping a buffer segment");
            segment.mapping = Mapping(vk, memory, pointer);
        }
        segments_.push_back(std::move(segment));
    }
    device.track(this);
    contents_ = next_contents();
    unreserve.self = nullptr;
}

Buffer::Buffer(Device &device, const MemoryKind &kind, uint64_t bytes, Segment segment, ExternalMemory external,
               uint64_t reserved)
    : device_(device), kind_(kind), bytes_(bytes), segment_bytes_(segment.bytes), reserved_(reserved),
      external_(external)
{
    try {
        segments_.push_back(std::move(segment));
        device.track(this);
    } catch (...) {
        device_.release_heap(kind_.heap_index, reserved_);
        throw;
    }
}

Buffer::~Buffer()
{
    links_.reset();
    segments_.clear();
    device_.release_heap(kind_.heap_index, reserved_);
    device_.untrack(this);
}

void Buffer::changed() noexcept
{
    if (contents_) contents_ = next_contents();
    links_.reset(); // made of what the chain held before
}

const KeptLinks *Buffer::kept_links(uint64_t offset, const Device &device) const noexcept
{
    if (!links_ || !contents_ || links_->contents != contents_ || links_->offset != offset || links_->device != &device)
        return nullptr;
    return links_.get();
}

void Buffer::keep_links(KeptLinks links)
{
    links_.reset(); // the old links go before the new are kept
    if (!contents_ || !links.buffer) return;
    links.contents = contents_;
    links_ = std::make_unique<KeptLinks>(std::move(links));
}

void Buffer::upload(uint64_t offset, const void *source, uint64_t bytes)
{
    changed();
    device_.context().validation().watch([&] { vulkan::upload(*this, offset, source, bytes); });
}

void Buffer::download(uint64_t offset, void *destination, uint64_t bytes)
{
    device_.context().validation().watch([&] { vulkan::download(*this, offset, destination, bytes); });
}

void Buffer::export_handle(vrb_external_handle &handle)
{
    device_.context().validation().watch([&] { export_buffer(*this, handle); });
}

bool Buffer::mapped() const noexcept
{
    return kind_.properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
}

bool Buffer::coherent() const noexcept
{
    return kind_.properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
}

} // namespace vrb::vulkan
