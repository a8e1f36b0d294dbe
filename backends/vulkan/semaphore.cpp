// Timeline semaphores as the ABI shares them. A device-side signal is a submission of
// no command buffer to the compute queue; a device-side wait is kept by the Device and
// joins the next submission of any kind (commands.hpp), so no later work starts before it.
#include "semaphore.hpp"

#include "device.hpp"
#include "external_memory.hpp"

#include <vrambench/external_handle.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace vrb::vulkan {

namespace {

constexpr VkExternalSemaphoreHandleTypeFlagBits kSemaphoreOpaqueFd = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;

std::string hex(uint32_t value)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%x", value);
    return text;
}

std::string features_text(VkExternalSemaphoreFeatureFlags features)
{
    const bool out = features & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT;
    const bool in = features & VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
    if (out && in) return "exportable and importable";
    if (out) return "exportable, not importable";
    if (in) return "importable, not exportable";
    return "neither exportable nor importable";
}

Owned<VkSemaphore> create_timeline(const Device &device, const void *next)
{
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.pNext = next;
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type.initialValue = 0;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    check(vkCreateSemaphore(device.handle(), &info, nullptr, &semaphore), "creating a timeline semaphore");
    return Owned<VkSemaphore>(device.handle(), semaphore);
}

} // namespace

Semaphore::Semaphore(Device &device, Owned<VkSemaphore> semaphore, bool exportable)
    : device_(device), semaphore_(std::move(semaphore)), exportable_(exportable)
{
}

Semaphore::~Semaphore()
{
    device_.forget_waits(*this);
    // Nothing to do with a failure here: the device is lost and destruction goes on.
    (void)vkDeviceWaitIdle(device_.handle());
}

void Semaphore::export_handle(vrb_external_handle &handle)
{
    device_.context().validation().watch([&] { write_handle(handle); });
}

void Semaphore::host_wait(uint64_t value, uint64_t timeout_ns)
{
    device_.context().validation().watch([&] { wait_for(value, timeout_ns); });
}

void Semaphore::write_handle(vrb_external_handle &h)
{
    if (!exportable_)
        fail(VRB_ERROR_UNSUPPORTED, "the semaphore was imported: only one created exportable has an fd to give");
    VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    info.semaphore = semaphore_.get();
    info.handleType = kSemaphoreOpaqueFd;
    int fd = -1;
    check(vkGetSemaphoreFdKHR(device_.handle(), &info, &fd), "exporting a semaphore as an opaque fd");
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.bytes = 0;
    h.allocation_bytes = 0;
    h.memory_type_index = UINT32_MAX;
    h.flags = 0;
    name_exporter(device_.physical(), h);
}

void Semaphore::wait_for(uint64_t value, uint64_t timeout_ns)
{
    const VkSemaphore semaphore = semaphore_.get();
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.semaphoreCount = 1;
    info.pSemaphores = &semaphore;
    info.pValues = &value;
    const VkResult result = vkWaitSemaphores(device_.handle(), &info, timeout_ns);
    if (result == VK_TIMEOUT) {
        uint64_t now = 0;
        check(vkGetSemaphoreCounterValue(device_.handle(), semaphore, &now), "reading a semaphore's value");
        fail(VRB_ERROR_DEVICE, "the semaphore holds " + std::to_string(now) + " after " + std::to_string(timeout_ns) +
                                   " ns of waiting for " + std::to_string(value));
    }
    check(result, "waiting for a semaphore");
}

std::vector<const char *> external_semaphore_extensions(const PhysicalDevice &physical)
{
    std::vector<const char *> names;
    if (physical.has_extension(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
        names.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    return names;
}

std::string semaphore_sharing_gap(const Device &device)
{
    const PhysicalDevice &p = device.physical();
    const std::string name = p.properties.deviceName;
    if (p.api_version < VK_API_VERSION_1_2)
        return name + " is used through Vulkan " + version_string(p.api_version) +
               ": timeline semaphores need Vulkan 1.2";
    if (!p.timeline_semaphore)
        return name + " has no timeline semaphores (VkPhysicalDeviceVulkan12Features::timelineSemaphore is false)";
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
    info.pNext = &type;
    info.handleType = kSemaphoreOpaqueFd;
    VkExternalSemaphoreProperties properties{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
    vkGetPhysicalDeviceExternalSemaphoreProperties(p.handle, &info, &properties);
    const VkExternalSemaphoreFeatureFlags both =
        VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
    const bool shares = (properties.externalSemaphoreFeatures & both) == both &&
                        (properties.compatibleHandleTypes & kSemaphoreOpaqueFd);
    const bool extension = device.extension_enabled(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    if (shares && extension) return "";
    std::string gap = name + " cannot share a timeline semaphore as an opaque fd: " +
                      "vkGetPhysicalDeviceExternalSemaphoreProperties answered externalSemaphoreFeatures " +
                      hex(properties.externalSemaphoreFeatures) + " (" +
                      features_text(properties.externalSemaphoreFeatures) + "), compatibleHandleTypes " +
                      hex(properties.compatibleHandleTypes);
    if (!extension) gap += "; the device does not offer " VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
    return gap;
}

std::unique_ptr<Semaphore> create_exportable_semaphore(Device &device, uint32_t handle_type)
{
    if (handle_type != VRB_EXTERNAL_OPAQUE_FD)
        fail(VRB_ERROR_UNSUPPORTED, "the Vulkan backend exports semaphores as opaque fds only, not handle type " +
                                        std::to_string(handle_type));
    if (const std::string gap = semaphore_sharing_gap(device); !gap.empty()) fail(VRB_ERROR_UNSUPPORTED, gap);
    VkExportSemaphoreCreateInfo exported{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
    exported.handleTypes = kSemaphoreOpaqueFd;
    return std::make_unique<Semaphore>(device, create_timeline(device, &exported), true);
}

std::unique_ptr<Semaphore> import_semaphore(Device &device, const vrb_external_handle &handle)
{
    plugin::check_semaphore_handle(&handle, importer_identity(device));
    if (const std::string gap = semaphore_sharing_gap(device); !gap.empty()) fail(VRB_ERROR_UNSUPPORTED, gap);
    Owned<VkSemaphore> semaphore = create_timeline(device, nullptr);
    // As for memory: the driver gets a duplicate, so a failure leaves the caller's fd
    // theirs, and the caller's is closed only once the import has succeeded.
    plugin::UniqueFd duplicate(::fcntl(static_cast<int>(handle.handle), F_DUPFD_CLOEXEC, 0));
    if (duplicate.get() < 0)
        fail(VRB_ERROR_DEVICE,
             "cannot duplicate file descriptor " + std::to_string(handle.handle) + ": " + std::strerror(errno));
    VkImportSemaphoreFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR};
    import.semaphore = semaphore.get();
    import.handleType = kSemaphoreOpaqueFd;
    import.fd = duplicate.get();
    check(vkImportSemaphoreFdKHR(device.handle(), &import), "importing a semaphore from an opaque fd");
    duplicate.release(); // the driver owns it now
    auto imported = std::make_unique<Semaphore>(device, std::move(semaphore), false);
    ::close(static_cast<int>(handle.handle)); // imported: the fd the caller gave is ours to close
    return imported;
}

} // namespace vrb::vulkan
