// With VRAMBENCH_VULKAN_VALIDATION=1 the Khronos validation layer watches every Vulkan
// call. Its warnings and errors are collected here, and the ABI call during which one
// arrived (or the next one, after a call that cannot fail) fails with VRB_ERROR_DEVICE
// and the message, so no test passes while the backend misuses Vulkan.
#pragma once

#include <vulkan/vulkan_core.h>

#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace vrb::vulkan {

class ValidationLog {
  public:
    // Thread-safe: drivers may report from their own threads.
    void record(std::string message);
    bool pending() const;
    // Throws Failure(VRB_ERROR_DEVICE) with the first message and the number of others,
    // and forgets them, when any arrived since the last call.
    void raise_pending();

    // One ABI call's body between two looks at the log: a message left behind by a call
    // that cannot fail (a free, a close) fails this one, and a message the body caused
    // fails it even when the body itself succeeded. When the body throws after a
    // message arrived, the message is the likelier cause and is what the call reports.
    template <typename Body> decltype(auto) watch(Body &&body)
    {
        raise_pending();
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<Body &>>) {
                body();
                raise_pending();
            } else {
                auto result = body();
                raise_pending();
                return result;
            }
        } catch (...) {
            if (pending()) raise_pending();
            throw;
        }
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> messages_;
};

// Whether a debug-utils message fails the call: warnings and errors of the validation
// layer do; the loader's own notes about drivers it skipped do not.
bool counts_as_failure(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char *message_id_name);

// A messenger description whose callback records into `log` (which must outlive it).
VkDebugUtilsMessengerCreateInfoEXT messenger_create_info(ValidationLog &log);

} // namespace vrb::vulkan
