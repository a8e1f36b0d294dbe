#include "device.hpp"

#include "chase_links.hpp"
#include "external_memory.hpp"
#include "run.hpp"
#include "timestamps.hpp"

#include "push_constants.hpp"

#include <algorithm>
#include <bit>
#include <thread>

namespace vrb::vulkan {

namespace {

// llvmpipe ends any shader loop after 65535 iterations to survive infinite loops; the
// backend stays far below that there.
bool bounded_loops(const PhysicalDevice &d)
{
    return d.has_driver && d.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
}

// The widest workgroup of at most `most` invocations the device and the reductions allow.
uint32_t max_local_size(const PhysicalDevice &d, uint32_t most = 256)
{
    const VkPhysicalDeviceLimits &limits = d.properties.limits;
    uint32_t size = most;
    size = std::min(size, limits.maxComputeWorkGroupInvocations);
    size = std::min(size, limits.maxComputeWorkGroupSize[0]);
    // The reductions keep 8 bytes per invocation in shared memory.
    size = std::min<uint32_t>(size, limits.maxComputeSharedMemorySize / 8);
    return std::bit_floor(std::max(size, 1u));
}

// llvmpipe runs a workgroup as one SIMD vector of subgroupSize lanes after another, each
// through the whole shader: in a workgroup of 256 each vector walks its block in steps of
// 4 KiB (16-byte elements), 32 passes over it. A workgroup of one vector walks its block
// contiguously (measured on lavapipe: 1.5-2x for COPY and TRIAD). GPUs keep 256.
uint32_t default_local_size(const PhysicalDevice &d)
{
    const uint32_t most = max_local_size(d);
    if (d.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && d.has_subgroup && d.subgroup.subgroupSize > 0)
        return std::min(most, std::bit_floor(d.subgroup.subgroupSize));
    return most;
}

// What the CPU-tuned shaders need: 64-bit integers, and texel buffers of one, two and
// four 32-bit lanes, the element widths of the vocabulary.
bool cpu_tuning_supported(const PhysicalDevice &d)
{
    if (!d.features.shaderInt64) return false;
    for (VkFormat format : {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32A32_UINT}) {
        VkFormatProperties properties;
        vkGetPhysicalDeviceFormatProperties(d.handle, format, &properties);
        if (!(properties.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)) return false;
    }
    return true;
}

// llvmpipe turns every storage-buffer access into a loop over the SIMD lanes, with a
// bounds check per lane and 32-bit component; its texel fetches are vector gathers.
// The CPU-tuned shaders are several times faster there. GPUs run storage buffers at
// full speed, and storage buffers are what GPU programs use, so GPUs keep them.
bool prefer_cpu_tuning(const PhysicalDevice &d, Tuning requested)
{
    if (requested != Tuning::Automatic) return requested == Tuning::Cpu;
    return d.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && cpu_tuning_supported(d);
}

} // namespace

Device::Device(Context &context, uint32_t index)
    : context_(context), options_(read_options()),
      physical_(query_physical_device(context.physical_device(index), context.api_version()))
{
    const VkPhysicalDeviceLimits &limits = physical_.properties.limits;
    if (physical_.api_version < VK_API_VERSION_1_1)
        fail(VRB_ERROR_UNSUPPORTED,
             std::string(physical_.properties.deviceName) + " speaks only Vulkan 1.0; the backend needs 1.1 or newer");
    queue_plan_ = plan_queues(physical_.queue_families);
    const Options &options = options_;

    // Queues: one create-info per family the plan uses.
    const float priorities[2] = {1.0f, 1.0f};
    std::vector<VkDeviceQueueCreateInfo> queue_infos;
    for (uint32_t f = 0; f < queue_plan_.queue_counts.size(); ++f) {
        if (queue_plan_.queue_counts[f] == 0) continue;
        VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        q.queueFamilyIndex = f;
        q.queueCount = queue_plan_.queue_counts[f];
        q.pQueuePriorities = priorities;
        queue_infos.push_back(q);
        sharing_families_.push_back(f);
    }

    // Features: only what the shaders and the timing need, and only where offered.
    shape_.cpu_tuned = prefer_cpu_tuning(physical_, options.tuning);
    if (shape_.cpu_tuned && !cpu_tuning_supported(physical_))
        fail(VRB_ERROR_UNSUPPORTED, "VRAMBENCH_VULKAN_SHADERS=cpu needs shaderInt64 and uint texel buffers");
    VkPhysicalDeviceFeatures features{};
    features.shaderStorageBufferArrayDynamicIndexing = physical_.features.shaderStorageBufferArrayDynamicIndexing;
    shape_.chase_by_address = chase_by_address(physical_, options.chase);
    features.shaderInt64 = shape_.cpu_tuned || shape_.chase_by_address;
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    const bool v12 = physical_.api_version >= VK_API_VERSION_1_2;
    if (v12) {
        features12.hostQueryReset = physical_.host_query_reset;
        features12.shaderStorageBufferArrayNonUniformIndexing = physical_.nonuniform_storage_buffer_indexing;
        // Semaphores other devices and APIs share (semaphore.hpp) are timeline semaphores.
        features12.timelineSemaphore = physical_.timeline_semaphore;
        host_query_reset_ = physical_.host_query_reset;
        // Only CHASE's links are reached by address: no buffer of the host's, exported or
        // imported, changes for it.
        features12.bufferDeviceAddress = shape_.chase_by_address;
    }
    VkPhysicalDeviceBufferDeviceAddressFeaturesKHR address_features{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES_KHR};
    address_features.bufferDeviceAddress = VK_TRUE;
    const bool address_extension = shape_.chase_by_address && physical_.buffer_device_address_khr;
    std::vector<const char *> extensions;
    // A driver layered over another API must be told the application knows it is.
    if (physical_.has_extension("VK_KHR_portability_subset")) extensions.push_back("VK_KHR_portability_subset");
    // Timestamps of two queues are compared only on the host's clock (transfer_ops.cpp).
    calibrated_timestamps_ = offers_calibration(physical_);
    if (calibrated_timestamps_) extensions.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
    // Sharing memory with other APIs and devices, where the driver offers it.
    for (const char *name : external_memory_extensions(physical_))
        extensions.push_back(name);
    for (const char *name : external_semaphore_extensions(physical_))
        extensions.push_back(name);
    if (address_extension) extensions.push_back(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
    // A compiled shader's registers size the wave of workgroups its passes assume
    // resident on a GPU (filling_grid.hpp); a CPU device's workgroups are tasks, and some
    // drivers skip their caches while capturing statistics.
    const bool statistics =
        physical_.pipeline_statistics && physical_.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executables{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    executables.pipelineExecutableInfo = VK_TRUE;
    if (statistics) extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    void *chain = v12 ? static_cast<void *>(&features12) : address_extension ? &address_features : nullptr;
    if (statistics) {
        executables.pNext = chain;
        chain = &executables;
    }
    info.pNext = chain;
    info.queueCreateInfoCount = static_cast<uint32_t>(queue_infos.size());
    info.pQueueCreateInfos = queue_infos.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pEnabledFeatures = &features;
    VkDevice device = VK_NULL_HANDLE;
    check(vkCreateDevice(physical_.handle, &info, nullptr, &device), "creating the Vulkan device");
    device_ = OwnedDevice(device);
    enabled_extensions_.assign(extensions.begin(), extensions.end());

    for (uint32_t family : sharing_families_) {
        VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pool_info.queueFamilyIndex = family;
        VkCommandPool pool = VK_NULL_HANDLE;
        check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "creating a command pool");
        command_pools_.emplace(family, Owned<VkCommandPool>(device, pool));
    }

    // Buffer geometry.
    shape_.segment_bytes = choose_segment_bytes(limits.maxStorageBufferRange,
                                                physical_.maintenance3.maxMemoryAllocationSize, options.segment_bytes);
    shape_.storage_offset_alignment = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 16);
    shape_.dispatch.local_size =
        options.local_size ? std::min(options.local_size, max_local_size(physical_)) : default_local_size(physical_);
    shape_.dispatch.max_groups = std::min<uint32_t>(limits.maxComputeWorkGroupCount[0], 65535);
    shape_.dispatch.widest_local_size = std::max(max_local_size(physical_, 1024), shape_.dispatch.local_size);
    // A CPU implementation runs each workgroup as one task on one of its threads: a few
    // workgroups per core, each looping over a long block, beat many short ones, whose
    // start-up cost then dominates (measured on lavapipe: 2.5x). Units given by the user
    // (VRAMBENCH_VULKAN_UNITS) make it a GPU's geometry instead.
    if (physical_.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && !options.units)
        shape_.dispatch.max_groups =
            std::min(shape_.dispatch.max_groups, std::max(8u, 8 * std::thread::hardware_concurrency()));
    if (options.max_groups) shape_.dispatch.max_groups = std::min(shape_.dispatch.max_groups, options.max_groups);
    shape_.dispatch.max_iterations = bounded_loops(physical_) ? 16384 : (1u << 20);
    shape_.chase_steps_per_dispatch = bounded_loops(physical_) ? 16384 : (1u << 20);
    shape_.texel_offset_alignment =
        std::max<uint64_t>({limits.minTexelBufferOffsetAlignment, limits.minStorageBufferOffsetAlignment, 16});
    // Texel indices are ints in the shaders.
    shape_.max_texel_elements = std::min<uint64_t>(limits.maxTexelBufferElements, INT32_MAX);
    const uint32_t bindings_needed = kChainSegmentSlots + 2;
    const bool chain_layout = limits.maxPerStageDescriptorStorageBuffers >= bindings_needed &&
                              limits.maxDescriptorSetStorageBuffers >= bindings_needed;
    shape_.chain_uniform = chain_layout && features.shaderStorageBufferArrayDynamicIndexing;
    shape_.chain_nonuniform = chain_layout && features12.shaderStorageBufferArrayNonUniformIndexing;

    // Memory kinds: the types a storage buffer may live in.
    VkBufferCreateInfo probe_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    probe_info.size = 4096;
    probe_info.usage = buffer_usage();
    set_sharing(probe_info, sharing_families_);
    VkBuffer probe = VK_NULL_HANDLE;
    check(vkCreateBuffer(device, &probe_info, nullptr, &probe), "creating a probe buffer");
    const Owned<VkBuffer> owned_probe(device, probe);
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, probe, &requirements);
    kinds_ = derive_memory_kinds(physical_.memory, physical_.properties.deviceType, requirements.memoryTypeBits);
    heap_used_.assign(physical_.memory.memoryHeapCount, 0);

    pipelines_ = std::make_unique<Pipelines>(device, chain_layout, statistics,
                                             [&context](const std::string &note) { context.log(VRB_LOG_DEBUG, note); });
    context.adopt(this);
}

Device::~Device()
{
    // The host's buffers go before the device they live on; each leaves the list itself.
    while (!buffers_.empty())
        std::unique_ptr<Buffer> left(*buffers_.begin());
    context_.forget(this);
}

uint32_t Device::memory_kind_count()
{
    return context_.validation().watch([&] { return static_cast<uint32_t>(kinds_.size()); });
}

void Device::describe(uint32_t kind_index, vrb_memory_kind_info &info)
{
    context_.validation().watch([&] {
        const MemoryKind &kind = kinds_[kind_index];
        info.flags = kind.flags;
        plugin::copy_string(info.name, kind.name);
        info.heap_index = kind.heap_index;
        // Segmenting lifts Vulkan's per-allocation limit: one buffer may fill its heap.
        info.max_allocation_bytes = kind.heap_bytes;
    });
}

std::unique_ptr<Buffer> Device::alloc(uint32_t kind, uint64_t bytes)
{
    return context_.validation().watch([&] { return std::make_unique<Buffer>(*this, kinds_[kind], bytes); });
}

void Device::run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    context_.validation().watch([&] { run_operation(*this, op, seconds, out); });
}

std::unique_ptr<Buffer> Device::import_buffer(const vrb_external_handle &handle, uint32_t)
{
    // The handle decides the memory (plugin.h): the kind asked for is not used.
    return context_.validation().watch([&] { return vulkan::import_buffer(*this, handle); });
}

std::unique_ptr<Buffer> Device::alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t handle_type)
{
    return context_.validation().watch([&] { return allocate_exportable(*this, kind, bytes, handle_type); });
}

std::unique_ptr<Semaphore> Device::create_exportable_semaphore(uint32_t handle_type)
{
    return context_.validation().watch([&] { return vulkan::create_exportable_semaphore(*this, handle_type); });
}

std::unique_ptr<Semaphore> Device::import_semaphore(const vrb_external_handle &handle)
{
    return context_.validation().watch([&] { return vulkan::import_semaphore(*this, handle); });
}

void Device::signal(Semaphore &semaphore, uint64_t value)
{
    context_.validation().watch([&] {
        const std::vector<PendingWait> waits = take_pending_waits();
        submit(queue(queue_plan_.compute), VK_NULL_HANDLE, VK_NULL_HANDLE, waits, semaphore.get(), value);
    });
}

void Device::device_wait(Semaphore &semaphore, uint64_t value)
{
    pending_waits_.emplace_back(&semaphore, PendingWait{semaphore.get(), value});
}

std::vector<PendingWait> Device::take_pending_waits()
{
    std::vector<PendingWait> waits;
    for (const auto &[owner, wait] : pending_waits_)
        waits.push_back(wait);
    pending_waits_.clear();
    return waits;
}

void Device::forget_waits(const Semaphore &semaphore) noexcept
{
    std::erase_if(pending_waits_, [&](const auto &pending) { return pending.first == &semaphore; });
}

bool Device::supports(uint32_t op_kind, uint32_t element_bytes, uint32_t kind) const noexcept
{
    return kind < kinds_.size() && runs_on(kinds_[kind], op_kind, element_bytes);
}

VkQueue Device::queue(QueueRef ref) const
{
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device_.get(), ref.family, ref.index, &queue);
    return queue;
}

uint32_t Device::timestamp_bits(uint32_t family) const noexcept
{
    if (options_.host_timer) return 0;
    return family < physical_.queue_families.size() ? physical_.queue_families[family].timestampValidBits : 0;
}

VkCommandPool Device::command_pool(uint32_t family) const
{
    const auto it = command_pools_.find(family);
    if (it == command_pools_.end())
        fail(VRB_ERROR_INTERNAL, "no command pool for queue family " + std::to_string(family));
    return it->second.get();
}

VkBufferUsageFlags Device::buffer_usage() const noexcept
{
    VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (shape_.cpu_tuned) usage |= VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
    return usage;
}

HostBuffer &Device::staging()
{
    if (!staging_) {
        const uint64_t bytes = std::min(options_.staging_bytes, shape_.segment_bytes);
        staging_ = std::make_unique<HostBuffer>(device_.get(), physical_.memory, bytes,
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                sharing_families_);
    }
    return *staging_;
}

HostBuffer &Device::results(uint64_t bytes)
{
    if (!results_ || results_->size() < bytes) {
        results_.reset();
        const uint64_t size = std::max<uint64_t>(std::bit_ceil(bytes), 4096);
        results_ = std::make_unique<HostBuffer>(device_.get(), physical_.memory, size,
                                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, sharing_families_);
    }
    return *results_;
}

void Device::reserve_heap(uint32_t heap, uint64_t bytes)
{
    const uint64_t size = physical_.memory.memoryHeaps[heap].size;
    if (bytes > size - std::min(size, heap_used_[heap]))
        fail(VRB_ERROR_OUT_OF_MEMORY, "heap " + std::to_string(heap) + " holds " + std::to_string(size) + " bytes, " +
                                          std::to_string(heap_used_[heap]) + " of them allocated; " +
                                          std::to_string(bytes) + " more do not fit");
    heap_used_[heap] += bytes;
}

void Device::release_heap(uint32_t heap, uint64_t bytes) noexcept
{
    heap_used_[heap] -= std::min(bytes, heap_used_[heap]);
}

void Device::track(Buffer *buffer)
{
    buffers_.insert(buffer);
}

void Device::untrack(Buffer *buffer) noexcept
{
    buffers_.erase(buffer);
}

bool Device::extension_enabled(std::string_view name) const noexcept
{
    return std::find(enabled_extensions_.begin(), enabled_extensions_.end(), name) != enabled_extensions_.end();
}

} // namespace vrb::vulkan
