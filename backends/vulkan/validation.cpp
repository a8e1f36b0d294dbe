#include "validation.hpp"

#include <vrambench/plugin_support.hpp>

#include <cstring>

namespace vrb::vulkan {

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    try {
        const char *id = data ? data->pMessageIdName : nullptr;
        if (!counts_as_failure(severity, id)) return VK_FALSE;
        std::string text = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
        if (id) text += std::string(" [") + id + "]";
        if (data && data->pMessage) text += std::string(": ") + data->pMessage;
        static_cast<ValidationLog *>(user)->record(std::move(text));
    } catch (...) {
        // Nothing may leave a Vulkan callback; a message lost to low memory is acceptable.
    }
    return VK_FALSE; // never abort the call: the ABI call fails afterwards instead
}

} // namespace

void ValidationLog::record(std::string message)
{
    std::lock_guard lock(mutex_);
    messages_.push_back(std::move(message));
}

bool ValidationLog::pending() const
{
    std::lock_guard lock(mutex_);
    return !messages_.empty();
}

void ValidationLog::raise_pending()
{
    std::vector<std::string> messages;
    {
        std::lock_guard lock(mutex_);
        messages.swap(messages_);
    }
    if (messages.empty()) return;
    std::string text = "Vulkan validation " + messages.front();
    if (messages.size() > 1) text += " (and " + std::to_string(messages.size() - 1) + " more validation messages)";
    plugin::fail(VRB_ERROR_DEVICE, text);
}

bool counts_as_failure(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char *message_id_name)
{
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return false;
    return !(message_id_name && std::strcmp(message_id_name, "Loader Message") == 0);
}

VkDebugUtilsMessengerCreateInfoEXT messenger_create_info(ValidationLog &log)
{
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = on_message;
    info.pUserData = &log;
    return info;
}

} // namespace vrb::vulkan
