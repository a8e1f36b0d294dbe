#include <vrambench/core/modules/external.hpp>

#include <fmt/format.h>

namespace vrb {

ExternalHandle::ExternalHandle(const vrb_external_handle &handle) : handle_(handle)
{
    if (is_fd()) fd_.reset(static_cast<int>(handle.handle));
}

bool ExternalHandle::is_fd() const
{
    return (handle_.type == VRB_EXTERNAL_OPAQUE_FD || handle_.type == VRB_EXTERNAL_DMA_BUF) && handle_.handle >= 0 &&
           handle_.handle <= INT32_MAX;
}

bool offers_export(const Module &module)
{
    return module.slot(&vrb_plugin_table::buffer_export) != nullptr;
}

bool offers_import(const Module &module)
{
    return module.slot(&vrb_plugin_table::buffer_import) != nullptr;
}

bool offers_exportable_alloc(const Module &module)
{
    return module.slot(&vrb_plugin_table::buffer_alloc_exportable) != nullptr;
}

namespace {

[[noreturn]] void unsupported(const Module &module, std::string_view slot)
{
    throw BackendError(VRB_ERROR_UNSUPPORTED,
                       fmt::format("the {} module offers no {} (external memory, ABI 1.2)", module.name(), slot));
}

} // namespace

std::unique_ptr<Buffer> allocate_exportable(Device &device, uint32_t kind, uint64_t bytes, uint32_t handle_type)
{
    const Module &module = device.module();
    const auto alloc = module.slot(&vrb_plugin_table::buffer_alloc_exportable);
    if (!alloc) unsupported(module, "buffer_alloc_exportable");
    device.pool().release_idle();
    vrb_buffer *handle = nullptr;
    module.check(alloc(device.handle(), kind, bytes, handle_type, &handle), "buffer_alloc_exportable");
    return std::make_unique<Buffer>(device.module_ptr(), handle, bytes, kind);
}

ExternalHandle export_buffer(const Buffer &buffer)
{
    const Module &module = buffer.module();
    const auto slot = module.slot(&vrb_plugin_table::buffer_export);
    if (!slot) unsupported(module, "buffer_export");
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.handle = -1;
    module.check(slot(buffer.handle(), &h), "buffer_export");
    return ExternalHandle(h);
}

std::unique_ptr<Buffer> import_buffer(Device &device, ExternalHandle &handle)
{
    const Module &module = device.module();
    const auto slot = module.slot(&vrb_plugin_table::buffer_import);
    if (!slot) unsupported(module, "buffer_import");
    vrb_buffer *imported = nullptr;
    module.check(slot(device.handle(), &handle.get(), 0, &imported), "buffer_import");
    handle.given_away();
    // Not from a kind of the importer's choosing: never returned to the run's pool.
    return std::make_unique<Buffer>(device.module_ptr(), imported, handle.get().bytes, UINT32_MAX);
}

} // namespace vrb
