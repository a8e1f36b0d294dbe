// The C boundary: the function table of plugin.h, each entry guarded so that no
// exception crosses it, and the negotiating entry point.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <cstring>
#include <memory>

#ifndef VRB_MODULE_VERSION
#define VRB_MODULE_VERSION "0.0.0"
#endif

using vrb::plugin::fail;
using vrb::plugin::guard;

namespace {

template <typename T> void require(const T *pointer, const char *what)
{
    if (!pointer) fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + " is missing");
}

// The host sized the struct: it must hold at least struct_size itself.
template <typename Info> void check_size(const Info *out, const char *what)
{
    require(out, what);
    if (out->struct_size < sizeof(uint32_t))
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + " has a struct_size too small to hold anything");
}

// Fills what fits of ours, and says how much that was.
template <typename Info> void deliver(const Info &full, Info *out)
{
    const std::size_t size = std::min<std::size_t>(out->struct_size, sizeof(Info));
    std::memcpy(static_cast<void *>(out), &full, size);
    out->struct_size = static_cast<uint32_t>(size);
}

const char *last_error()
{
    return vrb::plugin::last_error();
}

vrb_status init(const vrb_host_table *host, vrb_context **out)
{
    return guard([&] {
        require(out, "the context out-pointer");
        *out = nullptr;
        *out = vrb::gpu::create_context(host).release();
    });
}

// Handles come back here to be destroyed by the owner they were released from.
void shutdown_context(vrb_context *context)
{
    std::unique_ptr<vrb_context> owned(context);
}

vrb_status device_count(vrb_context *context, uint32_t *out)
{
    return guard([&] {
        require(context, "the context");
        require(out, "the count out-pointer");
        *out = static_cast<uint32_t>(context->device_count);
    });
}

void check_index(const vrb_context &context, uint32_t index)
{
    if (index >= static_cast<uint32_t>(context.device_count))
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "device " + std::to_string(index) + " does not exist; there are " + std::to_string(context.device_count));
}

vrb_status device_describe(vrb_context *context, uint32_t index, vrb_device_info *out)
{
    return guard([&] {
        require(context, "the context");
        check_size(out, "the device info");
        check_index(*context, index);
        auto info = std::make_unique<vrb_device_info>(); // large: kept off the stack
        vrb::gpu::describe_device(static_cast<int>(index), *info);
        deliver(*info, out);
    });
}

vrb_status device_open(vrb_context *context, uint32_t index, vrb_device **out)
{
    return guard([&] {
        require(context, "the context");
        require(out, "the device out-pointer");
        *out = nullptr;
        check_index(*context, index);
        *out = vrb::gpu::open_device(*context, static_cast<int>(index)).release();
    });
}

void device_close(vrb_device *device)
{
    std::unique_ptr<vrb_device> owned(device);
}

vrb_status memory_kind_count(vrb_device *device, uint32_t *out)
{
    return guard([&] {
        require(device, "the device");
        require(out, "the count out-pointer");
        *out = static_cast<uint32_t>(device->kinds.size());
    });
}

vrb_status memory_kind_describe(vrb_device *device, uint32_t kind, vrb_memory_kind_info *out)
{
    return guard([&] {
        require(device, "the device");
        check_size(out, "the memory kind info");
        vrb_memory_kind_info info{};
        vrb::gpu::describe_memory_kind(*device, kind, info);
        deliver(info, out);
    });
}

vrb_status buffer_alloc(vrb_device *device, uint32_t kind, uint64_t bytes, vrb_buffer **out)
{
    return guard([&] {
        require(device, "the device");
        require(out, "the buffer out-pointer");
        *out = nullptr;
        *out = vrb::gpu::allocate_buffer(*device, kind, bytes).release();
    });
}

void buffer_free(vrb_buffer *buffer)
{
    std::unique_ptr<vrb_buffer> owned(buffer);
}

vrb_status buffer_upload(vrb_buffer *buffer, uint64_t offset, const void *src, uint64_t bytes)
{
    return guard([&] {
        require(buffer, "the buffer");
        vrb::gpu::upload(*buffer, offset, src, bytes);
    });
}

vrb_status buffer_download(vrb_buffer *buffer, uint64_t offset, void *dst, uint64_t bytes)
{
    return guard([&] {
        require(buffer, "the buffer");
        vrb::gpu::download(*buffer, offset, dst, bytes);
    });
}

vrb_status run(vrb_device *device, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    return guard([&] {
        require(device, "the device");
        require(op, "the operation");
        check_size(out, "the output");
        vrb_op_output result{};
        vrb::gpu::run_operation(*device, *op, repetitions, seconds, result);
        deliver(result, out);
    });
}

#if defined(VRB_GPU_HIP)
constexpr const char *kDescription = "AMD GPUs through HIP: kernels, copy engines and hipEvent timing";
#else
constexpr const char *kDescription = "NVIDIA GPUs through CUDA: kernels, copy engines and cudaEvent timing";
#endif

// External memory (cuMemCreate + cuMemExportToShareableHandle, cudaImportExternalMemory,
// cudaHostRegister; the HIP equivalents) is not implemented in this module yet: the slots
// stay absent, so the core forms no CUDA or HIP interop pair.
const vrb_plugin_table table = {
    sizeof(vrb_plugin_table),
    VRB_ABI_VERSION,
    vrb::gpu::kBackendName,
    kDescription,
    VRB_MODULE_VERSION,
    last_error,
    init,
    shutdown_context,
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
    nullptr, // buffer_export
    nullptr, // buffer_import
    nullptr, // buffer_alloc_exportable
};

} // namespace

#if defined(VRB_GPU_HIP)
// The HIP module proper sits behind backends/hip's loader, which loads it only once
// the HIP runtime can be loaded; its entry has its own name so it is never mistaken
// for a backend of its own.
#define vrb_plugin_entry vrb_hip_runtime_entry
#endif
VRB_DEFINE_PLUGIN_ENTRY(table)
