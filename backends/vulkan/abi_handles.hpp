// The opaque ABI handles are the backend's own objects under another name.
#pragma once

#include <vrambench/plugin.h>

namespace vrb::vulkan {

class Context;
class Device;
class Buffer;

inline Context *from_abi(vrb_context *p) noexcept
{
    return reinterpret_cast<Context *>(p);
}
inline Device *from_abi(vrb_device *p) noexcept
{
    return reinterpret_cast<Device *>(p);
}
inline Buffer *from_abi(vrb_buffer *p) noexcept
{
    return reinterpret_cast<Buffer *>(p);
}
inline vrb_context *to_abi(Context *p) noexcept
{
    return reinterpret_cast<vrb_context *>(p);
}
inline vrb_device *to_abi(Device *p) noexcept
{
    return reinterpret_cast<vrb_device *>(p);
}
inline vrb_buffer *to_abi(Buffer *p) noexcept
{
    return reinterpret_cast<vrb_buffer *>(p);
}

} // namespace vrb::vulkan
