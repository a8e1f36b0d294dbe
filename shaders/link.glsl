// A link of CHASE's walk by device address (backends/vulkan/chase_links.hpp): 8 bytes
// holding the device address of the next link, read and written through a
// GL_EXT_buffer_reference pointer, so a step is one load whose value is the next
// step's address.
#ifndef VRAMBENCH_LINK_GLSL
#define VRAMBENCH_LINK_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Link { uint64_t next; };

// The index of the chain the link at `address` stands for.
uint link_index(uint64_t address)
{
    return uint((address - packUint2x32(pc.link_base)) >> pc.link_shift);
}

#endif
