// Memory shared between APIs (ABI 1.2, docs/interop.md): the host side of the
// buffer_alloc_exportable, buffer_export and buffer_import slots, with every exported fd
// owned by exactly one object until an importer takes it.
#pragma once

#include <vrambench/core/modules/backend.hpp>
#include <vrambench/external_handle.hpp>
#include <vrambench/plugin.h>

#include <memory>

namespace vrb {

// An exported handle. An fd it carries is closed with it unless an import took it.
class ExternalHandle {
  public:
    ExternalHandle() = default;
    // Takes ownership of the fd in `handle` when its type is an fd.
    explicit ExternalHandle(const vrb_external_handle &handle);
    ExternalHandle(ExternalHandle &&) = default;
    ExternalHandle &operator=(ExternalHandle &&) = default;

    const vrb_external_handle &get() const { return handle_; }
    vrb_external_handle &edit() { return handle_; } // for tests that feed bad handles
    bool is_fd() const;
    // The importer took the fd: it is no longer ours to close.
    void given_away() { fd_.release(); }

  private:
    vrb_external_handle handle_{};
    plugin::UniqueFd fd_;
};

// The module has the slot (its table is long enough and the slot is set).
bool offers_export(const Module &module);
bool offers_import(const Module &module);
bool offers_exportable_alloc(const Module &module);

// Each throws BackendError (VRB_ERROR_UNSUPPORTED where the module lacks the slot).
std::unique_ptr<Buffer> allocate_exportable(Device &device, uint32_t kind, uint64_t bytes, uint32_t handle_type);
ExternalHandle export_buffer(const Buffer &buffer);
// On success the device's module owns the fd; on failure `handle` still does and closes
// it when it goes (plugin.h: the caller closes on failure).
std::unique_ptr<Buffer> import_buffer(Device &device, ExternalHandle &handle);

} // namespace vrb
