// Validation messages turn into the failure of an ABI call.
#include "validation.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

namespace vrb::vulkan {
namespace {

TEST(ValidationLog, fails_the_call_with_the_first_message_and_then_forgets_it)
{
    ValidationLog log;
    EXPECT_NO_THROW(log.raise_pending());
    log.record("error [VUID-x]: first");
    log.record("warning: second");
    EXPECT_TRUE(log.pending());
    try {
        log.raise_pending();
        FAIL() << "no failure";
    } catch (const plugin::Failure &f) {
        EXPECT_EQ(f.status(), VRB_ERROR_DEVICE);
        EXPECT_NE(std::string(f.what()).find("first"), std::string::npos);
        EXPECT_NE(std::string(f.what()).find("1 more"), std::string::npos);
    }
    EXPECT_FALSE(log.pending());
}

TEST(ValidationLog, counts_warnings_and_errors_but_not_information_or_loader_notes)
{
    EXPECT_TRUE(counts_as_failure(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "VUID-vkCmdDispatch-None-02697"));
    EXPECT_TRUE(counts_as_failure(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, nullptr));
    EXPECT_FALSE(counts_as_failure(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, "anything"));
    EXPECT_FALSE(counts_as_failure(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, "Loader Message"));
}

TEST(ValidationLog, receives_what_the_messenger_callback_is_given)
{
    ValidationLog log;
    const VkDebugUtilsMessengerCreateInfoEXT info = messenger_create_info(log);
    VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
    data.pMessageIdName = "VUID-test";
    data.pMessage = "a buffer was misused";
    EXPECT_EQ(info.pfnUserCallback(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data, info.pUserData),
              VK_FALSE);
    try {
        log.raise_pending();
        FAIL() << "no failure";
    } catch (const plugin::Failure &f) {
        EXPECT_NE(std::string(f.what()).find("a buffer was misused"), std::string::npos);
        EXPECT_NE(std::string(f.what()).find("VUID-test"), std::string::npos);
    }
}

} // namespace
} // namespace vrb::vulkan
