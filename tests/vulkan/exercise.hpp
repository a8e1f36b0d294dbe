// One operation run on the device and compared with the host recomputation: inputs
// uploaded from pattern.h's random data, outputs and checksums read back, every lane
// compared. Shared by the tests of sizes, of segmented buffers and of staging.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>
#include <string>

namespace vrb::vulkan::test {

struct Exercise {
    vrb_op_kind kind;
    uint32_t element_bytes;
    uint64_t count;
    // Operands start this many elements into their buffers (each a little differently,
    // so no two share an alignment by accident).
    uint64_t offset_elements = 0;
    uint64_t stride = 3; // STRIDED_READ
};

std::string describe(const Exercise &e);

// Runs `e` on memory kind `kind` of `device` with GoogleTest expectations.
void exercise(vrb_device *device, uint32_t kind, const Exercise &e);

} // namespace vrb::vulkan::test
