#include "context.hpp"

#include "device.hpp"
#include "device_info.hpp"
#include "loader_libraries.hpp"
#include "splitting.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace vrb::vulkan {

namespace {

constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_extension(const std::vector<VkExtensionProperties> &list, const char *name)
{
    return std::any_of(list.begin(), list.end(),
                       [&](const VkExtensionProperties &e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<VkExtensionProperties> instance_extensions(const char *layer)
{
    uint32_t count = 0;
    check(vkEnumerateInstanceExtensionProperties(layer, &count, nullptr), "listing instance extensions");
    std::vector<VkExtensionProperties> list(count);
    check(vkEnumerateInstanceExtensionProperties(layer, &count, list.data()), "listing instance extensions");
    list.resize(count);
    return list;
}

bool has_layer(const char *name)
{
    uint32_t count = 0;
    check(vkEnumerateInstanceLayerProperties(&count, nullptr), "listing instance layers");
    std::vector<VkLayerProperties> layers(count);
    check(vkEnumerateInstanceLayerProperties(&count, layers.data()), "listing instance layers");
    layers.resize(count);
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties &l) { return std::strcmp(l.layerName, name) == 0; });
}

// Where the loader was told to look for drivers, for the "no device" message.
std::string driver_search_note()
{
    std::string note;
    for (const char *variable : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"}) {
        if (const char *value = std::getenv(variable); value && *value)
            note += std::string(note.empty() ? " (" : ", ") + variable + "=" + value;
    }
    return note.empty() ? note : note + ")";
}

} // namespace

Context::Messenger &Context::Messenger::operator=(Messenger &&other) noexcept
{
    if (this != &other) {
        reset();
        instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
        messenger_ = std::exchange(other.messenger_, VK_NULL_HANDLE);
    }
    return *this;
}

void Context::Messenger::reset() noexcept
{
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
}

Context::Context(const vrb_host_table *host)
{
    if (host) {
        if (VRB_FITS(*host, user)) host_.user = host->user;
        if (VRB_FITS(*host, log)) host_.log = host->log;
        if (VRB_FITS(*host, is_cancelled)) host_.is_cancelled = host->is_cancelled;
    }
    options_ = read_options();

#if defined(VRAMBENCH_SANITIZED)
    // Before the loader opens any of them (loader_libraries.hpp says why).
    std::vector<std::string> layers;
    if (options_.validation) layers.emplace_back(kValidationLayer);
    pin_libraries(loader_libraries(layers, [](const char *name) { return std::getenv(name); }));
#endif
    if (volkInitialize() != VK_SUCCESS)
        fail(VRB_ERROR_UNAVAILABLE, "the Vulkan loader (libvulkan.so.1) is not installed or could not be loaded");
    create_instance();

    uint32_t count = 0;
    VkResult result = vkEnumeratePhysicalDevices(instance_.get(), &count, nullptr);
    if (result == VK_ERROR_INITIALIZATION_FAILED || (result >= 0 && count == 0))
        fail(VRB_ERROR_UNAVAILABLE, "the Vulkan loader found no device: no Vulkan driver is installed or none "
                                    "found a device" +
                                        driver_search_note());
    check(result, "listing Vulkan devices");
    devices_.resize(count);
    check(vkEnumeratePhysicalDevices(instance_.get(), &count, devices_.data()), "listing Vulkan devices");
    devices_.resize(count);
    validation_.raise_pending();
}

Context::~Context()
{
    while (!open_.empty())
        delete open_.back(); // each removes itself
}

void Context::adopt(Device *device)
{
    open_.push_back(device);
}

void Context::forget(Device *device) noexcept
{
    std::erase(open_, device);
}

void Context::create_instance()
{
    if (!vkEnumerateInstanceVersion)
        fail(VRB_ERROR_UNAVAILABLE, "the Vulkan loader speaks only Vulkan 1.0; vrambench needs 1.1 or newer");
    uint32_t loader_version = 0;
    check(vkEnumerateInstanceVersion(&loader_version), "asking the loader's Vulkan version");
    if (loader_version < VK_API_VERSION_1_1)
        fail(VRB_ERROR_UNAVAILABLE,
             "the Vulkan loader speaks Vulkan " + version_string(loader_version) + "; vrambench needs 1.1 or newer");
    api_version_ = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

    std::vector<const char *> layers, extensions;
    const std::vector<VkExtensionProperties> available = instance_extensions(nullptr);
    VkInstanceCreateFlags flags = 0;
    // Drivers layered over another API (MoltenVK) list themselves only when asked.
    if (has_extension(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = messenger_create_info(validation_);
    if (options_.validation) {
        if (!has_layer(kValidationLayer))
            fail(VRB_ERROR_UNAVAILABLE, std::string("VRAMBENCH_VULKAN_VALIDATION is set but the validation layer ") +
                                            kValidationLayer + " is not installed (Debian: vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        if (!has_extension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
            !has_extension(instance_extensions(kValidationLayer), VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            fail(VRB_ERROR_UNAVAILABLE, "VRAMBENCH_VULKAN_VALIDATION is set but " VK_EXT_DEBUG_UTILS_EXTENSION_NAME
                                        " is missing, so validation messages could not be seen");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vrambench";
    app.pEngineName = "vrambench";
    app.apiVersion = api_version_;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    // Chained here, the messenger also sees what happens inside vkCreateInstance.
    info.pNext = options_.validation ? &messenger_info : nullptr;
    info.flags = flags;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();

    VkInstance instance = VK_NULL_HANDLE;
    const VkResult result = vkCreateInstance(&info, nullptr, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED)
        fail(VRB_ERROR_UNAVAILABLE, std::string("no usable Vulkan driver: vkCreateInstance returned ") +
                                        result_name(result) + driver_search_note());
    check(result, "creating the Vulkan instance");
    instance_ = OwnedInstance(instance);
    volkLoadInstance(instance);

    if (options_.validation) {
        VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
        check(vkCreateDebugUtilsMessengerEXT(instance, &messenger_info, nullptr, &messenger),
              "creating the validation messenger");
        messenger_ = Messenger(instance, messenger);
        log(VRB_LOG_INFO, "Vulkan validation layer enabled");
    }
}

uint32_t Context::device_count()
{
    return validation_.watch([&] { return static_cast<uint32_t>(devices_.size()); });
}

void Context::describe(uint32_t index, vrb_device_info &info)
{
    validation_.watch([&] {
        const PhysicalDevice physical = query_physical_device(devices_[index], api_version_);
        describe_device(physical, info);
        // What one exported or imported buffer may hold: one allocation bound as one
        // segment (external_memory.cpp refuses more), so interop probes plan within it.
        plugin::add_property(info, "external.max_bytes",
                             std::to_string(choose_segment_bytes(physical.properties.limits.maxStorageBufferRange,
                                                                 physical.maintenance3.maxMemoryAllocationSize,
                                                                 options_.segment_bytes)));
    });
}

std::unique_ptr<Device> Context::open(uint32_t index)
{
    return validation_.watch([&] { return std::make_unique<Device>(*this, index); });
}

void Context::log(vrb_log_level level, const std::string &message) const noexcept
{
    if (host_.log) host_.log(host_.user, level, message.c_str());
}

bool Context::cancelled() const noexcept
{
    return host_.is_cancelled && host_.is_cancelled(host_.user) != 0;
}

} // namespace vrb::vulkan
