#include "external_memory.hpp"

#include "buffer.hpp"
#include "device.hpp"
#include "device_info.hpp"
#include "host_buffer.hpp"

#include <vrambench/external_handle.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>

namespace vrb::vulkan {

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kOpaqueFd = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
constexpr VkExternalMemoryHandleTypeFlagBits kDmaBuf = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
constexpr VkExternalMemoryHandleTypeFlagBits kHostAllocation = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;

// The fd-carried handle types: an opaque fd (this driver's own), a dma-buf (the kernel's,
// any driver of the card can import it) where the device offers
// VK_EXT_external_memory_dma_buf.
struct FdType {
    VkExternalMemoryHandleTypeFlagBits bit;
    const char *extension; // needed beside VK_KHR_external_memory_fd, or null
    const char *noun;      // "opaque fd"
    const char *name;      // "an opaque fd"
};

FdType fd_type(uint32_t handle_type)
{
    switch (handle_type) {
    case VRB_EXTERNAL_OPAQUE_FD: return {kOpaqueFd, nullptr, "opaque fd", "an opaque fd"};
    case VRB_EXTERNAL_DMA_BUF: return {kDmaBuf, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME, "dma-buf", "a dma-buf"};
    default:
        fail(VRB_ERROR_UNSUPPORTED, "the Vulkan backend shares memory as an opaque fd or a dma-buf, not as handle "
                                    "type " +
                                        std::to_string(handle_type));
    }
}

// What the driver says it can do with a buffer of the backend's usage and this handle type.
VkExternalMemoryProperties external_properties(const Device &device, VkExternalMemoryHandleTypeFlagBits type)
{
    VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    info.usage = device.buffer_usage();
    info.handleType = type;
    VkExternalBufferProperties properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(device.physical().handle, &info, &properties);
    return properties.externalMemoryProperties;
}

void require_fd_type(const Device &device, const FdType &type, VkExternalMemoryFeatureFlags feature, const char *what)
{
    const std::string name = device.physical().properties.deviceName;
    for (const char *extension : {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, type.extension})
        if (extension && !device.extension_enabled(extension))
            fail(VRB_ERROR_UNSUPPORTED, name + " does not offer " + extension + ": no " + type.noun + " to " + what);
    if (!(external_properties(device, type.bit).externalMemoryFeatures & feature))
        fail(VRB_ERROR_UNSUPPORTED, name + " cannot " + what + " storage buffers as " + type.name);
}

// A VkBuffer of the backend's usage that may be bound to external memory of `type`.
Owned<VkBuffer> create_external_buffer(const Device &device, uint64_t buffer_bytes,
                                       VkExternalMemoryHandleTypeFlagBits type)
{
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = type;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.pNext = &external;
    info.size = buffer_bytes;
    info.usage = device.buffer_usage();
    set_sharing(info, device.sharing_families());
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(device.handle(), &info, nullptr, &buffer), "creating an external buffer");
    return Owned<VkBuffer>(device.handle(), buffer);
}

struct Requirements {
    VkMemoryRequirements memory{};
    bool dedicated = false; // the driver requires or prefers a dedicated allocation
};

Requirements requirements_of(const Device &device, VkBuffer buffer)
{
    VkBufferMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
    info.buffer = buffer;
    VkMemoryDedicatedRequirements dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    requirements.pNext = &dedicated;
    vkGetBufferMemoryRequirements2(device.handle(), &info, &requirements);
    return {requirements.memoryRequirements,
            dedicated.requiresDedicatedAllocation || dedicated.prefersDedicatedAllocation};
}

const MemoryKind *kind_of_type(const Device &device, uint32_t type_index)
{
    for (const MemoryKind &kind : device.kinds())
        if (kind.type_index == type_index) return &kind;
    return nullptr;
}

// The first device-local kind among `type_bits`, preferring one the host cannot map
// (the card's own memory rather than a host-visible window onto it).
const MemoryKind *device_local_kind_for(const Device &device, uint32_t type_bits)
{
    const MemoryKind *found = nullptr;
    for (const MemoryKind &kind : device.kinds()) {
        if (!(type_bits & (1u << kind.type_index)) || !(kind.properties & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            continue;
        if (!(kind.properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) return &kind;
        if (!found) found = &kind;
    }
    return found;
}

// Allocates, binds and (for host-visible kinds) maps one segment's memory.
// `given` is an fd in the allocate chain: the driver owns it once the allocation succeeds.
void bind_memory(const Device &device, Segment &segment, const VkMemoryAllocateInfo &allocate, const MemoryKind &kind,
                 const std::string &what, plugin::UniqueFd *given = nullptr)
{
    const VkDevice vk = device.handle();
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult result = vkAllocateMemory(vk, &allocate, nullptr, &memory);
    if (result < 0) fail_vk(result, what);
    if (given) given->release();
    segment.memory = Owned<VkDeviceMemory>(vk, memory);
    segment.allocation_bytes = allocate.allocationSize;
    check(vkBindBufferMemory(vk, segment.buffer.get(), memory, 0), "binding external memory");
    if (kind.properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        void *pointer = nullptr;
        check(vkMapMemory(vk, memory, 0, VK_WHOLE_SIZE, 0, &pointer), "mapping external memory");
        segment.mapping = Mapping(vk, memory, pointer);
    }
}

uint64_t host_pointer_alignment(const Device &device)
{
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    if (!device.extension_enabled(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) return page;
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &host;
    vkGetPhysicalDeviceProperties2(device.physical().handle, &properties);
    return std::max<uint64_t>(host.minImportedHostPointerAlignment, page);
}

// Shared memory is one allocation bound to one buffer: past the largest range the device
// binds at once (maxStorageBufferRange), no descriptor could cover it, and a driver given
// one that large is out of the spec (lavapipe crashed on a 256 MiB import).
void require_one_binding(const Device &device, uint64_t bytes, const char *what)
{
    if (bytes > device.shape().segment_bytes)
        fail(VRB_ERROR_UNSUPPORTED, std::string("an ") + what + " buffer is one allocation: " + std::to_string(bytes) +
                                        " bytes exceed the largest the device binds at once (" +
                                        std::to_string(device.shape().segment_bytes) + ")");
}

// The memory types a dma-buf can be imported into, as the driver reads the fd.
uint32_t dma_buf_type_bits(const Device &device, int fd)
{
    VkMemoryFdPropertiesKHR properties{VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR};
    check(vkGetMemoryFdPropertiesKHR(device.handle(), kDmaBuf, fd, &properties), "asking what a dma-buf can back");
    return properties.memoryTypeBits;
}

std::unique_ptr<Buffer> import_fd(Device &device, const vrb_external_handle &h)
{
    require_one_binding(device, h.bytes, "imported");
    const FdType type = fd_type(h.type);
    require_fd_type(device, type, VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, "import");
    // A dma-buf's memory type is the importing driver's to choose (the exporter's index
    // means nothing here); an opaque fd's is the exporter's, of this very driver.
    const bool dma_buf = type.bit == kDmaBuf;
    const uint32_t fd_bits = dma_buf ? dma_buf_type_bits(device, static_cast<int>(h.handle)) : ~0u;
    const bool typed = !dma_buf && h.memory_type_index != UINT32_MAX;
    const MemoryKind *kind = typed ? kind_of_type(device, h.memory_type_index) : nullptr;
    if (typed && !kind)
        fail(VRB_ERROR_UNSUPPORTED, "the handle's memory type " + std::to_string(h.memory_type_index) +
                                        " is none this device offers for storage buffers");
    Segment segment;
    segment.bytes = h.bytes;
    segment.buffer_bytes = (h.bytes + 15) / 16 * 16;
    if (segment.buffer_bytes > h.allocation_bytes) segment.buffer_bytes = h.bytes;
    segment.buffer = create_external_buffer(device, segment.buffer_bytes, type.bit);
    const Requirements requirements = requirements_of(device, segment.buffer.get());
    if (!typed) {
        // CUDA and HIP have no memory types: their exportable memory is the card's own, so
        // it is imported into the device-local type the buffer can live in (for a dma-buf,
        // one the driver says the fd can back).
        kind = device_local_kind_for(device, requirements.memory.memoryTypeBits & fd_bits);
        if (!kind)
            fail(VRB_ERROR_UNSUPPORTED, std::string("no device-local memory type of ") +
                                            device.physical().properties.deviceName +
                                            " can back an external storage buffer imported from " +
                                            std::string(h.api, ::strnlen(h.api, sizeof h.api)));
    } else if (!(requirements.memory.memoryTypeBits & (1u << h.memory_type_index)))
        fail(VRB_ERROR_UNSUPPORTED, "memory type " + std::to_string(h.memory_type_index) +
                                        " cannot back an external storage buffer on this device");
    if (requirements.memory.size > h.allocation_bytes)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "a buffer of " + std::to_string(h.bytes) + " bytes needs " + std::to_string(requirements.memory.size) +
                 " bytes of memory, more than the handle's allocation of " + std::to_string(h.allocation_bytes));

    // The driver gets a duplicate, so that the caller's fd is untouched by any failure
    // (the ABI leaves it theirs) and is closed here only once the import has succeeded.
    plugin::UniqueFd duplicate(::fcntl(static_cast<int>(h.handle), F_DUPFD_CLOEXEC, 0));
    if (duplicate.get() < 0)
        fail(VRB_ERROR_DEVICE,
             "cannot duplicate file descriptor " + std::to_string(h.handle) + ": " + std::strerror(errno));
    VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
    import.handleType = type.bit;
    import.fd = duplicate.get();
    VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated.buffer = segment.buffer.get();
    if (h.flags & VRB_EXTERNAL_DEDICATED) import.pNext = &dedicated;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.pNext = &import;
    allocate.allocationSize = h.allocation_bytes;
    allocate.memoryTypeIndex = kind->type_index;
    bind_memory(device, segment, allocate, *kind,
                std::string("importing ") + type.name + " of " + std::to_string(h.allocation_bytes) + " bytes",
                &duplicate);
    ExternalMemory external;
    external.imported = true;
    external.dedicated = (h.flags & VRB_EXTERNAL_DEDICATED) != 0;
    auto buffer = std::make_unique<Buffer>(device, *kind, h.bytes, std::move(segment), external, 0);
    ::close(static_cast<int>(h.handle)); // imported: the fd the caller gave is ours to close
    return buffer;
}

std::unique_ptr<Buffer> import_host(Device &device, const vrb_external_handle &h)
{
    require_one_binding(device, h.bytes, "imported");
    if (!device.extension_enabled(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME))
        fail(VRB_ERROR_UNSUPPORTED, std::string(device.physical().properties.deviceName) + " does not offer " +
                                        VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME + ": no host memory import");
    if (!(external_properties(device, kHostAllocation).externalMemoryFeatures &
          VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT))
        fail(VRB_ERROR_UNSUPPORTED,
             std::string(device.physical().properties.deviceName) + " cannot import host memory into storage buffers");
    void *pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(h.handle));
    VkMemoryHostPointerPropertiesEXT pointer_properties{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    check(vkGetMemoryHostPointerPropertiesEXT(device.handle(), kHostAllocation, pointer, &pointer_properties),
          "asking which memory types can hold the host pointer");

    Segment segment;
    segment.bytes = h.bytes;
    segment.buffer_bytes = h.bytes; // page multiples are multiples of 16
    segment.buffer = create_external_buffer(device, segment.buffer_bytes, kHostAllocation);
    const Requirements requirements = requirements_of(device, segment.buffer.get());
    const uint32_t usable = requirements.memory.memoryTypeBits & pointer_properties.memoryTypeBits;
    const MemoryKind *kind = nullptr;
    for (const MemoryKind &k : device.kinds())
        if (usable & (1u << k.type_index)) {
            kind = &k;
            break;
        }
    if (!kind) fail(VRB_ERROR_UNSUPPORTED, "no memory type of this device can hold a storage buffer in host memory");
    if (requirements.memory.size > h.bytes)
        fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer of " + std::to_string(h.bytes) + " bytes needs " +
                                             std::to_string(requirements.memory.size) +
                                             " bytes of memory, more than the host allocation holds");
    VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    import.handleType = kHostAllocation;
    import.pHostPointer = pointer;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.pNext = &import;
    allocate.allocationSize = h.bytes;
    allocate.memoryTypeIndex = kind->type_index;
    bind_memory(device, segment, allocate, *kind, "importing " + std::to_string(h.bytes) + " bytes of host memory");
    ExternalMemory external;
    external.imported = true;
    return std::make_unique<Buffer>(device, *kind, h.bytes, std::move(segment), external, 0);
}

} // namespace

// The card's PCI address, which names it alike in every API; "" where the driver does
// not tell (no VK_EXT_pci_bus_info).
static std::string card_pci_address(const PhysicalDevice &p)
{
    if (!p.has_pci) return {};
    return pci_address_string(p.pci.pciDomain, p.pci.pciBus, p.pci.pciDevice, p.pci.pciFunction);
}

plugin::ImporterIdentity importer_identity(const Device &device)
{
    const PhysicalDevice &p = device.physical();
    plugin::ImporterIdentity identity;
    identity.api = "Vulkan";
    identity.uuids_known = p.has_id;
    identity.device_uuid = &p.id.deviceUUID;
    identity.driver_uuid = &p.id.driverUUID;
    identity.device_name = p.properties.deviceName;
    identity.pci_address = card_pci_address(p);
    return identity;
}

std::vector<const char *> external_memory_extensions(const PhysicalDevice &physical)
{
    std::vector<const char *> names;
    if (physical.has_extension(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
        names.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
        if (physical.has_extension(VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME))
            names.push_back(VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME);
    }
    if (physical.has_extension(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME))
        names.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    return names;
}

std::unique_ptr<Buffer> allocate_exportable(Device &device, uint32_t kind_index, uint64_t bytes, uint32_t handle_type)
{
    const FdType type = fd_type(handle_type);
    const MemoryKind &kind = device.kinds()[kind_index];
    require_one_binding(device, bytes, "exportable");
    require_fd_type(device, type, VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT, "export");
    const VkExternalMemoryProperties properties = external_properties(device, type.bit);

    Segment segment;
    segment.bytes = bytes;
    segment.buffer_bytes = (bytes + 15) / 16 * 16;
    segment.buffer = create_external_buffer(device, segment.buffer_bytes, type.bit);
    const Requirements requirements = requirements_of(device, segment.buffer.get());
    if (!(requirements.memory.memoryTypeBits & (1u << kind.type_index)))
        fail(VRB_ERROR_UNSUPPORTED, "memory kind " + kind.name + " cannot hold an exportable storage buffer");
    const bool dedicated =
        requirements.dedicated || (properties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT);

    device.reserve_heap(kind.heap_index, requirements.memory.size);
    struct Unreserve {
        Device *device;
        uint32_t heap;
        uint64_t bytes;
        ~Unreserve()
        {
            if (device) device->release_heap(heap, bytes);
        }
    } unreserve{&device, kind.heap_index, requirements.memory.size};

    VkExportMemoryAllocateInfo exported{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exported.handleTypes = type.bit;
    VkMemoryDedicatedAllocateInfo dedicated_info{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated_info.buffer = segment.buffer.get();
    if (dedicated) exported.pNext = &dedicated_info;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.pNext = &exported;
    allocate.allocationSize = requirements.memory.size;
    allocate.memoryTypeIndex = kind.type_index;
    bind_memory(device, segment, allocate, kind,
                "allocating " + std::to_string(requirements.memory.size) + " exportable bytes of " + kind.name);
    ExternalMemory external;
    external.exportable = type.bit;
    external.dedicated = dedicated;
    auto buffer = std::make_unique<Buffer>(device, kind, bytes, std::move(segment), external, unreserve.bytes);
    unreserve.device = nullptr; // the buffer gives the reservation back now
    return buffer;
}

void export_buffer(const Buffer &buffer, vrb_external_handle &h)
{
    const VkExternalMemoryHandleTypeFlags exportable = buffer.external().exportable;
    if (!(exportable & (kOpaqueFd | kDmaBuf)) || buffer.segments().size() != 1)
        fail(VRB_ERROR_UNSUPPORTED,
             "the buffer was not allocated exportable (buffer_alloc_exportable): its memory has no fd to give");
    const FdType type = fd_type(exportable & kDmaBuf ? VRB_EXTERNAL_DMA_BUF : VRB_EXTERNAL_OPAQUE_FD);
    const Device &device = *buffer.device();
    const Segment &segment = buffer.segments().front();
    VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    info.memory = segment.memory.get();
    info.handleType = type.bit;
    int fd = -1;
    check(vkGetMemoryFdKHR(device.handle(), &info, &fd), std::string("exporting memory as ") + type.name);

    h.type = type.bit == kDmaBuf ? VRB_EXTERNAL_DMA_BUF : VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.bytes = buffer.size();
    h.allocation_bytes = segment.allocation_bytes;
    h.memory_type_index = buffer.kind().type_index;
    h.flags = buffer.external().dedicated ? VRB_EXTERNAL_DEDICATED : 0;
    name_exporter(device.physical(), h);
}

void name_exporter(const PhysicalDevice &p, vrb_external_handle &h)
{
    plugin::name_card(h, p.has_id ? &p.id.deviceUUID : nullptr, &p.id.driverUUID, card_pci_address(p));
    plugin::copy_string(h.api, "Vulkan");
}

std::unique_ptr<Buffer> import_buffer(Device &device, const vrb_external_handle &handle)
{
    const bool host = handle.type == VRB_EXTERNAL_HOST_POINTER;
    plugin::check_import_handle(&handle, importer_identity(device), host ? host_pointer_alignment(device) : 1);
    return host ? import_host(device, handle) : import_fd(device, handle);
}

} // namespace vrb::vulkan
