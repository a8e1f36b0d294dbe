// The vrb_operation a host (the core, a test, a benchmark) hands to a backend, built one
// way everywhere. Header-only: it needs nothing but plugin.h.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>

namespace vrb {

// `kind` over `count` elements of `element_bytes`, stride 1, sized for this ABI; operands,
// seed, scalar, pattern and passes are zero until the caller sets them. `kind` stays an
// integer: a test may well send one the backend does not know.
inline vrb_operation make_operation(uint32_t kind, uint32_t element_bytes, uint64_t count)
{
    vrb_operation op{};
    op.struct_size = sizeof op;
    op.kind = kind;
    op.element_bytes = element_bytes;
    op.count = count;
    op.stride = 1;
    return op;
}

} // namespace vrb
