// Timeline semaphores shared between APIs (ABI 1.4, docs/interop.md): the host side of
// the semaphore slots, each semaphore an RAII object freed before its device, and every
// exported fd owned by exactly one object until an importer takes it.
#pragma once

#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/external.hpp>
#include <vrambench/plugin.h>

#include <memory>
#include <optional>
#include <string>

namespace vrb {

// What a module lacks to create and export semaphores, or to import them, in words
// ("the cuda module has no semaphore_import (external semaphores, ABI 1.4)"); nothing
// when it has every slot that side needs. Both sides need signal, device wait, host
// wait and free.
std::optional<std::string> semaphore_export_gap(const Module &module);
std::optional<std::string> semaphore_import_gap(const Module &module);

class Semaphore {
  public:
    // The device must outlive the semaphore.
    Semaphore(Device &device, vrb_semaphore *handle);
    ~Semaphore();
    Semaphore(const Semaphore &) = delete;
    Semaphore &operator=(const Semaphore &) = delete;

    Device &device() const { return device_; }
    vrb_semaphore *handle() const { return handle_; }

    // Enqueued on the semaphore's device; each throws BackendError.
    void signal(uint64_t value);
    void device_wait(uint64_t value);
    // Blocks until the counter reaches value; BackendError (VRB_ERROR_DEVICE) on timeout.
    void host_wait(uint64_t value, uint64_t timeout_ns);

  private:
    Device &device_;
    vrb_semaphore *handle_;
};

// Each throws BackendError (VRB_ERROR_UNSUPPORTED where the module lacks the slots).
std::unique_ptr<Semaphore> create_exportable_semaphore(Device &device, uint32_t handle_type);
ExternalHandle export_semaphore(const Semaphore &semaphore);
// On success the device's module owns the fd; on failure `handle` still does and closes
// it when it goes (plugin.h: the caller closes on failure).
std::unique_ptr<Semaphore> import_semaphore(Device &device, ExternalHandle &handle);

} // namespace vrb
