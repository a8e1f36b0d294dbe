// How buffer_upload and buffer_download reach a buffer's bytes: through its mapping, or
// through the device (a copy to or from the staging buffer). Pure, unit-tested.
//
// A mapping is only as fast as the memory behind it. Host-cached memory is ordinary
// RAM to the CPU. Device-local memory that is also host-visible (a resizable BAR) is
// reached over the bus uncached: writes are combined, but every read is a round trip,
// tens of MB/s on a discrete GPU and less in a virtual machine, so reading back 256 MiB
// through it takes many seconds where a copy engine takes milliseconds.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace vrb::vulkan {

enum class HostPath { Mapping, Staging };

// Up to this many bytes a mapped access costs less than a submission and its wait.
inline constexpr uint64_t kSmallHostAccessBytes = 4096;

// Memory without HOST_VISIBLE always goes through the device, as does everything when
// always_stage is set; device-local memory that is not host-cached does too, past
// kSmallHostAccessBytes. Everything else is copied through its mapping.
HostPath choose_host_path(VkMemoryPropertyFlags properties, uint64_t bytes, bool always_stage);

// The memory type of the backend's own host buffers (staging, results), among the
// types in allowed_type_bits: host-visible, and of those host-cached first (the host
// reads it fast), then coherent (no flushes), each in system memory before a
// device-local BAR type. UINT32_MAX when no type is host-visible.
uint32_t choose_host_buffer_type(const VkPhysicalDeviceMemoryProperties &memory, uint32_t allowed_type_bits);

} // namespace vrb::vulkan
