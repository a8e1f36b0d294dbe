// The C ABI of vrambench-vulkan: each entry point converts its handles, runs the C++
// behind guard() so no exception crosses, and fails when the validation layer (if on)
// reported anything during the call or after the last call that could fail.
#include "abi_handles.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "device.hpp"
#include "device_info.hpp"
#include "external_memory.hpp"
#include "run.hpp"
#include "staging.hpp"

#include <cstring>
#include <memory>

namespace vrb::vulkan {
namespace {

template <typename Body> vrb_status call(Context *context, Body &&body) noexcept
{
    return plugin::guard([&] {
        if (context) context->validation().raise_pending();
        try {
            body();
        } catch (...) {
            // A validation message is the likelier cause of a failure that follows it.
            if (context && context->validation().pending()) context->validation().raise_pending();
            throw;
        }
        if (context) context->validation().raise_pending();
    });
}

vrb_status null_argument(const char *what) noexcept
{
    return plugin::set_error(VRB_ERROR_INVALID_ARGUMENT, std::string("null ") + what);
}

const char *last_error()
{
    return plugin::last_error();
}

vrb_status init(const vrb_host_table *host, vrb_context **out)
{
    if (!out) return null_argument("output pointer");
    *out = nullptr;
    return plugin::guard([&] { *out = to_abi(std::make_unique<Context>(host).release()); });
}

void shutdown(vrb_context *context)
{
    delete from_abi(context);
}

vrb_status device_count(vrb_context *handle, uint32_t *out)
{
    Context *context = from_abi(handle);
    if (!context || !out) return null_argument("context or output pointer");
    return call(context, [&] { *out = context->device_count(); });
}

vrb_status device_describe(vrb_context *handle, uint32_t index, vrb_device_info *out)
{
    Context *context = from_abi(handle);
    if (!context || !out) return null_argument("context or output pointer");
    return call(context, [&] {
        describe_device(query_physical_device(context->physical_device(index), context->api_version()), *out);
    });
}

vrb_status device_open(vrb_context *handle, uint32_t index, vrb_device **out)
{
    Context *context = from_abi(handle);
    if (!context || !out) return null_argument("context or output pointer");
    *out = nullptr;
    return call(context, [&] { *out = to_abi(std::make_unique<Device>(*context, index).release()); });
}

void device_close(vrb_device *device)
{
    delete from_abi(device);
}

vrb_status memory_kind_count(vrb_device *handle, uint32_t *out)
{
    Device *device = from_abi(handle);
    if (!device || !out) return null_argument("device or output pointer");
    return call(&device->context(), [&] { *out = static_cast<uint32_t>(device->kinds().size()); });
}

vrb_status memory_kind_describe(vrb_device *handle, uint32_t index, vrb_memory_kind_info *out)
{
    Device *device = from_abi(handle);
    if (!device || !out) return null_argument("device or output pointer");
    return call(&device->context(), [&] {
        const MemoryKind &kind = device->kind(index);
        vrb_memory_kind_info info{};
        info.struct_size = sizeof info;
        info.flags = kind.flags;
        plugin::copy_string(info.name, kind.name);
        info.heap_index = kind.heap_index;
        // Segmenting lifts Vulkan's per-allocation limit: one buffer may fill its heap.
        info.max_allocation_bytes = kind.heap_bytes;
        const uint32_t size = out->struct_size;
        std::memcpy(out, &info, std::min<std::size_t>(size, sizeof info));
        out->struct_size = size;
    });
}

vrb_status buffer_alloc(vrb_device *handle, uint32_t kind, uint64_t bytes, vrb_buffer **out)
{
    Device *device = from_abi(handle);
    if (!device || !out) return null_argument("device or output pointer");
    *out = nullptr;
    return call(&device->context(), [&] { *out = to_abi(&device->allocate_buffer(kind, bytes)); });
}

void buffer_free(vrb_buffer *handle)
{
    if (Buffer *buffer = from_abi(handle)) buffer->device().free_buffer(buffer);
}

vrb_status buffer_upload(vrb_buffer *handle, uint64_t offset, const void *src, uint64_t bytes)
{
    Buffer *buffer = from_abi(handle);
    if (!buffer) return null_argument("buffer");
    return call(&buffer->device().context(), [&] { upload(*buffer, offset, src, bytes); });
}

vrb_status buffer_download(vrb_buffer *handle, uint64_t offset, void *dst, uint64_t bytes)
{
    Buffer *buffer = from_abi(handle);
    if (!buffer) return null_argument("buffer");
    return call(&buffer->device().context(), [&] { download(*buffer, offset, dst, bytes); });
}

vrb_status run(vrb_device *handle, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    Device *device = from_abi(handle);
    if (!device) return null_argument("device");
    return call(&device->context(), [&] { run_operation(*device, op, repetitions, seconds, out); });
}

vrb_status buffer_export(vrb_buffer *handle, vrb_external_handle *out)
{
    Buffer *buffer = from_abi(handle);
    if (!buffer || !out) return null_argument("buffer or handle");
    return call(&buffer->device().context(), [&] { export_buffer(*buffer, *out); });
}

vrb_status buffer_import(vrb_device *handle, const vrb_external_handle *external, uint32_t, vrb_buffer **out)
{
    Device *device = from_abi(handle);
    if (!device || !out) return null_argument("device or output pointer");
    *out = nullptr;
    return call(&device->context(), [&] { *out = to_abi(&import_buffer(*device, external)); });
}

vrb_status buffer_alloc_exportable(vrb_device *handle, uint32_t kind, uint64_t bytes, uint32_t handle_type,
                                   vrb_buffer **out)
{
    Device *device = from_abi(handle);
    if (!device || !out) return null_argument("device or output pointer");
    *out = nullptr;
    return call(&device->context(), [&] { *out = to_abi(&allocate_exportable(*device, kind, bytes, handle_type)); });
}

const vrb_plugin_table kTable = {
    sizeof(vrb_plugin_table),
    VRB_ABI_VERSION,
    "vulkan",
    "Vulkan compute shaders and copy queues, through the loader found at run time",
    VRAMBENCH_VERSION,
    last_error,
    init,
    shutdown,
    device_count,
    device_describe,
    device_open,
    device_close,
    memory_kind_count,
    memory_kind_describe,
    buffer_alloc,
    buffer_free,
    buffer_upload,
    buffer_download,
    run,
    buffer_export,
    buffer_import,
    buffer_alloc_exportable,
};

} // namespace
} // namespace vrb::vulkan

VRB_DEFINE_PLUGIN_ENTRY(vrb::vulkan::kTable)
