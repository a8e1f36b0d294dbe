// A loaded, initialised backend (vrb_context): the Vulkan loader opened through volk,
// one VkInstance, its physical devices, and the validation messenger when asked for.
// It is the Context of vrb::plugin::make_table (plugin.cpp), which checks indices and
// sizes before these members run.
#pragma once

#include "handles.hpp"
#include "options.hpp"
#include "validation.hpp"

#include <memory>
#include <string>
#include <vector>

namespace vrb::vulkan {

class Device;

class Context {
  public:
    // Throws Failure(VRB_ERROR_UNAVAILABLE) with the reason when there is no loader,
    // no driver or no device.
    explicit Context(const vrb_host_table *host);
    ~Context();
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;

    // The ABI's calls; each fails when the validation layer spoke (validation.hpp).
    uint32_t device_count();
    void describe(uint32_t index, vrb_device_info &info);
    std::unique_ptr<Device> open(uint32_t index);

    VkInstance instance() const noexcept { return instance_.get(); }
    uint32_t api_version() const noexcept { return api_version_; }
    // index < device_count(): the adapter checked it.
    VkPhysicalDevice physical_device(uint32_t index) const noexcept { return devices_[index]; }
    const Options &options() const noexcept { return options_; }
    ValidationLog &validation() noexcept { return validation_; }

    void log(vrb_log_level level, const std::string &message) const noexcept;
    bool cancelled() const noexcept;

    // Devices the host leaves open are closed with the context, before the instance.
    void adopt(Device *device);
    void forget(Device *device) noexcept;

  private:
    struct Host {
        void *user = nullptr;
        void (*log)(void *, int32_t, const char *) = nullptr;
        int32_t (*is_cancelled)(void *) = nullptr;
    };

    class Messenger {
      public:
        Messenger() = default;
        Messenger(VkInstance instance, VkDebugUtilsMessengerEXT messenger) : instance_(instance), messenger_(messenger)
        {
        }
        Messenger(const Messenger &) = delete;
        Messenger &operator=(const Messenger &) = delete;
        Messenger &operator=(Messenger &&other) noexcept;
        ~Messenger() { reset(); }
        void reset() noexcept;

      private:
        VkInstance instance_ = VK_NULL_HANDLE;
        VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    };

    void create_instance();

    Host host_;
    Options options_;
    // Declared before the instance: the messenger reports into it until the end.
    ValidationLog validation_;
    OwnedInstance instance_;
    Messenger messenger_;
    uint32_t api_version_ = 0;
    std::vector<VkPhysicalDevice> devices_;
    std::vector<Device *> open_;
};

} // namespace vrb::vulkan
