#include "chase_links.hpp"

#include "commands.hpp"
#include "device.hpp"
#include "host_buffer.hpp"
#include "splitting.hpp"

#include <algorithm>
#include <cstring>

namespace vrb::vulkan {

namespace {

// Slots one dispatch covers at most, so that its count fits the shader's uint.
constexpr uint64_t kMaxSlotsPerDispatch = uint64_t(1) << 30;

// One pass of shaders/chase_links.comp over `slots` slots, waited for.
void run_pass(Device &device, const LinkSource &source, uint64_t slots, const PushConstants &pass)
{
    const DispatchShape &shape = device.shape().dispatch;
    Pipelines &pipelines = device.pipelines();
    const VkPipeline pipeline = pipelines.get(source.shader, LayoutKind::Chain, shape.local_size);
    const VkPipelineLayout layout = pipelines.layout(LayoutKind::Chain);
    const QueueRef queue = device.queues().compute;
    CommandBuffer commands(device, queue.family);
    full_barrier(commands.get());
    vkCmdBindPipeline(commands.get(), VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(commands.get(), VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &source.set, 0, nullptr);
    for (uint64_t first = 0; first < slots; first += kMaxSlotsPerDispatch) {
        const uint64_t count = std::min(slots - first, kMaxSlotsPerDispatch);
        for (const Slice &slice : slice_dispatch(count, shape)) {
            PushConstants push = pass;
            push.count = static_cast<uint32_t>(slice.count);
            set64(push.first_lane, first + slice.first);
            vkCmdPushConstants(commands.get(), layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
            vkCmdDispatch(commands.get(), slice.groups, 1, 1);
        }
    }
    host_read_barrier(commands.get());
    commands.end();
    submit_and_wait(device, device.queue(queue), commands);
}

uint64_t get64(const uint32_t (&field)[2])
{
    return field[0] | uint64_t(field[1]) << 32;
}

} // namespace

bool offers_chase_by_address(const PhysicalDevice &device)
{
    return device.api_version >= VK_API_VERSION_1_1 && device.buffer_device_address && device.features.shaderInt64;
}

bool chase_by_address(const PhysicalDevice &device, ChaseWalk requested)
{
    if (requested == ChaseWalk::Indices) return false;
    const bool offered = offers_chase_by_address(device);
    if (requested == ChaseWalk::Addresses && !offered)
        fail(VRB_ERROR_UNSUPPORTED, "VRAMBENCH_VULKAN_CHASE=addresses needs buffer device addresses and shaderInt64, "
                                    "which " +
                                        std::string(device.properties.deviceName) + " does not offer");
    if (requested == ChaseWalk::Addresses) return true;
    // By default a CPU device walks indices: its step is its own loop, far longer than the
    // index walk's add (lavapipe: about 20 ns a step either way), while the links are
    // made again for every run: a standard chase took 3.6 s by indices and 20.7 s by
    // addresses on lavapipe. A GPU issues a thread's steps in order, and there the add is
    // a good part of a step.
    return offered && device.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

const char *chase_walk_name(bool by_address)
{
    return by_address ? "device addresses" : "indices";
}

LinkLayout link_layout(uint64_t inside, bool all_even)
{
    LinkLayout layout;
    layout.shift = all_even ? 2 : 3;
    layout.slots = all_even ? (inside + 1) / 2 : inside;
    return layout;
}

LinkBuffer::LinkBuffer(Device &device, const MemoryKind &kind, uint64_t bytes)
    : device_(device), heap_(kind.heap_index), bytes_(bytes)
{
    const VkDevice vk = device.handle();
    if (bytes > device.physical().maintenance3.maxMemoryAllocationSize)
        fail(VRB_ERROR_OUT_OF_MEMORY, "CHASE's " + std::to_string(bytes) + " bytes of links exceed one allocation");
    device.reserve_heap(heap_, bytes);
    try {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = bytes;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        set_sharing(info, device.sharing_families());
        VkBuffer buffer = VK_NULL_HANDLE;
        check(vkCreateBuffer(vk, &info, nullptr, &buffer), "creating CHASE's links");
        Owned<VkBuffer> owned(vk, buffer);

        VkMemoryRequirements requirements;
        vkGetBufferMemoryRequirements(vk, buffer, &requirements);
        if (!(requirements.memoryTypeBits & (1u << kind.type_index)))
            fail(VRB_ERROR_UNSUPPORTED, "memory kind " + kind.name + " cannot hold CHASE's links");
        VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
        flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.pNext = &flags;
        allocate.allocationSize = requirements.size;
        allocate.memoryTypeIndex = kind.type_index;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        check(vkAllocateMemory(vk, &allocate, nullptr, &memory), "allocating CHASE's links");
        memory_ = Owned<VkDeviceMemory>(vk, memory);
        check(vkBindBufferMemory(vk, buffer, memory, 0), "binding CHASE's links");
        buffer_ = std::move(owned);

        VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
        address.buffer = buffer;
        address_ = device.physical().buffer_device_address_khr ? vkGetBufferDeviceAddressKHR(vk, &address)
                                                               : vkGetBufferDeviceAddress(vk, &address);
        if (address_ == 0) fail(VRB_ERROR_INTERNAL, "the driver gave CHASE's links no device address");
    } catch (...) {
        buffer_ = {};
        memory_ = {};
        device.release_heap(heap_, bytes);
        throw;
    }
}

LinkBuffer::~LinkBuffer()
{
    buffer_ = {};
    memory_ = {};
    device_.release_heap(heap_, bytes_);
}

Links make_links(Device &device, const LinkSource &source, HostBuffer &results)
{
    const uint64_t inside = get64(source.common.chain_limit) - get64(source.common.chain_base);

    auto *words = reinterpret_cast<uint32_t *>(results.data());
    std::memset(words, 0, 16);
    results.flush();
    PushConstants parity = source.common;
    parity.flags = 0;
    parity.slot = 0;
    run_pass(device, source, link_layout(inside, true).slots, parity);
    results.invalidate();

    Links links;
    links.layout = link_layout(inside, words[0] == 0);
    try {
        links.buffer = std::make_unique<LinkBuffer>(device, *source.kind, links.layout.bytes());
    } catch (const Failure &f) {
        if (f.status() != VRB_ERROR_OUT_OF_MEMORY && f.status() != VRB_ERROR_UNSUPPORTED) throw;
        device.context().log(VRB_LOG_WARNING,
                             std::string("CHASE walks the chain's indices: no room for its links (") + f.what() + ")");
        return links;
    }
    PushConstants write = source.common;
    write.flags = 1;
    set64(write.link_base, links.buffer->address());
    set64(write.link_trap, links.buffer->address() + links.layout.slots * 8);
    write.link_shift = links.layout.shift;
    run_pass(device, source, links.layout.slots, write);
    return links;
}

} // namespace vrb::vulkan
