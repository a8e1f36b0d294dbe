#include "device_info.hpp"
#include "pci_location.hpp"

#include <cpu_caches.hpp>
#include <vrambench/plugin_support.hpp>

#include <cstdio>
#include <cstring>

namespace vrb::opencl {

using plugin::add_property;
using plugin::copy_string;

namespace {

uint32_t device_type(cl_device_id device)
{
    const auto type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
    if (type & CL_DEVICE_TYPE_CPU) return VRB_DEVICE_CPU;
    if (type & CL_DEVICE_TYPE_GPU)
        return uses_host_memory(device) ? VRB_DEVICE_INTEGRATED_GPU : VRB_DEVICE_DISCRETE_GPU;
    return VRB_DEVICE_OTHER;
}

// The vendor queries' names, as their extensions define them; older headers lack some.
#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#endif
#ifndef CL_DEVICE_PCI_SLOT_ID_NV
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#endif
#ifndef CL_DEVICE_PCI_DOMAIN_ID_NV
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#endif
#ifndef CL_DEVICE_TOPOLOGY_AMD
#define CL_DEVICE_TOPOLOGY_AMD 0x4037
#endif
#ifndef CL_DEVICE_PCIE_ID_AMD
#define CL_DEVICE_PCIE_ID_AMD 0x4034
#endif

constexpr uint32_t kAmdPciVendor = 0x1002;

// Where the device sits: cl_khr_pci_bus_info where the driver has it, else AMD's
// topology (ROCm) or NVIDIA's bus and slot, which ROCm and NVIDIA's OpenCL answer
// instead; without them the device could not be matched to the card the other APIs see
// nor reach the device table.
std::optional<PciLocation> locate(cl_device_id device)
{
    if (has_extension(device, "cl_khr_pci_bus_info"))
        if (const auto bus = device_value_or<cl_device_pci_bus_info_khr>(device, CL_DEVICE_PCI_BUS_INFO_KHR))
            return PciLocation{bus->pci_domain, bus->pci_bus, bus->pci_device, bus->pci_function};
    if (has_extension(device, "cl_amd_device_attribute_query"))
        if (const auto topology = device_bytes_or(device, CL_DEVICE_TOPOLOGY_AMD))
            if (auto where = from_amd_topology(*topology)) return where;
    if (has_extension(device, "cl_nv_device_attribute_query")) {
        const auto bus = device_value_or<cl_uint>(device, CL_DEVICE_PCI_BUS_ID_NV);
        const auto slot = device_value_or<cl_uint>(device, CL_DEVICE_PCI_SLOT_ID_NV);
        // The domain query came later than bus and slot: an older driver refuses it.
        if (bus && slot)
            return from_nv_bus_slot(*bus, *slot, device_value_or<cl_uint>(device, CL_DEVICE_PCI_DOMAIN_ID_NV));
    }
    return std::nullopt;
}

// The address from the driver; the ids from sysfs, as the CUDA module reads them, so
// the peak table and the other APIs' views of the card line up. AMD's driver also names
// the PCI device id itself (CL_DEVICE_PCIE_ID_AMD), which serves where sysfs does not.
void describe_pci(cl_device_id device, vrb_device_info &info)
{
    if (const auto where = locate(device)) {
        const std::string address =
            pci_address(*where, where->domain ? std::vector<std::string>{} : pci_devices_present());
        if (!address.empty()) {
            copy_string(info.pci_address, address);
            info.known |= VRB_KNOWN_PCI_ADDRESS;
            const std::string base = "/sys/bus/pci/devices/" + address + "/";
            const std::string vendor = cpu::read_first_line(base + "vendor"),
                              product = cpu::read_first_line(base + "device");
            try {
                if (!vendor.empty() && !product.empty()) {
                    info.pci_vendor_id = static_cast<uint32_t>(std::stoul(vendor, nullptr, 16));
                    info.pci_device_id = static_cast<uint32_t>(std::stoul(product, nullptr, 16));
                    info.known |= VRB_KNOWN_PCI_IDS;
                }
            } catch (const std::exception &) {
            }
        }
    }
    if ((info.known & VRB_KNOWN_PCI_IDS) || !has_extension(device, "cl_amd_device_attribute_query")) return;
    if (!(device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU)) return;
    const auto vendor = device_value_or<cl_uint>(device, CL_DEVICE_VENDOR_ID);
    const auto product = device_value_or<cl_uint>(device, CL_DEVICE_PCIE_ID_AMD);
    if (vendor == kAmdPciVendor && product && *product > 0 && *product <= 0xffff) {
        info.pci_vendor_id = *vendor;
        info.pci_device_id = *product;
        info.known |= VRB_KNOWN_PCI_IDS;
    }
}

void describe_uuid(cl_device_id device, vrb_device_info &info)
{
    if (!has_extension(device, "cl_khr_device_uuid")) return;
    const auto uuid = device_bytes_or(device, CL_DEVICE_UUID_KHR);
    if (!uuid || uuid->size() != sizeof info.uuid) return;
    std::memcpy(info.uuid, uuid->data(), sizeof info.uuid);
    info.known |= VRB_KNOWN_UUID;
}

std::string svm_text(cl_device_svm_capabilities svm)
{
    std::string text;
    auto add = [&](cl_device_svm_capabilities bit, const char *name) {
        if (!(svm & bit)) return;
        if (!text.empty()) text += ',';
        text += name;
    };
    add(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "coarse-buffer");
    add(CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "fine-buffer");
    add(CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "fine-system");
    add(CL_DEVICE_SVM_ATOMICS, "atomics");
    return text.empty() ? "none" : text;
}

} // namespace

bool uses_host_memory(cl_device_id device)
{
    if (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) return true;
    // Deprecated since OpenCL 2.0 but still answered; a device that does not answer is
    // taken as having memory of its own.
    return device_value_or<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY).value_or(CL_FALSE) == CL_TRUE;
}

void describe_device(const DeviceEntry &entry, vrb_device_info &info)
{
    cl_device_id device = entry.device;
    info.type = device_type(device);
    copy_string(info.name, device_string(device, CL_DEVICE_NAME));
    copy_string(info.vendor, device_string(device, CL_DEVICE_VENDOR));
    copy_string(info.api, "OpenCL");
    copy_string(info.api_version, device_string(device, CL_DEVICE_VERSION));
    copy_string(info.driver_version, entry.platform_name + " " + device_string(device, CL_DRIVER_VERSION));
    info.known |= VRB_KNOWN_API_VERSION | VRB_KNOWN_DRIVER_VERSION;

    describe_pci(device, info);
    describe_uuid(device, info);

    info.total_memory_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    info.known |= VRB_KNOWN_TOTAL_MEMORY;
    info.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    info.known |= VRB_KNOWN_COMPUTE_UNITS;
    if (const cl_uint mhz = device_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY); mhz > 0) {
        info.core_clock_khz = mhz * 1000u;
        info.known |= VRB_KNOWN_CORE_CLOCK;
    }

    const bool host_memory = uses_host_memory(device);
    info.heap_count = 1;
    info.heaps[0].bytes = info.total_memory_bytes;
    info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL | (host_memory ? uint32_t(VRB_MEMORY_HOST_MEMORY) : 0u);

    add_property(info, "platform", entry.platform_name);
    add_property(info, "platform_version", platform_string(entry.platform, CL_PLATFORM_VERSION));
    add_property(info, "opencl_c_version", device_string(device, CL_DEVICE_OPENCL_C_VERSION));
    add_property(info, "max_mem_alloc_size",
                 std::to_string(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)));
    add_property(info, "max_work_group_size",
                 std::to_string(device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE)));
    add_property(info, "local_mem_size", std::to_string(device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE)));
    add_property(info, "svm",
                 svm_text(device_value_or<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES).value_or(0)));
    add_property(info, "profiling_timer_resolution_ns",
                 std::to_string(device_value<size_t>(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION)));

    if (info.type == VRB_DEVICE_CPU) {
        // A CPU driver's global memory cache is the CPU's whole hierarchy, which sysfs
        // describes level by level.
        cpu::describe_cpu_caches(info, "the host CPU's, from ");
        return;
    }
    const auto cache_type = device_value<cl_device_mem_cache_type>(device, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
    const auto cache_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    if (cache_type != CL_NONE && cache_bytes > 0) {
        // OpenCL names one cache in front of global memory: on GPUs the level-2 cache
        // every compute unit shares.
        vrb_cache_info &cache = info.caches[info.cache_count++];
        cache.level = 2;
        cache.bytes = cache_bytes;
        cache.shared_by = info.compute_units;
        copy_string(cache.kind, "unified");
        add_property(info, "cache_source", "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, taken as level 2");
        add_property(info, "global_mem_cacheline",
                     std::to_string(device_value<cl_uint>(device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE)));
    }
}

} // namespace vrb::opencl
