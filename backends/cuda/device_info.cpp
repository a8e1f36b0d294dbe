// What the runtime tells about a device, in vrb_device_info's terms. Every number comes
// from the runtime (or, for what it lacks, the kernel's PCI and driver files); what
// neither tells keeps its VRB_KNOWN_ bit clear.
#include "backend.hpp"
#include "driver_banner.hpp"

#include <vrambench/plugin_support.hpp>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

namespace vrb::gpu {
namespace {

using plugin::add_property;
using plugin::copy_string;

std::string first_line(const char *path)
{
    std::ifstream in(path);
    std::string line;
    if (in) std::getline(in, line);
    return line;
}

} // namespace

// "0000:3B:00.0" from the runtime becomes "0000:3b:00.0"; false if it cannot be read.
bool pci_address(int ordinal, std::string &out)
{
    char raw[64] = {};
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    if (pci_bus_id(raw, sizeof raw, ordinal) == kSuccess &&
        std::sscanf(raw, "%x:%x:%x.%x", &domain, &bus, &device, &function) == 4) {
        char text[32];
        std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, device, function);
        out = text;
        return true;
    }
    (void)take_last_error();
    const int d = attribute_or(Attribute::pci_domain, ordinal, -1);
    const int b = attribute_or(Attribute::pci_bus, ordinal, -1);
    const int s = attribute_or(Attribute::pci_device, ordinal, -1);
    if (d < 0 || b < 0 || s < 0) return false;
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", unsigned(d), unsigned(b), unsigned(s));
    out = text;
    return true;
}

namespace {

// The runtimes give the bus address but not the product id; sysfs has both.
bool pci_ids_from_sysfs(const std::string &address, uint32_t &vendor, uint32_t &device)
{
    const std::string base = "/sys/bus/pci/devices/" + address + "/";
    const std::string v = first_line((base + "vendor").c_str());
    const std::string d = first_line((base + "device").c_str());
    if (v.empty() || d.empty()) return false;
    try {
        vendor = static_cast<uint32_t>(std::stoul(v, nullptr, 16));
        device = static_cast<uint32_t>(std::stoul(d, nullptr, 16));
    } catch (const std::exception &) {
        return false;
    }
    return true;
}

uint64_t host_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

const char *yes_no(int v)
{
    return v > 0 ? "yes" : "no";
}

} // namespace

// The kernel driver's own version, which the runtime does not report: the version the
// vendor's banner names after its marker (driver_banner.hpp: every NVIDIA banner form),
// or the whole first line where the vendor has no marker.
std::string kernel_driver_version()
{
    const std::string line = first_line(kKernelDriverFile);
    if (!kKernelDriverMarker) return line;
    return version_after_marker(line, kKernelDriverMarker);
}

uint64_t unit_l1_bytes(int ordinal)
{
    const int major = attribute_or(Attribute::compute_capability_major, ordinal, -1);
    const int minor = attribute_or(Attribute::compute_capability_minor, ordinal, -1);
    char architecture[256] = {};
    if (device_architecture(ordinal, architecture, sizeof architecture) != kSuccess) architecture[0] = 0;
    (void)take_last_error();
    return unit_l1(major, minor, architecture).bytes;
}

void describe_device(int ordinal, vrb_device_info &info)
{
    make_current(ordinal);
    info = vrb_device_info{};
    info.struct_size = sizeof info;

    char name[256] = {};
    GPU_CHECK(device_name(ordinal, name, sizeof name));
    copy_string(info.name, name);
    copy_string(info.vendor, kVendorName);
    copy_string(info.api, kApiName);

    int version = 0;
    if (runtime_version(&version) == kSuccess && version > 0) {
        copy_string(info.api_version, format_version(version));
        info.known |= VRB_KNOWN_API_VERSION;
    }
    std::string driver;
    if (driver_version(&version) == kSuccess && version > 0)
        driver = std::string(kApiName) + " " + format_version(version);
    const std::string module = kernel_driver_version();
    if (!module.empty()) driver = driver.empty() ? module : module + " (" + driver + ")";
    if (!driver.empty()) {
        copy_string(info.driver_version, driver);
        info.known |= VRB_KNOWN_DRIVER_VERSION;
    }
    (void)take_last_error();

    std::string address;
    if (pci_address(ordinal, address)) {
        copy_string(info.pci_address, address);
        info.known |= VRB_KNOWN_PCI_ADDRESS;
        uint32_t vendor = 0, device = 0;
        if (pci_ids_from_sysfs(address, vendor, device)) {
            info.pci_vendor_id = vendor;
            info.pci_device_id = device;
            info.known |= VRB_KNOWN_PCI_IDS;
        }
    }
    if (!(info.known & VRB_KNOWN_PCI_IDS)) info.pci_vendor_id = kPciVendorId; // the vendor, at least, is certain

    uint8_t uuid[16] = {};
    if (device_uuid(ordinal, uuid) == kSuccess) {
        bool any = false;
        for (uint8_t byte : uuid)
            any = any || byte != 0;
        if (any) {
            std::memcpy(info.uuid, uuid, sizeof uuid);
            info.known |= VRB_KNOWN_UUID;
        }
    }
    (void)take_last_error();

    std::size_t free_bytes = 0, total_bytes = 0;
    GPU_CHECK(memory_info(&free_bytes, &total_bytes));
    info.total_memory_bytes = total_bytes;
    info.free_memory_bytes = free_bytes;
    info.known |= VRB_KNOWN_TOTAL_MEMORY | VRB_KNOWN_FREE_MEMORY;

    const auto known_attribute = [&](Attribute a, uint32_t &field, uint64_t bit) {
        const int v = attribute_or(a, ordinal, 0);
        if (v > 0) {
            field = uint32_t(v);
            info.known |= bit;
        }
    };
    known_attribute(Attribute::memory_bus_width_bits, info.memory_bus_width_bits, VRB_KNOWN_BUS_WIDTH);
    known_attribute(Attribute::memory_clock_khz, info.memory_clock_khz, VRB_KNOWN_MEMORY_CLOCK);
    known_attribute(Attribute::compute_units, info.compute_units, VRB_KNOWN_COMPUTE_UNITS);
    known_attribute(Attribute::core_clock_khz, info.core_clock_khz, VRB_KNOWN_CORE_CLOCK);

    const int integrated = attribute_or(Attribute::integrated, ordinal, 0);
    info.type = integrated > 0 ? VRB_DEVICE_INTEGRATED_GPU : VRB_DEVICE_DISCRETE_GPU;

    const int major = attribute_or(Attribute::compute_capability_major, ordinal, -1);
    const int minor = attribute_or(Attribute::compute_capability_minor, ordinal, -1);
    char architecture[256] = {};
    if (device_architecture(ordinal, architecture, sizeof architecture) != kSuccess) architecture[0] = 0;
    (void)take_last_error();

    // Each SM or CU has its own; the runtimes do not say how large (l1_caches.hpp). Only
    // beside the L2: an L1 alone would be taken for the last level.
    const int l2 = attribute_or(Attribute::l2_cache_bytes, ordinal, 0);
    if (const L1Cache l1 = unit_l1(major, minor, architecture); l1.bytes && l2 > 0) {
        vrb_cache_info &cache = info.caches[info.cache_count++];
        cache.level = 1;
        cache.bytes = l1.bytes;
        cache.shared_by = 1;
        copy_string(cache.kind, "data");
        add_property(info, "l1_per_compute_unit", l1.note);
    }
    if (l2 > 0) {
        vrb_cache_info &cache = info.caches[info.cache_count++];
        cache.level = 2;
        cache.bytes = uint64_t(l2);
        cache.shared_by = l2_shared_by(architecture, info.compute_units);
        copy_string(cache.kind, "unified");
    }

    vrb_heap_info &device_heap = info.heaps[info.heap_count++];
    device_heap.bytes = total_bytes;
    device_heap.budget_bytes = free_bytes;
    device_heap.flags = VRB_MEMORY_DEVICE_LOCAL;
    vrb_heap_info &host_heap = info.heaps[info.heap_count++];
    host_heap.bytes = host_memory_bytes();
    host_heap.flags = VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_HOST_VISIBLE;

    if (architecture[0]) add_property(info, "architecture", architecture);
    if (major >= 0 && minor >= 0)
        add_property(info, "compute_capability", std::to_string(major) + "." + std::to_string(minor));
    add_property(info, "warp_size", std::to_string(attribute_or(Attribute::warp_size, ordinal, 0)));
    const int ecc = attribute_or(Attribute::ecc_enabled, ordinal, -1);
    if (ecc >= 0) add_property(info, "ecc", ecc > 0 ? "enabled" : "disabled");
    add_property(info, "max_threads_per_compute_unit",
                 std::to_string(attribute_or(Attribute::max_threads_per_compute_unit, ordinal, 0)));
    add_property(info, "shared_memory_per_compute_unit_bytes",
                 std::to_string(attribute_or(Attribute::shared_memory_per_compute_unit, ordinal, 0)));
    add_property(info, "can_map_host_memory", yes_no(attribute_or(Attribute::can_map_host_memory, ordinal, 0)));
    add_property(info, "pageable_memory_access", yes_no(attribute_or(Attribute::pageable_memory_access, ordinal, 0)));
    add_property(info, "integrated", yes_no(integrated));
    add_property(info, "device_ordinal", std::to_string(ordinal));
    // The link to each other device, as the runtime names it (HIP: xGMI or PCIe, hops).
    int count = 0;
    if (device_count(&count) == kSuccess)
        for (int other = 0; other < count; ++other)
            if (other != ordinal)
                if (const std::string link = vendor::link_between(ordinal, other); !link.empty())
                    add_property(info, "link_to_device_" + std::to_string(other), link);
}

} // namespace vrb::gpu
