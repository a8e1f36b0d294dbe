#include <vrambench/core/device_record.hpp>
#include <vrambench/core/peak.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

const char *type_name(uint32_t type)
{
    switch (type) {
    case VRB_DEVICE_CPU: return "cpu";
    case VRB_DEVICE_DISCRETE_GPU: return "discrete-gpu";
    case VRB_DEVICE_INTEGRATED_GPU: return "integrated-gpu";
    case VRB_DEVICE_VIRTUAL_GPU: return "virtual-gpu";
    default: return "other";
    }
}

} // namespace

std::vector<std::string> memory_flag_names(uint32_t flags)
{
    static const std::pair<uint32_t, const char *> names[] = {
        {VRB_MEMORY_DEVICE_LOCAL, "device-local"},
        {VRB_MEMORY_HOST_VISIBLE, "host-visible"},
        {VRB_MEMORY_HOST_COHERENT, "host-coherent"},
        {VRB_MEMORY_HOST_CACHED, "host-cached"},
        {VRB_MEMORY_PINNED, "pinned"},
        {VRB_MEMORY_PAGEABLE, "pageable"},
        {VRB_MEMORY_DEVICE_ACCESS, "device-access"},
        {VRB_MEMORY_HOST_MEMORY, "host-memory"},
    };
    std::vector<std::string> out;
    for (const auto &[bit, name] : names)
        if (flags & bit) out.emplace_back(name);
    return out;
}

std::string memory_flags_text(uint32_t flags)
{
    return fmt::format("{}", fmt::join(memory_flag_names(flags), ","));
}

std::string uuid_text(const uint8_t (&u)[16])
{
    return fmt::format(
        "{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", u[0],
        u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

std::string DeviceRecord::key() const
{
    if ((info.known & VRB_KNOWN_PCI_ADDRESS) && info.pci_address[0]) return fmt::format("pci:{}", info.pci_address);
    if (info.known & VRB_KNOWN_UUID) return "uuid:" + uuid_text(info.uuid);
    return id;
}

std::optional<double> DeviceRecord::peak_gb_per_s() const
{
    const uint64_t need = VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    if ((info.known & need) != need || info.memory_bus_width_bits == 0 || info.memory_clock_khz == 0)
        return std::nullopt;
    return peak_from_reported_clock(info.memory_clock_khz / 1000.0, info.memory_bus_width_bits).gb_per_s;
}

uint64_t DeviceRecord::last_level_cache_bytes() const
{
    uint64_t best = 0;
    uint32_t level = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(info.cache_count, VRB_MAX_CACHES); ++i) {
        const auto &c = info.caches[i];
        if (std::string_view(c.kind) == "instruction") continue;
        if (c.level > level || (c.level == level && c.bytes > best)) {
            level = c.level;
            best = c.bytes;
        }
    }
    return best;
}

nlohmann::json to_json(const DeviceRecord &d)
{
    const vrb_device_info &i = d.info;
    nlohmann::json unknown = nlohmann::json::object();
    const std::string because = fmt::format("not reported by the {} backend", d.backend);
    auto known_or_null = [&](uint64_t bit, const char *field, auto value) -> nlohmann::json {
        if (i.known & bit) return value;
        unknown[field] = because;
        return nullptr;
    };

    nlohmann::json pci = nullptr;
    if (i.known & (VRB_KNOWN_PCI_IDS | VRB_KNOWN_PCI_ADDRESS)) {
        pci = {{"vendor_id", (i.known & VRB_KNOWN_PCI_IDS) ? nlohmann::json(i.pci_vendor_id) : nlohmann::json()},
               {"device_id", (i.known & VRB_KNOWN_PCI_IDS) ? nlohmann::json(i.pci_device_id) : nlohmann::json()},
               {"address", (i.known & VRB_KNOWN_PCI_ADDRESS) ? nlohmann::json(i.pci_address) : nlohmann::json()}};
    } else {
        unknown["pci"] = i.type == VRB_DEVICE_CPU ? "a CPU is not a PCI device" : because;
    }

    nlohmann::json caches = nlohmann::json::array();
    for (uint32_t c = 0; c < std::min<uint32_t>(i.cache_count, VRB_MAX_CACHES); ++c)
        caches.push_back(
            {{"level", i.caches[c].level},
             {"kind", i.caches[c].kind},
             {"bytes", i.caches[c].bytes},
             {"shared_by", i.caches[c].shared_by ? nlohmann::json(i.caches[c].shared_by) : nlohmann::json()}});
    nlohmann::json heaps = nlohmann::json::array();
    for (uint32_t h = 0; h < std::min<uint32_t>(i.heap_count, VRB_MAX_HEAPS); ++h)
        heaps.push_back(
            {{"index", h},
             {"bytes", i.heaps[h].bytes},
             {"budget_bytes", i.heaps[h].budget_bytes ? nlohmann::json(i.heaps[h].budget_bytes) : nlohmann::json()},
             {"flags", memory_flag_names(i.heaps[h].flags)}});
    nlohmann::json kinds = nlohmann::json::array();
    for (std::size_t k = 0; k < d.kinds.size(); ++k) {
        const auto &m = d.kinds[k];
        nlohmann::json kind = {{"index", k},
                               {"name", m.name},
                               {"flags", memory_flag_names(m.flags)},
                               {"heap", m.heap_index < i.heap_count ? nlohmann::json(m.heap_index) : nlohmann::json()}};
        kind["max_allocation_bytes"] =
            m.max_allocation_bytes ? nlohmann::json(m.max_allocation_bytes) : nlohmann::json();
        kinds.push_back(kind);
    }
    nlohmann::json properties = nlohmann::json::object();
    for (uint32_t p = 0; p < std::min<uint32_t>(i.property_count, VRB_MAX_PROPERTIES); ++p)
        properties[i.properties[p].key] = i.properties[p].value;

    nlohmann::json j = {
        {"id", d.id},
        {"backend", d.backend},
        {"index", d.index},
        {"key", d.key()},
        {"type", type_name(i.type)},
        {"name", i.name},
        {"vendor", i.vendor},
        {"api", i.api},
        {"api_version", known_or_null(VRB_KNOWN_API_VERSION, "api_version", std::string(i.api_version))},
        {"driver_version", known_or_null(VRB_KNOWN_DRIVER_VERSION, "driver_version", std::string(i.driver_version))},
        {"pci", pci},
        {"uuid", known_or_null(VRB_KNOWN_UUID, "uuid", uuid_text(i.uuid))},
        {"total_memory_bytes", known_or_null(VRB_KNOWN_TOTAL_MEMORY, "total_memory_bytes", i.total_memory_bytes)},
        {"free_memory_bytes", known_or_null(VRB_KNOWN_FREE_MEMORY, "free_memory_bytes", i.free_memory_bytes)},
        {"memory_bus_width_bits", known_or_null(VRB_KNOWN_BUS_WIDTH, "memory_bus_width_bits", i.memory_bus_width_bits)},
        {"memory_clock_khz", known_or_null(VRB_KNOWN_MEMORY_CLOCK, "memory_clock_khz", i.memory_clock_khz)},
        {"compute_units", known_or_null(VRB_KNOWN_COMPUTE_UNITS, "compute_units", i.compute_units)},
        {"core_clock_khz", known_or_null(VRB_KNOWN_CORE_CLOCK, "core_clock_khz", i.core_clock_khz)},
        {"caches", caches},
        {"heaps", heaps},
        {"memory_kinds", kinds},
        {"properties", properties},
    };
    if (const auto peak = d.peak_gb_per_s()) {
        j["peak_bandwidth_gbps"] = *peak;
    } else {
        j["peak_bandwidth_gbps"] = nullptr;
        unknown["peak_bandwidth_gbps"] = "needs both the memory bus width and the memory clock";
    }
    j["unknown"] = unknown;
    return j;
}

} // namespace vrb
