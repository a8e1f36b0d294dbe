#include "backend.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <stdexcept>

namespace vrb::vulkan::test {

namespace {

// Direct runs of the test program validate too, not only runs through ctest.
const bool validation_requested = (setenv("VRAMBENCH_VULKAN_VALIDATION", "1", 0), true);

const vrb_plugin_table *load()
{
    // The build's module, unless the tests run from a copy elsewhere.
    const char *path = std::getenv("VRB_VULKAN_MODULE") ? std::getenv("VRB_VULKAN_MODULE") : VRB_VULKAN_MODULE;
    void *module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!module) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    auto entry = reinterpret_cast<vrb_plugin_entry_fn>(dlsym(module, VRB_ENTRY_SYMBOL));
    if (!entry) throw std::runtime_error(std::string("no " VRB_ENTRY_SYMBOL " in ") + path);
    vrb_negotiation negotiation{};
    negotiation.struct_size = sizeof negotiation;
    negotiation.host_version = VRB_ABI_VERSION;
    if (entry(&negotiation) != VRB_OK || !negotiation.table)
        throw std::runtime_error(std::string("negotiation refused: ") + negotiation.message);
    return negotiation.table;
}

const char *status_name(vrb_status s)
{
    switch (s) {
    case VRB_OK: return "VRB_OK";
    case VRB_ERROR_UNSUPPORTED: return "VRB_ERROR_UNSUPPORTED";
    case VRB_ERROR_INVALID_ARGUMENT: return "VRB_ERROR_INVALID_ARGUMENT";
    case VRB_ERROR_OUT_OF_MEMORY: return "VRB_ERROR_OUT_OF_MEMORY";
    case VRB_ERROR_DEVICE: return "VRB_ERROR_DEVICE";
    case VRB_ERROR_UNAVAILABLE: return "VRB_ERROR_UNAVAILABLE";
    case VRB_ERROR_TIMER: return "VRB_ERROR_TIMER";
    case VRB_ERROR_VERSION: return "VRB_ERROR_VERSION";
    case VRB_ERROR_CANCELLED: return "VRB_ERROR_CANCELLED";
    default: return "VRB_ERROR_INTERNAL";
    }
}

} // namespace

const vrb_plugin_table &table()
{
    static const vrb_plugin_table *loaded = load();
    return *loaded;
}

std::string why(vrb_status status)
{
    if (status == VRB_OK) return "VRB_OK";
    return std::string(status_name(status)) + ": " + table().last_error();
}

ContextPtr open_context()
{
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    vrb_context *context = nullptr;
    const vrb_status status = table().init(&host, &context);
    if (status != VRB_OK) ADD_FAILURE() << "init: " << why(status);
    return ContextPtr(context);
}

DevicePtr open_device(vrb_context *context, uint32_t index)
{
    vrb_device *device = nullptr;
    const vrb_status status = table().device_open(context, index, &device);
    if (status != VRB_OK) ADD_FAILURE() << "device_open: " << why(status);
    return DevicePtr(device);
}

BufferPtr alloc(vrb_device *device, uint32_t kind, uint64_t bytes)
{
    vrb_buffer *buffer = nullptr;
    const vrb_status status = table().buffer_alloc(device, kind, bytes, &buffer);
    if (status != VRB_OK) ADD_FAILURE() << "buffer_alloc of " << bytes << " bytes: " << why(status);
    return BufferPtr(buffer);
}

std::vector<Kind> memory_kinds(vrb_device *device)
{
    uint32_t count = 0;
    const vrb_status status = table().memory_kind_count(device, &count);
    if (status != VRB_OK) ADD_FAILURE() << "memory_kind_count: " << why(status);
    std::vector<Kind> kinds;
    for (uint32_t k = 0; k < count; ++k) {
        Kind kind{k, {}};
        kind.info.struct_size = sizeof kind.info;
        const vrb_status s = table().memory_kind_describe(device, k, &kind.info);
        if (s != VRB_OK) ADD_FAILURE() << "memory_kind_describe: " << why(s);
        kinds.push_back(kind);
    }
    return kinds;
}

void upload(vrb_buffer *buffer, uint64_t offset, const void *data, uint64_t bytes)
{
    const vrb_status status = table().buffer_upload(buffer, offset, data, bytes);
    if (status != VRB_OK) ADD_FAILURE() << "buffer_upload: " << why(status);
}

void download(vrb_buffer *buffer, uint64_t offset, void *data, uint64_t bytes)
{
    const vrb_status status = table().buffer_download(buffer, offset, data, bytes);
    if (status != VRB_OK) ADD_FAILURE() << "buffer_download: " << why(status);
}

vrb_status try_run(vrb_device *device, const vrb_operation &op, uint32_t repetitions)
{
    std::vector<double> seconds(repetitions ? repetitions : 1);
    vrb_op_output output{};
    output.struct_size = sizeof output;
    return table().run(device, &op, repetitions, seconds.data(), &output);
}

RunResult run(vrb_device *device, const vrb_operation &op, uint32_t repetitions)
{
    RunResult result;
    result.seconds.assign(repetitions, 0.0);
    result.output.struct_size = sizeof result.output;
    const vrb_status status = table().run(device, &op, repetitions, result.seconds.data(), &result.output);
    if (status != VRB_OK) ADD_FAILURE() << "run of operation " << op.kind << ": " << why(status);
    return result;
}

ScopedEnv::ScopedEnv(const char *name, const char *value) : name_(name)
{
    if (const char *old = std::getenv(name)) {
        had_ = true;
        old_ = old;
    }
    setenv(name, value, 1);
}

ScopedEnv::~ScopedEnv()
{
    if (had_)
        setenv(name_.c_str(), old_.c_str(), 1);
    else
        unsetenv(name_.c_str());
}

vrb_device *shared_device(const char *tuning)
{
    // Opened once and kept for the whole test program: building every pipeline again
    // for each test would cost more than the tests.
    static ContextPtr context = open_context();
    static std::map<std::string, DevicePtr> devices;
    const std::string key = tuning ? tuning : "";
    auto it = devices.find(key);
    if (it == devices.end()) {
        std::unique_ptr<ScopedEnv> env;
        if (tuning) env = std::make_unique<ScopedEnv>("VRAMBENCH_VULKAN_SHADERS", tuning);
        it = devices.emplace(key, context ? open_device(context.get()) : DevicePtr()).first;
    }
    if (!it->second) ADD_FAILURE() << "no Vulkan device to test on";
    return it->second.get();
}

} // namespace vrb::vulkan::test
