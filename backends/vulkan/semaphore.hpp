// Timeline semaphores shared with other devices and APIs (ABI 1.4): created exportable
// as an opaque POSIX fd (VK_KHR_external_semaphore_fd), or imported from one another
// device exported. It is the Semaphore of vrb::plugin::make_table (plugin.cpp).
#pragma once

#include "handles.hpp"

#include <vrambench/plugin.h>

#include <memory>
#include <string>
#include <vector>

namespace vrb::vulkan {

class Device;
struct PhysicalDevice;

class Semaphore {
  public:
    Semaphore(Device &device, Owned<VkSemaphore> semaphore, bool exportable);
    // Drops the device-side waits on it not yet submitted, then waits for the device's
    // queues: a semaphore a pending submission uses cannot be destroyed.
    ~Semaphore();
    Semaphore(const Semaphore &) = delete;
    Semaphore &operator=(const Semaphore &) = delete;

    Device &owner() const noexcept { return device_; }
    VkSemaphore get() const noexcept { return semaphore_.get(); }
    // Writes a new fd the caller owns. Throws Failure(VRB_ERROR_UNSUPPORTED) for an
    // imported semaphore, which this module does not hand on.
    void export_handle(vrb_external_handle &handle);
    void host_wait(uint64_t value, uint64_t timeout_ns);

  private:
    void write_handle(vrb_external_handle &handle);
    void wait_for(uint64_t value, uint64_t timeout_ns);

    Device &device_;
    Owned<VkSemaphore> semaphore_;
    bool exportable_;
};

// The extensions a device is created with for sharing semaphores, those the driver offers.
std::vector<const char *> external_semaphore_extensions(const PhysicalDevice &physical);

// Why the device cannot share timeline semaphores as opaque fds, in the driver's own
// answers, or "" when it can.
std::string semaphore_sharing_gap(const Device &device);

// Throws Failure(VRB_ERROR_UNSUPPORTED) with semaphore_sharing_gap() where it cannot.
std::unique_ptr<Semaphore> create_exportable_semaphore(Device &device, uint32_t handle_type);
// Checks the handle before any driver call; on success the semaphore owns the fd.
std::unique_ptr<Semaphore> import_semaphore(Device &device, const vrb_external_handle &handle);

} // namespace vrb::vulkan
