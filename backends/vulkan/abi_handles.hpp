// An operand's vrb_buffer is the backend's Buffer under another name, as make_table
// (plugin.cpp) hands it out.
#pragma once

#include <vrambench/plugin.h>

namespace vrb::vulkan {

class Buffer;

inline Buffer *from_abi(vrb_buffer *p) noexcept
{
    return reinterpret_cast<Buffer *>(p);
}

} // namespace vrb::vulkan
