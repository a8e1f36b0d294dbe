// The calibrated span against a real driver's clocks (lavapipe in CI): a queue's own
// timestamps, placed on CLOCK_MONOTONIC through VK_EXT_calibrated_timestamps, fall
// inside the host's window around the submission and keep the duration the queue's
// own ticks give. Run directly through volk, outside the backend, on the first device
// that offers the extension; skipped where none does.
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <volk.h>

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <ctime>
#include <vector>

namespace vrb::vulkan {
namespace {

uint64_t monotonic_ns()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
}

bool offers(VkPhysicalDevice physical)
{
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    bool listed = false;
    for (const auto &e : extensions)
        listed = listed || std::strcmp(e.extensionName, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) == 0;
    if (!listed) return false;
    count = 0;
    vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical, &count, nullptr);
    std::vector<VkTimeDomainEXT> domains(count);
    vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical, &count, domains.data());
    bool device = false, monotonic = false;
    for (VkTimeDomainEXT d : domains) {
        device = device || d == VK_TIME_DOMAIN_DEVICE_EXT;
        monotonic = monotonic || d == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    }
    return device && monotonic;
}

// Everything the test creates, destroyed in reverse whatever the test's outcome.
struct Session {
    VkInstance instance = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~Session()
    {
        if (device) {
            if (fence) vkDestroyFence(device, fence, nullptr);
            if (queries) vkDestroyQueryPool(device, queries, nullptr);
            if (pool) vkDestroyCommandPool(device, pool, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

#define VK_OK(call) ASSERT_EQ((call), VK_SUCCESS) << #call

TEST(CalibratedTimestamps, place_a_real_queue_run_inside_the_host_window_with_its_own_duration)
{
    if (volkInitialize() != VK_SUCCESS) GTEST_SKIP() << "no Vulkan loader";
    Session s;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app;
    VK_OK(vkCreateInstance(&instance_info, nullptr, &s.instance));
    volkLoadInstance(s.instance);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(s.instance, &count, nullptr);
    std::vector<VkPhysicalDevice> physicals(count);
    vkEnumeratePhysicalDevices(s.instance, &count, physicals.data());
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    for (VkPhysicalDevice p : physicals)
        if (!physical && offers(p)) physical = p;
    if (!physical) GTEST_SKIP() << "no device offers VK_EXT_calibrated_timestamps with CLOCK_MONOTONIC";

    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(physical, &properties);
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
    uint32_t family = 0;
    while (family < family_count &&
           (!(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT) || families[family].timestampValidBits == 0))
        ++family;
    if (family == family_count) GTEST_SKIP() << "no compute queue with timestamps";
    const uint32_t bits = families[family].timestampValidBits;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    const char *extension = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
    VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &extension;
    VK_OK(vkCreateDevice(physical, &device_info, nullptr, &s.device));
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(s.device, family, 0, &queue);

    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = family;
    VK_OK(vkCreateCommandPool(s.device, &pool_info, nullptr, &s.pool));
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    VK_OK(vkCreateQueryPool(s.device, &query_info, nullptr, &s.queries));
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_OK(vkCreateFence(s.device, &fence_info, nullptr, &s.fence));

    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = s.pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VK_OK(vkAllocateCommandBuffers(s.device, &allocate, &commands));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK_OK(vkBeginCommandBuffer(commands, &begin));
    vkCmdResetQueryPool(commands, s.queries, 0, 2);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 0);
    // Something between the two timestamps, so that they differ on a coarse counter.
    for (int i = 0; i < 64; ++i)
        vkCmdResetQueryPool(commands, s.queries, 1, 1);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
    VK_OK(vkEndCommandBuffer(commands));

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    HostWindow window;
    window.begin_ns = monotonic_ns();
    VK_OK(vkQueueSubmit(queue, 1, &submit, s.fence));
    VK_OK(vkWaitForFences(s.device, 1, &s.fence, VK_TRUE, UINT64_MAX));
    window.end_ns = monotonic_ns();
    std::array<uint64_t, 2> t{};
    VK_OK(vkGetQueryPoolResults(s.device, s.queries, 0, 2, sizeof t, t.data(), sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));

    const std::array<VkCalibratedTimestampInfoEXT, 2> infos{
        VkCalibratedTimestampInfoEXT{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
                                     VK_TIME_DOMAIN_DEVICE_EXT},
        VkCalibratedTimestampInfoEXT{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
                                     VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
    std::array<uint64_t, 2> now{};
    uint64_t deviation = 0;
    VK_OK(vkGetCalibratedTimestampsEXT(s.device, 2, infos.data(), now.data(), &deviation));

    const double period = properties.limits.timestampPeriod;
    if (t[0] == t[1]) GTEST_SKIP() << "the counter did not move between the two timestamps";
    const double own = timestamp_seconds(t[0], t[1], bits, period);
    const std::array<QueueRun, 1> runs{QueueRun{t[0], t[1], ClockPair{now[0], now[1]}}};
    double span = 0;
    try {
        span = calibrated_span_seconds(runs, bits, period, window, deviation);
    } catch (const plugin::Failure &failure) {
        FAIL() << failure.what() << " (window " << window.begin_ns << " to " << window.end_ns << " ns, deviation "
               << deviation << " ns)";
    }
    EXPECT_NEAR(span, own, own * 1e-9 + 1e-12);
    EXPECT_LE(span, double(window.end_ns - window.begin_ns) * 1e-9 + double(deviation) * 1e-9 + 1e-5);
}

} // namespace
} // namespace vrb::vulkan
