// Memory shared with other APIs (docs/interop.md): device memory allocated through the
// driver's virtual memory API so that it can be exported as an opaque fd, and imports of
// such fds (from this driver, or from Vulkan) and of another module's host memory.
#include "backend.hpp"

#include <vrambench/external_handle.hpp>

#include <cstring>
#include <limits>
#include <string>
#include <unistd.h>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

// FNV-1a: a stable digest of the kernel driver's version for the driver identity.
uint64_t digest(const std::string &text)
{
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::size_t addressable(uint64_t bytes, const char *what)
{
    if (bytes > std::numeric_limits<std::size_t>::max())
        fail(VRB_ERROR_OUT_OF_MEMORY,
             std::string(what) + " of " + std::to_string(bytes) + " bytes cannot be addressed here");
    return static_cast<std::size_t>(bytes);
}

const VirtualMemoryCalls &usable(const vrb_device &device)
{
    if (!device.virtual_memory->complete())
        fail(VRB_ERROR_UNSUPPORTED, std::string(kApiName) + " offers no exportable memory here: the driver has no " +
                                        device.virtual_memory->missing);
    return *device.virtual_memory;
}

std::unique_ptr<vrb_buffer> new_buffer(vrb_device &device, uint32_t kind, uint64_t bytes)
{
    auto buffer = std::make_unique<vrb_buffer>();
    buffer->owner = &device;
    buffer->ordinal = device.ordinal;
    buffer->kind = kind;
    buffer->bytes = bytes;
    return buffer;
}

std::unique_ptr<vrb_buffer> import_fd(vrb_device &device, const vrb_external_handle &h)
{
    if (h.type != VRB_EXTERNAL_OPAQUE_FD)
        fail(VRB_ERROR_UNSUPPORTED,
             std::string("the ") + kApiName + " backend imports opaque fds and host pointers, not dma-bufs");
    const std::size_t allocation = addressable(h.allocation_bytes, "an imported allocation");
    const int fd = static_cast<int>(h.handle);
    auto buffer = new_buffer(device, kind_device, h.bytes);
    if (plugin::handle_api(h) == kApiName) {
        // This driver's own export: its virtual memory API imports it, as IPC does.
        usable(device);
        buffer->exportable = import_exported(device.virtual_memory, device.ordinal, fd, allocation);
        buffer->device_address = buffer->exportable.mapped.get().base;
    } else {
        buffer->imported =
            import_external(fd, allocation, static_cast<std::size_t>(h.bytes), (h.flags & VRB_EXTERNAL_DEDICATED) != 0);
        buffer->device_address = buffer->imported.mapping.get();
    }
    ::close(fd); // imported: the fd the caller gave is ours to close
    return buffer;
}

std::unique_ptr<vrb_buffer> import_host(vrb_device &device, const vrb_external_handle &h)
{
    if (!(device.kinds[kind_pinned].flags & VRB_MEMORY_DEVICE_ACCESS))
        fail(VRB_ERROR_UNSUPPORTED, device.identity.name + " cannot map host memory: no host memory to import");
    void *pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(h.handle));
    auto buffer = new_buffer(device, kind_pinned, h.bytes);
    buffer->registered = register_host(pointer, addressable(h.bytes, "host memory"));
    void *mapped = nullptr;
    check(mapped_device_pointer(&mapped, pointer), "mapping registered host memory into the device");
    buffer->host = pointer;
    buffer->device_address = mapped;
    return buffer;
}

} // namespace

plugin::ImporterIdentity importer_of(const vrb_device &device)
{
    plugin::ImporterIdentity identity;
    identity.api = kApiName;
    identity.uuids_known = device.identity.uuid_known;
    identity.device_uuid = &device.identity.uuid;
    identity.driver_uuid = &device.identity.driver;
    identity.device_name = device.identity.name;
    identity.pci_address = device.identity.pci_address;
    return identity;
}

CardIdentity card_identity(int ordinal)
{
    CardIdentity identity;
    char name[256] = {};
    if (device_name(ordinal, name, sizeof name) == kSuccess) identity.name = name;
    if (identity.name.empty()) identity.name = std::string(kApiName) + " device " + std::to_string(ordinal);
    if (device_uuid(ordinal, identity.uuid) == kSuccess)
        for (uint8_t byte : identity.uuid)
            identity.uuid_known = identity.uuid_known || byte != 0;
    (void)take_last_error();
    if (!pci_address(ordinal, identity.pci_address)) identity.pci_address.clear();
    // Neither runtime names its driver by UUID as Vulkan does: the API's name, its
    // driver version and a digest of the kernel driver's version say the same.
    std::memcpy(identity.driver, kApiName, std::min<std::size_t>(std::strlen(kApiName), 4));
    int version = 0;
    if (driver_version(&version) != kSuccess) (void)take_last_error();
    std::memcpy(identity.driver + 4, &version, sizeof version);
    const uint64_t kernel = digest(kernel_driver_version());
    std::memcpy(identity.driver + 8, &kernel, sizeof kernel);
    return identity;
}

} // namespace vrb::gpu

std::unique_ptr<vrb_buffer> vrb_device::alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t handle_type)
{
    using namespace vrb::gpu;
    if (handle_type != VRB_EXTERNAL_OPAQUE_FD)
        fail(VRB_ERROR_UNSUPPORTED, std::string("the ") + kApiName +
                                        " backend exports opaque fds only, not handle type " +
                                        std::to_string(handle_type));
    if (kind != kind_device)
        fail(VRB_ERROR_UNSUPPORTED,
             std::string("only device memory is exportable, not memory kind '") + kinds[kind].name + "'");
    const std::size_t size = addressable(bytes, "an exportable buffer");
    usable(*this);
    make_current(ordinal);
    auto buffer = new_buffer(*this, kind_device, bytes);
    buffer->exportable = allocate_exportable(virtual_memory, ordinal, size);
    buffer->device_address = buffer->exportable.mapped.get().base;
    return buffer;
}

std::unique_ptr<vrb_buffer> vrb_device::import_buffer(const vrb_external_handle &handle, uint32_t)
{
    using namespace vrb::gpu;
    const bool host = handle.type == VRB_EXTERNAL_HOST_POINTER;
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    // Everything that can be refused without the driver is refused before it is asked.
    vrb::plugin::check_import_handle(&handle, importer_of(*this), host ? page : 1);
    make_current(ordinal);
    return host ? import_host(*this, handle) : import_fd(*this, handle);
}

void vrb_buffer::export_handle(vrb_external_handle &h)
{
    using namespace vrb::gpu;
    if (!exportable.physical || imported.memory)
        fail(VRB_ERROR_UNSUPPORTED,
             "the buffer was not allocated exportable (buffer_alloc_exportable): its memory has no fd to give");
    make_current(ordinal);
    int fd = -1;
    const PhysicalAllocation &physical = exportable.physical.get();
    check(vm_export_fd(*physical.calls, &fd, physical.handle), "exporting memory as a POSIX fd");
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.bytes = bytes;
    h.allocation_bytes = exportable.allocation_bytes;
    h.memory_type_index = UINT32_MAX; // CUDA and HIP have no memory types
    const CardIdentity &card = owner->identity;
    vrb::plugin::name_card(h, card.uuid_known ? &card.uuid : nullptr, &card.driver, card.pci_address);
    vrb::plugin::copy_string(h.api, kApiName);
}
