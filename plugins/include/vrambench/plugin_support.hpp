// C++ help for implementing a backend behind the C ABI of plugin.h.
//
// A backend writes its logic in C++ (exceptions, RAII), and this header turns that
// into what the ABI requires: every entry point wrapped by guard(), which converts any
// exception into a status plus a thread-local message; one macro that exports the
// negotiating entry; checks of an operation's operands that every backend needs
// before it touches memory. Header-only so a module carries no extra library.
#pragma once

#include <vrambench/pattern.h>
#include <vrambench/plugin.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace vrb::plugin {

// Thrown inside a backend to fail the current call with a specific status.
class Failure : public std::runtime_error {
  public:
    Failure(vrb_status status, const std::string &message) : std::runtime_error(message), status_(status) {}
    vrb_status status() const noexcept { return status_; }

  private:
    vrb_status status_;
};

[[noreturn]] inline void fail(vrb_status status, const std::string &message)
{
    throw Failure(status, message);
}

inline std::string &error_slot()
{
    thread_local std::string message = "no error";
    return message;
}

inline const char *last_error() noexcept
{
    return error_slot().c_str();
}

inline vrb_status set_error(vrb_status status, std::string_view message) noexcept
{
    try {
        error_slot().assign(message);
    } catch (...) {
        // The message cannot be stored (out of memory); the status still tells.
    }
    return status;
}

// Runs body and converts whatever it throws into a status and a message.
template <typename Body> vrb_status guard(Body &&body) noexcept
{
    try {
        body();
        return VRB_OK;
    } catch (const Failure &failure) {
        return set_error(failure.status(), failure.what());
    } catch (const std::bad_alloc &) {
        return set_error(VRB_ERROR_OUT_OF_MEMORY, "out of host memory");
    } catch (const std::exception &error) {
        return set_error(VRB_ERROR_INTERNAL, error.what());
    } catch (...) {
        return set_error(VRB_ERROR_INTERNAL, "unknown exception");
    }
}

template <std::size_t N> void copy_string(char (&dst)[N], std::string_view src) noexcept
{
    const std::size_t n = std::min(src.size(), N - 1);
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

// Writes `value` into a struct the host sized: only if the field fits inside struct_size.
#define VRB_FITS(object, field)                                                                                        \
    (offsetof(std::remove_reference_t<decltype(object)>, field) + sizeof((object).field) <= (object).struct_size)

inline void add_property(vrb_device_info &info, std::string_view key, std::string_view value) noexcept
{
    if (info.property_count >= VRB_MAX_PROPERTIES) return;
    vrb_property &property = info.properties[info.property_count++];
    copy_string(property.key, key);
    copy_string(property.value, value);
}

// How many bytes of an operand an operation touches, from operand.offset on.
// Zero means the operation does not use the operand.
struct OperandSpans {
    uint64_t dst = 0, src1 = 0, src2 = 0, dst2 = 0;
};

inline uint64_t checked_mul(uint64_t a, uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
        fail(VRB_ERROR_INVALID_ARGUMENT, "operation size overflows 64 bits");
    return a * b;
}

inline OperandSpans operand_spans(const vrb_operation &op)
{
    const uint64_t e = op.element_bytes;
    OperandSpans s;
    switch (op.kind) {
    case VRB_OP_READ: s.src1 = checked_mul(op.count, e); break;
    case VRB_OP_WRITE:
    case VRB_OP_FILL: s.dst = checked_mul(op.count, e); break;
    case VRB_OP_CHECK: s.src1 = checked_mul(op.count, e); break;
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
        s.dst = checked_mul(op.count, e);
        s.src1 = s.dst;
        break;
    case VRB_OP_ADD:
    case VRB_OP_TRIAD:
        s.dst = checked_mul(op.count, e);
        s.src1 = s.dst;
        s.src2 = s.dst;
        break;
    case VRB_OP_DOT:
        s.src1 = checked_mul(op.count, e);
        s.src2 = s.src1;
        break;
    case VRB_OP_STRIDED_READ:
        if (op.count > 0) s.src1 = checked_mul(checked_mul(op.count - 1, op.stride) + 1, e);
        break;
    case VRB_OP_GATHER: s.src2 = checked_mul(op.count, 4); break; // src1's extent depends on the indices
    case VRB_OP_CHASE: break;                                     // the chain's buffer is src1, whole
    case VRB_OP_TRANSFER:
        s.dst = op.count;
        s.src1 = op.count;
        if (op.src2.buffer) {
            s.src2 = op.count;
            s.dst2 = op.count;
        }
        break;
    default: fail(VRB_ERROR_UNSUPPORTED, "unknown operation kind " + std::to_string(op.kind));
    }
    return s;
}

// Passes per timed run: 1 when the host's struct predates the field or says 0.
inline uint32_t operation_passes(const vrb_operation &op) noexcept
{
    if (op.struct_size < offsetof(vrb_operation, passes) + sizeof op.passes) return 1;
    return op.passes > 1 ? op.passes : 1;
}

// The flags the host asked an operation done with (vrb_operation_flags); 0 from a host
// whose struct ends before them.
inline uint32_t operation_flags(const vrb_operation &op) noexcept
{
    if (op.struct_size < offsetof(vrb_operation, flags) + sizeof op.flags) return 0;
    return op.flags;
}

// Validates an operation against the sizes of its buffers; `size_of` maps a
// vrb_buffer* to its size in bytes. Throws Failure(INVALID_ARGUMENT) with a clear
// message, so a backend never reads or writes past a buffer.
template <typename SizeOf> void check_operation(const vrb_operation &op, SizeOf &&size_of)
{
    // A host of ABI 1.0 sends the struct without `passes`: still a whole operation.
    if (op.struct_size < offsetof(vrb_operation, passes)) fail(VRB_ERROR_INVALID_ARGUMENT, "vrb_operation too small");
    const bool lanes = op.kind != VRB_OP_TRANSFER;
    if (lanes && op.element_bytes != 4 && op.element_bytes != 8 && op.element_bytes != 16)
        fail(VRB_ERROR_INVALID_ARGUMENT, "element_bytes must be 4, 8 or 16, not " + std::to_string(op.element_bytes));
    if (op.kind == VRB_OP_STRIDED_READ && op.stride == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "stride must be at least 1");
    if ((op.kind == VRB_OP_FILL || op.kind == VRB_OP_CHECK) && op.pattern >= VRB_PATTERN_COUNT)
        fail(VRB_ERROR_INVALID_ARGUMENT, "unknown pattern " + std::to_string(op.pattern));
    const OperandSpans spans = operand_spans(op);
    auto check = [&](const vrb_operand &operand, uint64_t span, const char *role) {
        if (span == 0) return;
        if (!operand.buffer) fail(VRB_ERROR_INVALID_ARGUMENT, std::string("operand ") + role + " is missing");
        const uint64_t size = size_of(operand.buffer);
        const uint64_t align =
            lanes ? (op.kind == VRB_OP_GATHER && std::string_view(role) == "src2" ? 4 : op.element_bytes) : 1;
        if (operand.offset % align != 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, std::string("operand ") + role + " offset " +
                                                 std::to_string(operand.offset) + " is not a multiple of " +
                                                 std::to_string(align));
        if (operand.offset > size || span > size - operand.offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, std::string("operand ") + role + " needs " + std::to_string(span) +
                                                 " bytes from offset " + std::to_string(operand.offset) +
                                                 " but its buffer holds " + std::to_string(size));
    };
    check(op.dst, spans.dst, "dst");
    check(op.src1, spans.src1, "src1");
    check(op.src2, spans.src2, "src2");
    check(op.dst2, spans.dst2, "dst2");
    // What an operation writes overlaps nothing it reads, nor its other write (plugin.h):
    // kernels load and store in any order, so an overlap would give an answer that
    // depends on the order.
    auto apart = [&](const vrb_operand &w, uint64_t w_span, const char *w_role, const vrb_operand &r, uint64_t r_span,
                     const char *r_role) {
        if (!w_span || !r_span || w.buffer != r.buffer) return;
        if (w.offset < r.offset + r_span && r.offset < w.offset + w_span)
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 std::string("operand ") + w_role + " (bytes " + std::to_string(w.offset) + " to " +
                     std::to_string(w.offset + w_span) + ") overlaps " + r_role + " (bytes " +
                     std::to_string(r.offset) + " to " + std::to_string(r.offset + r_span) +
                     "): what an operation writes must not be what it reads or writes elsewhere");
    };
    apart(op.dst, spans.dst, "dst", op.src1, spans.src1, "src1");
    apart(op.dst, spans.dst, "dst", op.src2, spans.src2, "src2");
    apart(op.dst2, spans.dst2, "dst2", op.src1, spans.src1, "src1");
    apart(op.dst2, spans.dst2, "dst2", op.src2, spans.src2, "src2");
    apart(op.dst, spans.dst, "dst", op.dst2, spans.dst2, "dst2");
    if (op.kind == VRB_OP_GATHER || op.kind == VRB_OP_CHASE) {
        // How far src1 reaches depends on the indices, which only the module sees; here
        // the first element at least must lie inside the buffer.
        if (!op.src1.buffer) fail(VRB_ERROR_INVALID_ARGUMENT, "operand src1 is missing");
        const uint64_t unit = op.kind == VRB_OP_CHASE ? 4 : op.element_bytes;
        if (op.src1.offset % unit != 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, "operand src1 offset " + std::to_string(op.src1.offset) +
                                                 " is not a multiple of " + std::to_string(unit));
        const uint64_t size = size_of(op.src1.buffer);
        if (op.count > 0 && (op.src1.offset > size || size - op.src1.offset < unit))
            fail(VRB_ERROR_INVALID_ARGUMENT, "operand src1 offset " + std::to_string(op.src1.offset) +
                                                 " leaves no element in its buffer of " + std::to_string(size) +
                                                 " bytes");
    }
}

} // namespace vrb::plugin

// Defines the module's entry: speaks ABI major 1, answers with its own version, and
// refuses a host of another major with a message naming both. Beside it, the note that
// says whether this file was compiled with optimisation (plugin.h, VRB_DEFINE_BUILD_NOTE).
#define VRB_DEFINE_PLUGIN_ENTRY(plugin_table)                                                                          \
    VRB_DEFINE_BUILD_NOTE();                                                                                           \
    extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)                                    \
    {                                                                                                                  \
        if (!negotiation || negotiation->struct_size < sizeof(vrb_negotiation)) return VRB_ERROR_INVALID_ARGUMENT;     \
        negotiation->module_version = VRB_ABI_VERSION;                                                                 \
        if (VRB_VERSION_MAJOR(negotiation->host_version) != VRB_ABI_VERSION_MAJOR) {                                   \
            std::snprintf(negotiation->message, sizeof negotiation->message,                                           \
                          "module speaks ABI %u.%u, host offers %u.%u", VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR,  \
                          VRB_VERSION_MAJOR(negotiation->host_version), VRB_VERSION_MINOR(negotiation->host_version)); \
            return VRB_ERROR_VERSION;                                                                                  \
        }                                                                                                              \
        negotiation->table = &(plugin_table);                                                                          \
        return VRB_OK;                                                                                                 \
    }
