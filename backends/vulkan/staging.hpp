// buffer_upload and buffer_download. Memory the host reaches quickly is copied through
// its mapping; other memory (host_access.hpp decides) through the device's staging
// buffer and vkCmdCopyBuffer, one staging-sized chunk at a time, so buffers of any size
// move with a bounded footprint.
// The range lies inside the buffer and the pointer is set (make_table checked both).
#pragma once

#include <cstdint>

namespace vrb::vulkan {

class Buffer;

void upload(Buffer &buffer, uint64_t offset, const void *source, uint64_t bytes);
void download(Buffer &buffer, uint64_t offset, void *destination, uint64_t bytes);

} // namespace vrb::vulkan
