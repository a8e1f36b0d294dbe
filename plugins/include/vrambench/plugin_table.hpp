// One way to write a module's table: a backend written as three C++ classes, turned
// into the C table plugin.h asks for by make_table(). The guards every entry point
// needs live here once: no exception crosses the ABI (guard()), the message stays per
// thread, NULL and size checks come before the backend's code runs, a struct the host
// sized is filled only as far as the host has room, and an operation is checked
// against its buffers' sizes. The C ABI does not change: a module written in C fills
// vrb_plugin_table by hand as before.
//
// What the three classes provide (names are the module's own; vrb_context, vrb_device
// and vrb_buffer themselves are fine choices, since the ABI only ever sees pointers):
//
//   Context                                   one initialised backend
//     explicit Context(const vrb_host_table *host)   host may be NULL
//     uint32_t device_count()
//     void describe(uint32_t index, vrb_device_info &info)        index < device_count()
//     std::unique_ptr<Device> open(uint32_t index)                index < device_count()
//
//   Device                                    one opened device
//     uint32_t memory_kind_count()
//     void describe(uint32_t kind, vrb_memory_kind_info &info)     kind < memory_kind_count()
//     std::unique_ptr<Buffer> alloc(uint32_t kind, uint64_t bytes) kind checked, bytes > 0
//     void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
//         op checked against its buffers (check_operation), seconds.size() >= 1; every
//         duration the backend writes must be finite and positive (else VRB_ERROR_TIMER)
//     optional: std::unique_ptr<Buffer> import_buffer(const vrb_external_handle &, uint32_t kind)
//     optional: std::unique_ptr<Buffer> alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t type)
//     optional: uint32_t peer(const Device &other)   VRB_PEER_* bits (ABI 1.5): what this device can
//         do with the memory of `other`, another device of this context (never itself);
//         run() then accepts `other`'s buffers as those bits allow (the Buffer must
//         know its device) and refuses them otherwise
//     optional: bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind)
//         whether run() does that operation at that width on buffers of that kind (the
//         op_supported slot of ABI 1.3); asked only with a kind in range, an op kind of
//         the vocabulary and a width run() accepts (1 for TRANSFER, whatever width the
//         host named, since a transfer counts bytes). run() must agree: what it says is
//         not supported, run() answers VRB_ERROR_UNSUPPORTED (the conformance kit checks)
//
//   Buffer                                    memory of one kind on one device
//     uint64_t size() const
//     void upload(uint64_t offset, const void *src, uint64_t bytes)   range checked
//     void download(uint64_t offset, void *dst, uint64_t bytes)       range checked
//     optional: Device *device() const        then run() refuses another device's buffers
//     optional: void export_handle(vrb_external_handle &handle)        handle has 1.2's fields
//
//   Semaphore (optional fourth class, ABI 1.4)   a timeline semaphore of one device
//     Device &owner() const                    the device it was created or imported on
//     void export_handle(vrb_external_handle &handle)  handle has 1.2's fields, UINT32_MAX type index
//     void host_wait(uint64_t value, uint64_t timeout_ns)
//   and then on the Device:
//     std::unique_ptr<Semaphore> create_exportable_semaphore(uint32_t handle_type)
//     std::unique_ptr<Semaphore> import_semaphore(const vrb_external_handle &handle)  handle not NULL
//     void signal(Semaphore &semaphore, uint64_t value)        semaphore is this device's, value > 0
//     void device_wait(Semaphore &semaphore, uint64_t value)   semaphore is this device's
//
// Info structs reach the backend zeroed with struct_size = sizeof (this header's
// size), so it fills every field it knows; the adapter copies back what the host's
// struct has room for. An optional member that is absent leaves its slot NULL.
//
//   const vrb_plugin_table table = vrb::plugin::make_table<MyContext, MyDevice, MyBuffer>(
//       {"name", "what it measures", "1.0"});
// or make_table<MyContext, MyDevice, MyBuffer, MySemaphore>(...) to fill the seven
// semaphore slots as well.
//   VRB_DEFINE_PLUGIN_ENTRY(table)
#pragma once

#include <vrambench/external_handle.hpp>
#include <vrambench/plugin_support.hpp>

#include <cmath>
#include <concepts>
#include <memory>
#include <span>
#include <string>
#include <type_traits>

namespace vrb::plugin {

struct ModuleIdentity {
    const char *name;
    const char *description;
    const char *version;
};

namespace table_detail {

template <typename Device>
concept CanImport = requires(Device &d, const vrb_external_handle &h, uint32_t kind)
{
    d.import_buffer(h, kind);
};

template <typename Device>
concept CanAllocExportable = requires(Device &d, uint32_t kind, uint64_t bytes, uint32_t type)
{
    d.alloc_exportable(kind, bytes, type);
};

template <typename Device>
concept CanSayWhatItSupports = requires(Device &d, uint32_t op_kind, uint32_t element_bytes, uint32_t kind)
{
    {
        d.supports(op_kind, element_bytes, kind)
        } -> std::convertible_to<bool>;
};

// The operation kinds of the vocabulary (plugin.h): anything else no backend offers.
constexpr bool known_op_kind(uint32_t op_kind) noexcept
{
    return op_kind >= VRB_OP_READ && op_kind <= VRB_OP_CHECK;
}

template <typename Buffer>
concept CanExport = requires(Buffer &b, vrb_external_handle &h)
{
    b.export_handle(h);
};

template <typename Buffer>
concept KnowsItsDevice = requires(const Buffer &b)
{
    b.device();
};

template <typename Device>
concept HasPeers = requires(Device &d, const Device &other)
{
    {
        d.peer(other)
        } -> std::convertible_to<uint32_t>;
};

// Which peer bit an operand of another device needs in an operation of `op_kind`, or 0
// when no bit makes it acceptable.
constexpr uint32_t peer_bit_needed(uint32_t op_kind, bool src1) noexcept
{
    if (op_kind == VRB_OP_TRANSFER) return VRB_PEER_COPY;
    if (src1 && (op_kind == VRB_OP_READ || op_kind == VRB_OP_CHASE)) return VRB_PEER_ACCESS;
    return 0;
}

// The class a module names when it shares no semaphore: the semaphore slots stay NULL.
struct NoSemaphore {};

template <typename T> void need(const T *pointer, const char *what)
{
    if (!pointer) fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + " is NULL");
}

// A struct the host sized: the backend fills a whole one of this header's size, and
// the host gets the part its own struct_size has room for.
template <typename Info, typename Fill> void fill_sized(Info *out, const char *what, Fill &&fill)
{
    need(out, what);
    if (out->struct_size < sizeof out->struct_size)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             std::string(what) + "'s struct_size " + std::to_string(out->struct_size) + " leaves no room for anything");
    Info info{};
    info.struct_size = sizeof info;
    fill(info);
    const uint32_t size = std::min<uint32_t>(out->struct_size, sizeof info);
    std::memcpy(out, &info, size);
    out->struct_size = size;
}

template <typename To, typename From> To *handle(From *object) noexcept
{
    // The ABI's handle types are incomplete to the host: a module's object is handed
    // out as one and comes back as one, never dereferenced as anything else.
    return reinterpret_cast<To *>(object);
}

} // namespace table_detail

template <typename Context, typename Device, typename Buffer, typename Semaphore = table_detail::NoSemaphore>
struct TableOf {
    static Context &context(vrb_context *ctx)
    {
        table_detail::need(ctx, "the context");
        return *table_detail::handle<Context>(ctx);
    }
    static Device &device(vrb_device *dev)
    {
        table_detail::need(dev, "the device");
        return *table_detail::handle<Device>(dev);
    }
    static Buffer &buffer(vrb_buffer *buf)
    {
        table_detail::need(buf, "the buffer");
        return *table_detail::handle<Buffer>(buf);
    }

    static uint32_t checked_device(Context &ctx, uint32_t index)
    {
        const uint32_t count = ctx.device_count();
        if (index >= count)
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 "device index " + std::to_string(index) + " is out of range: " + std::to_string(count) + " device(s)");
        return index;
    }
    static uint32_t checked_kind(Device &dev, uint32_t kind)
    {
        const uint32_t count = dev.memory_kind_count();
        if (kind >= count)
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 "memory kind " + std::to_string(kind) + " is out of range: " + std::to_string(count) + " kind(s)");
        return kind;
    }
    static void checked_range(Buffer &buf, uint64_t offset, uint64_t bytes, const void *host, const char *what)
    {
        if (bytes > 0 && !host) fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + " needs a host pointer");
        const uint64_t size = buf.size();
        if (offset > size || bytes > size - offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                                                 std::to_string(offset) + " runs past the end of a buffer of " +
                                                 std::to_string(size) + " bytes");
    }
    template <typename Made> static void hand_out(Made made, vrb_buffer **out)
    {
        if (!made) fail(VRB_ERROR_INTERNAL, "the backend made no buffer and named no error");
        *out = table_detail::handle<vrb_buffer>(made.release());
    }

    static const char *last_error() { return vrb::plugin::last_error(); }

    static vrb_status init(const vrb_host_table *host, vrb_context **out)
    {
        return guard([&] {
            table_detail::need(out, "init's out");
            *out = nullptr;
            *out = table_detail::handle<vrb_context>(std::make_unique<Context>(host).release());
        });
    }
    static void shutdown(vrb_context *ctx) { std::unique_ptr<Context> owned(table_detail::handle<Context>(ctx)); }

    static vrb_status device_count(vrb_context *ctx, uint32_t *out)
    {
        return guard([&] {
            table_detail::need(out, "device_count's out");
            *out = context(ctx).device_count();
        });
    }
    static vrb_status device_describe(vrb_context *ctx, uint32_t index, vrb_device_info *out)
    {
        return guard([&] {
            Context &c = context(ctx);
            checked_device(c, index);
            table_detail::fill_sized(out, "the device info", [&](vrb_device_info &info) { c.describe(index, info); });
        });
    }
    static vrb_status device_open(vrb_context *ctx, uint32_t index, vrb_device **out)
    {
        return guard([&] {
            table_detail::need(out, "device_open's out");
            *out = nullptr;
            Context &c = context(ctx);
            auto opened = c.open(checked_device(c, index));
            if (!opened) fail(VRB_ERROR_INTERNAL, "the backend opened no device and named no error");
            *out = table_detail::handle<vrb_device>(opened.release());
        });
    }
    static void device_close(vrb_device *dev) { std::unique_ptr<Device> owned(table_detail::handle<Device>(dev)); }

    static vrb_status memory_kind_count(vrb_device *dev, uint32_t *out)
    {
        return guard([&] {
            table_detail::need(out, "memory_kind_count's out");
            *out = device(dev).memory_kind_count();
        });
    }
    static vrb_status memory_kind_describe(vrb_device *dev, uint32_t kind, vrb_memory_kind_info *out)
    {
        return guard([&] {
            Device &d = device(dev);
            checked_kind(d, kind);
            table_detail::fill_sized(out, "the memory kind info",
                                     [&](vrb_memory_kind_info &info) { d.describe(kind, info); });
        });
    }
    static vrb_status buffer_alloc(vrb_device *dev, uint32_t kind, uint64_t bytes, vrb_buffer **out)
    {
        return guard([&] {
            table_detail::need(out, "buffer_alloc's out");
            *out = nullptr;
            Device &d = device(dev);
            checked_kind(d, kind);
            if (bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer needs at least one byte");
            hand_out(d.alloc(kind, bytes), out);
        });
    }
    static void buffer_free(vrb_buffer *buf) { std::unique_ptr<Buffer> owned(table_detail::handle<Buffer>(buf)); }

    static vrb_status buffer_upload(vrb_buffer *buf, uint64_t offset, const void *src, uint64_t bytes)
    {
        return guard([&] {
            Buffer &b = buffer(buf);
            checked_range(b, offset, bytes, src, "an upload");
            if (bytes > 0) b.upload(offset, src, bytes);
        });
    }
    static vrb_status buffer_download(vrb_buffer *buf, uint64_t offset, void *dst, uint64_t bytes)
    {
        return guard([&] {
            Buffer &b = buffer(buf);
            checked_range(b, offset, bytes, dst, "a download");
            if (bytes > 0) b.download(offset, dst, bytes);
        });
    }

    static vrb_status run(vrb_device *dev, const vrb_operation *op, uint32_t repetitions, double *seconds,
                          vrb_op_output *out)
    {
        return guard([&] {
            Device &d = device(dev);
            table_detail::need(op, "the operation");
            table_detail::need(seconds, "run's seconds");
            if (repetitions == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "repetitions must be at least 1");
            check_operation(*op, [](vrb_buffer *b) { return buffer(b).size(); });
            if constexpr (table_detail::KnowsItsDevice<Buffer>) {
                for (const vrb_operand *operand : {&op->dst, &op->src1, &op->src2, &op->dst2}) {
                    if (!operand->buffer) continue;
                    const auto *owner = buffer(operand->buffer).device();
                    if (owner == &d) continue;
                    std::string refusal = "an operand's buffer belongs to another device";
                    if constexpr (table_detail::HasPeers<Device>) {
                        const uint32_t may = owner ? d.peer(*static_cast<const Device *>(owner)) : 0;
                        const uint32_t needed = table_detail::peer_bit_needed(op->kind, operand == &op->src1);
                        if (needed && (may & needed)) continue;
                        if (needed)
                            refusal += std::string(", and this device has no peer ") +
                                       (needed == VRB_PEER_COPY ? "copy" : "access") + " to it (peer_query)";
                    }
                    fail(VRB_ERROR_INVALID_ARGUMENT, refusal);
                }
            }
            const std::span<double> durations(seconds, repetitions);
            for (double &s : durations)
                s = 0;
            table_detail::fill_sized(out, "run's output", [&](vrb_op_output &output) {
                d.run(*op, durations, output);
                for (std::size_t r = 0; r < durations.size(); ++r)
                    if (!std::isfinite(durations[r]) || !(durations[r] > 0))
                        fail(VRB_ERROR_TIMER, "run " + std::to_string(r) + " of " + std::to_string(durations.size()) +
                                                  " has no positive duration (" + std::to_string(durations[r]) + " s)");
            });
        });
    }

    // The question is answered as run() would: a kind out of range or a width run()
    // refuses is an invalid argument, an op kind outside the vocabulary is not offered,
    // and only then is the backend asked.
    static vrb_status op_supported(vrb_device *dev, uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind,
                                   uint32_t *out)
    {
        return guard([&] {
            table_detail::need(out, "op_supported's out");
            *out = 0;
            Device &d = device(dev);
            checked_kind(d, memory_kind);
            if (!table_detail::known_op_kind(op_kind)) return;
            if (op_kind != VRB_OP_TRANSFER && element_bytes != 4 && element_bytes != 8 && element_bytes != 16)
                fail(VRB_ERROR_INVALID_ARGUMENT,
                     "element_bytes must be 4, 8 or 16, not " + std::to_string(element_bytes));
            // A transfer counts bytes: whatever width the caller names, the backend is
            // asked about 1, as plugin.h writes TRANSFER's element_bytes.
            if (op_kind == VRB_OP_TRANSFER) element_bytes = 1;
            *out = d.supports(op_kind, element_bytes, memory_kind) ? 1u : 0u;
        });
    }

    static vrb_status buffer_export(vrb_buffer *buf, vrb_external_handle *out)
    {
        return guard([&] {
            Buffer &b = buffer(buf);
            table_detail::need(out, "the external handle");
            if (!handle_has_v12_fields(*out))
                fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle's struct_size " +
                                                     std::to_string(out->struct_size) +
                                                     " is too small for ABI 1.2's fields");
            table_detail::fill_sized(out, "the external handle",
                                     [&](vrb_external_handle &handle) { b.export_handle(handle); });
        });
    }
    static vrb_status buffer_import(vrb_device *dev, const vrb_external_handle *handle, uint32_t kind, vrb_buffer **out)
    {
        return guard([&] {
            table_detail::need(out, "buffer_import's out");
            *out = nullptr;
            Device &d = device(dev);
            table_detail::need(handle, "the external handle");
            hand_out(d.import_buffer(*handle, kind), out);
        });
    }
    static vrb_status buffer_alloc_exportable(vrb_device *dev, uint32_t kind, uint64_t bytes, uint32_t type,
                                              vrb_buffer **out)
    {
        return guard([&] {
            table_detail::need(out, "buffer_alloc_exportable's out");
            *out = nullptr;
            Device &d = device(dev);
            checked_kind(d, kind);
            if (bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer needs at least one byte");
            hand_out(d.alloc_exportable(kind, bytes, type), out);
        });
    }

    static Semaphore &semaphore(vrb_semaphore *sem)
    {
        table_detail::need(sem, "the semaphore");
        return *table_detail::handle<Semaphore>(sem);
    }
    // A semaphore given with a device must be one created or imported on it: another
    // device's would be handed to a driver that never made it.
    static Semaphore &semaphore_of(Device &d, vrb_semaphore *sem, const char *call)
    {
        Semaphore &s = semaphore(sem);
        if (&s.owner() != &d)
            fail(VRB_ERROR_INVALID_ARGUMENT, std::string("a semaphore of another device was given to ") + call);
        return s;
    }
    template <typename Made> static void hand_out_semaphore(Made made, vrb_semaphore **out)
    {
        if (!made) fail(VRB_ERROR_INTERNAL, "the backend made no semaphore and named no error");
        *out = table_detail::handle<vrb_semaphore>(made.release());
    }
    static vrb_status semaphore_create_exportable(vrb_device *dev, uint32_t type, vrb_semaphore **out)
    {
        return guard([&] {
            table_detail::need(out, "semaphore_create_exportable's out");
            *out = nullptr;
            hand_out_semaphore(device(dev).create_exportable_semaphore(type), out);
        });
    }
    static vrb_status semaphore_export(vrb_semaphore *sem, vrb_external_handle *out)
    {
        return guard([&] {
            Semaphore &s = semaphore(sem);
            table_detail::need(out, "the external handle");
            if (!handle_has_v12_fields(*out))
                fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle's struct_size " +
                                                     std::to_string(out->struct_size) +
                                                     " is too small for ABI 1.2's fields");
            table_detail::fill_sized(out, "the external handle", [&](vrb_external_handle &handle) {
                handle.handle = -1;
                handle.memory_type_index = UINT32_MAX;
                s.export_handle(handle);
            });
        });
    }
    static vrb_status semaphore_import(vrb_device *dev, const vrb_external_handle *handle, vrb_semaphore **out)
    {
        return guard([&] {
            table_detail::need(out, "semaphore_import's out");
            *out = nullptr;
            Device &d = device(dev);
            table_detail::need(handle, "the external handle");
            hand_out_semaphore(d.import_semaphore(*handle), out);
        });
    }
    static void semaphore_free(vrb_semaphore *sem)
    {
        std::unique_ptr<Semaphore> owned(table_detail::handle<Semaphore>(sem));
    }
    static vrb_status semaphore_signal(vrb_device *dev, vrb_semaphore *sem, uint64_t value)
    {
        return guard([&] {
            Device &d = device(dev);
            Semaphore &s = semaphore_of(d, sem, "semaphore_signal");
            if (value == 0)
                fail(VRB_ERROR_INVALID_ARGUMENT, "a timeline semaphore starts at 0: signalling 0 moves nothing");
            d.signal(s, value);
        });
    }
    static vrb_status semaphore_device_wait(vrb_device *dev, vrb_semaphore *sem, uint64_t value)
    {
        return guard([&] {
            Device &d = device(dev);
            d.device_wait(semaphore_of(d, sem, "semaphore_device_wait"), value);
        });
    }
    static vrb_status semaphore_host_wait(vrb_semaphore *sem, uint64_t value, uint64_t timeout_ns)
    {
        return guard([&] { semaphore(sem).host_wait(value, timeout_ns); });
    }

    static vrb_status peer_query(vrb_device *dev, vrb_device *other, uint32_t *out)
    {
        return guard([&] {
            table_detail::need(out, "peer_query's answer");
            *out = 0;
            Device &d = device(dev);
            Device &peer = device(other);
            if (&d == &peer) fail(VRB_ERROR_INVALID_ARGUMENT, "a device is not its own peer");
            if constexpr (table_detail::HasPeers<Device>) *out = d.peer(peer);
        });
    }
};

// The C table of a backend written as Context, Device and Buffer classes, and
// optionally a Semaphore class (see above).
template <typename Context, typename Device, typename Buffer, typename Semaphore = table_detail::NoSemaphore>
constexpr vrb_plugin_table make_table(const ModuleIdentity &identity) noexcept
{
    using T = TableOf<Context, Device, Buffer, Semaphore>;
    vrb_plugin_table table{};
    table.struct_size = sizeof table;
    table.abi_version = VRB_ABI_VERSION;
    table.name = identity.name;
    table.description = identity.description;
    table.module_version = identity.version;
    table.last_error = T::last_error;
    table.init = T::init;
    table.shutdown = T::shutdown;
    table.device_count = T::device_count;
    table.device_describe = T::device_describe;
    table.device_open = T::device_open;
    table.device_close = T::device_close;
    table.memory_kind_count = T::memory_kind_count;
    table.memory_kind_describe = T::memory_kind_describe;
    table.buffer_alloc = T::buffer_alloc;
    table.buffer_free = T::buffer_free;
    table.buffer_upload = T::buffer_upload;
    table.buffer_download = T::buffer_download;
    table.run = T::run;
    if constexpr (table_detail::CanExport<Buffer>) table.buffer_export = T::buffer_export;
    if constexpr (table_detail::CanImport<Device>) table.buffer_import = T::buffer_import;
    if constexpr (table_detail::CanAllocExportable<Device>) table.buffer_alloc_exportable = T::buffer_alloc_exportable;
    if constexpr (table_detail::CanSayWhatItSupports<Device>) table.op_supported = T::op_supported;
    if constexpr (table_detail::HasPeers<Device>) table.peer_query = T::peer_query;
    if constexpr (!std::is_same_v<Semaphore, table_detail::NoSemaphore>) {
        table.semaphore_create_exportable = T::semaphore_create_exportable;
        table.semaphore_export = T::semaphore_export;
        table.semaphore_import = T::semaphore_import;
        table.semaphore_free = T::semaphore_free;
        table.semaphore_signal = T::semaphore_signal;
        table.semaphore_device_wait = T::semaphore_device_wait;
        table.semaphore_host_wait = T::semaphore_host_wait;
    }
    return table;
}

} // namespace vrb::plugin
