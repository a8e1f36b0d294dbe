#include <vrambench/core/measurement/traffic.hpp>

#include <stdexcept>
#include <string>

namespace vrb {

namespace {

struct Row {
    vrb_op_kind kind;
    const char *name;
    uint32_t reads;  // element streams read
    uint32_t writes; // element streams written
    const char *rule;
};

// The table. reads/writes count whole streams of `count` elements.
constexpr Row rows[] = {
    {VRB_OP_READ, "read", 1, 0, "count x element_bytes read"},
    {VRB_OP_WRITE, "write", 0, 1, "count x element_bytes written"},
    {VRB_OP_COPY, "copy", 1, 1, "count x element_bytes read + the same written"},
    {VRB_OP_SCALE, "scale", 1, 1, "count x element_bytes read + the same written"},
    {VRB_OP_ADD, "add", 2, 1, "2 x count x element_bytes read + count x element_bytes written"},
    {VRB_OP_TRIAD, "triad", 2, 1, "2 x count x element_bytes read + count x element_bytes written"},
    {VRB_OP_DOT, "dot", 2, 0, "2 x count x element_bytes read"},
    {VRB_OP_STRIDED_READ, "strided-read", 1, 0, "count x element_bytes read (only the elements used)"},
    {VRB_OP_GATHER, "gather", 1, 0, "count x element_bytes of data + count x 4 bytes of indices read"},
    {VRB_OP_CHASE, "chase", 1, 0, "count x 4 bytes read, one dependent load at a time"},
    {VRB_OP_TRANSFER, "transfer", 1, 0, "count bytes per direction, counted once"},
    {VRB_OP_FILL, "fill", 0, 1, "count x element_bytes written"},
    {VRB_OP_CHECK, "check", 1, 0, "count x element_bytes read"},
};

const Row &row(uint32_t kind)
{
    for (const Row &r : rows)
        if (r.kind == kind) return r;
    throw std::invalid_argument("unknown operation kind " + std::to_string(kind));
}

} // namespace

Traffic bytes_moved(uint32_t kind, uint32_t element_bytes, uint64_t count)
{
    const Row &r = row(kind);
    Traffic t;
    switch (kind) {
    case VRB_OP_TRANSFER: t.read = count; break;
    case VRB_OP_CHASE: t.read = count * 4; break;
    case VRB_OP_GATHER: t.read = count * element_bytes + count * 4; break;
    default:
        t.read = static_cast<uint64_t>(r.reads) * count * element_bytes;
        t.written = static_cast<uint64_t>(r.writes) * count * element_bytes;
    }
    return t;
}

std::string_view counting_rule(uint32_t kind)
{
    return row(kind).rule;
}
std::string_view op_name(uint32_t kind)
{
    return row(kind).name;
}

} // namespace vrb
