// Memory shared with other APIs and other VkDevices (ABI 1.2): buffers allocated so that
// their memory can be exported as an opaque POSIX fd (VK_KHR_external_memory_fd), and
// buffers made of memory another device exported, or of host memory by its address
// (VK_EXT_external_memory_host). Each is one segment: one fd, one allocation.
#pragma once

#include "vk.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace vrb::vulkan {

class Buffer;
class Device;
struct PhysicalDevice;

// What an importer checks a handle's UUIDs against.
plugin::ImporterIdentity importer_identity(const Device &device);

// The extensions a device is created with for sharing memory, those the driver offers.
std::vector<const char *> external_memory_extensions(const PhysicalDevice &physical);

// Throws Failure(VRB_ERROR_UNSUPPORTED) where the driver cannot export that memory.
// kind < the device's kinds and bytes > 0 (make_table checked both).
std::unique_ptr<Buffer> allocate_exportable(Device &device, uint32_t kind, uint64_t bytes, uint32_t handle_type);

// Writes a new fd the caller owns, with what an importer needs to know, into a handle
// of this header's size (make_table copies it to the host's).
void export_buffer(const Buffer &buffer, vrb_external_handle &out);

// Marks a handle this module exports as Vulkan's, from `physical`'s card and driver
// (UUIDs where the device reports them): memory and semaphores alike.
void name_exporter(const PhysicalDevice &physical, vrb_external_handle &out);

// Checks the handle before any driver call; on success the buffer owns the fd.
std::unique_ptr<Buffer> import_buffer(Device &device, const vrb_external_handle &handle);

} // namespace vrb::vulkan
