#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/peak.hpp>
#include <vrambench/core/results/card_key.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

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
    return card_key(info, id, this_host_name());
}

uint64_t DeviceRecord::reported_last_level_cache_bytes() const
{
    uint64_t best = 0;
    uint32_t level = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(info.cache_count, VRB_MAX_CACHES); ++i) {
        const auto &c = info.caches[i];
        if (module_text(c.kind) == "instruction") continue;
        if (c.level > level || (c.level == level && c.bytes > best)) {
            level = c.level;
            best = c.bytes;
        }
    }
    return best;
}

LastLevelCache DeviceRecord::last_level_cache() const
{
    if (llc_option) return {*llc_option, "option", fmt::format("{} as given by --llc", format_size(*llc_option))};
    const uint64_t reported = reported_last_level_cache_bytes();
    const CardMatch card = match_card(info);
    // A partition keeps the card's cache: MIG slices and MI300X partitions share it.
    const CardSpec *spec = card.card;
    if (!spec && card.kind == CardMatch::Kind::ambiguous) {
        // Variants of one PCI id that agree on the cache leave no doubt about it.
        spec = card.candidates.front();
        for (const CardSpec *c : card.candidates)
            if (c->last_level_bytes != spec->last_level_bytes) spec = nullptr;
    }
    if (spec && spec->last_level_bytes > reported)
        return {spec->last_level_bytes, "device-table",
                fmt::format("the {} {} of the {} ({}){}", format_size(spec->last_level_bytes), spec->last_level_name,
                            spec->name, spec->source,
                            reported ? fmt::format("; the API reports caches only up to {}", format_size(reported))
                                     : std::string("; the API reports no cache sizes"))};
    if (reported) {
        // A CPU module that measured the L3 one core reaches (its API gave only the
        // package's total) says so in "l3_instance_measured" (backends/cpu_caches).
        for (uint32_t i = 0; i < std::min<uint32_t>(info.property_count, VRB_MAX_PROPERTIES); ++i)
            if (module_text(info.properties[i].key) == "l3_instance_measured")
                return {reported, "measured",
                        fmt::format("the L3 one core reaches, measured by the {} module: {}", module_text(info.api),
                                    module_text(info.properties[i].value))};
        // A module that describes caches its API does not report says where they came from.
        for (uint32_t i = 0; i < std::min<uint32_t>(info.property_count, VRB_MAX_PROPERTIES); ++i)
            if (module_text(info.properties[i].key) == "cache_source" && module_text(info.api) != "host")
                return {reported, "api",
                        fmt::format("the {} cache the {} module describes: {}", format_size(reported),
                                    module_text(info.api), module_text(info.properties[i].value))};
        return {reported, "api",
                fmt::format("the {} cache the {} API reports", format_size(reported), module_text(info.api))};
    }
    return {0, "none", "the API reports no cache sizes and the device table does not know the device"};
}

nlohmann::json to_json(const LastLevelCache &llc)
{
    return {{"bytes", llc.bytes ? nlohmann::json(llc.bytes) : nlohmann::json()},
            {"source", llc.source},
            {"detail", llc.detail}};
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
               {"address",
                (i.known & VRB_KNOWN_PCI_ADDRESS) ? nlohmann::json(module_string(i.pci_address)) : nlohmann::json()}};
    } else {
        unknown["pci"] = i.type == VRB_DEVICE_CPU ? "a CPU is not a PCI device" : because;
    }

    nlohmann::json caches = nlohmann::json::array();
    for (uint32_t c = 0; c < std::min<uint32_t>(i.cache_count, VRB_MAX_CACHES); ++c)
        caches.push_back(
            {{"level", i.caches[c].level},
             {"kind", module_string(i.caches[c].kind)},
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
                               {"name", module_string(m.name)},
                               {"flags", memory_flag_names(m.flags)},
                               {"heap", m.heap_index < i.heap_count ? nlohmann::json(m.heap_index) : nlohmann::json()}};
        kind["max_allocation_bytes"] =
            m.max_allocation_bytes ? nlohmann::json(m.max_allocation_bytes) : nlohmann::json();
        kinds.push_back(kind);
    }
    nlohmann::json properties = nlohmann::json::object();
    for (uint32_t p = 0; p < std::min<uint32_t>(i.property_count, VRB_MAX_PROPERTIES); ++p)
        properties[module_string(i.properties[p].key)] = module_string(i.properties[p].value);

    nlohmann::json j = {
        {"id", d.id},
        {"backend", d.backend},
        {"index", d.index},
        {"key", d.key()},
        {"type", type_name(i.type)},
        {"name", module_string(i.name)},
        {"vendor", module_string(i.vendor)},
        {"api", module_string(i.api)},
        {"api_version", known_or_null(VRB_KNOWN_API_VERSION, "api_version", module_string(i.api_version))},
        {"driver_version", known_or_null(VRB_KNOWN_DRIVER_VERSION, "driver_version", module_string(i.driver_version))},
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
    const PeakChoice peak = d.peak();
    if (peak.gb_per_s) {
        j["peak_bandwidth_gbps"] = *peak.gb_per_s;
    } else {
        j["peak_bandwidth_gbps"] = nullptr;
        unknown["peak_bandwidth_gbps"] = peak.note;
    }
    j["peak"] = to_json(peak);
    j["last_level_cache"] = to_json(d.last_level_cache());
    if (d.link) {
        j["link"] = *d.link;
        if (d.link->is_null()) unknown["link"] = d.link_unknown.empty() ? "not read" : d.link_unknown;
    }
    if (d.time_budget) j["time_budget"] = *d.time_budget;
    if (d.ram_budget) j["ram_budget"] = *d.ram_budget;
    if (d.fabric) {
        j["fabric"] = *d.fabric;
        if (d.fabric->is_null()) unknown["fabric"] = d.fabric_unknown.empty() ? "not read" : d.fabric_unknown;
    }
    j["unknown"] = unknown;
    return j;
}

} // namespace vrb

namespace vrb {

namespace {

// As a module fills the field: the whole array may be text, without a NUL (module_text.hpp).
template <std::size_t N> void fill_text(char (&out)[N], std::string_view text)
{
    std::memset(out, 0, N);
    std::memcpy(out, text.data(), std::min(text.size(), N));
}

template <std::size_t N> void copy_text(char (&out)[N], const nlohmann::json &j, const char *field)
{
    const nlohmann::json v = j.value(field, nlohmann::json());
    fill_text(out, v.is_string() ? v.get<std::string>() : std::string());
}

// A count the description holds, or nothing when it is null (unknown).
template <typename T> std::optional<T> count_of(const nlohmann::json &j, const char *field)
{
    const nlohmann::json v = j.value(field, nlohmann::json());
    if (v.is_null()) return std::nullopt;
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        throw UsageError(fmt::format("device description: {} is not a count", field));
    return v.get<T>();
}

uint32_t type_from_name(const std::string &name)
{
    if (name == "cpu") return VRB_DEVICE_CPU;
    if (name == "discrete-gpu") return VRB_DEVICE_DISCRETE_GPU;
    if (name == "integrated-gpu") return VRB_DEVICE_INTEGRATED_GPU;
    if (name == "virtual-gpu") return VRB_DEVICE_VIRTUAL_GPU;
    return VRB_DEVICE_OTHER;
}

uint32_t flags_from_names(const nlohmann::json &names)
{
    uint32_t flags = 0;
    if (!names.is_array()) return flags;
    for (uint32_t bit = 1; bit != 0 && bit <= VRB_MEMORY_HOST_MEMORY; bit <<= 1)
        for (const std::string &name : memory_flag_names(bit))
            for (const auto &n : names)
                if (n.is_string() && n.get<std::string>() == name) flags |= bit;
    return flags;
}

} // namespace

DeviceRecord device_record_from_json(const nlohmann::json &j)
{
    if (!j.is_object() || !j.value("id", nlohmann::json()).is_string())
        throw UsageError("device description: not an object with an id");
    DeviceRecord d;
    d.id = j["id"].get<std::string>();
    d.backend = text_or(j, "backend", "");
    d.index = count_of<uint32_t>(j, "index").value_or(0);
    vrb_device_info &i = d.info;
    i.struct_size = sizeof i;
    i.type = type_from_name(text_or(j, "type", "other"));
    copy_text(i.name, j, "name");
    copy_text(i.vendor, j, "vendor");
    copy_text(i.api, j, "api");
    copy_text(i.api_version, j, "api_version");
    copy_text(i.driver_version, j, "driver_version");
    if (j.contains("api_version") && j["api_version"].is_string()) i.known |= VRB_KNOWN_API_VERSION;
    if (j.contains("driver_version") && j["driver_version"].is_string()) i.known |= VRB_KNOWN_DRIVER_VERSION;
    if (const nlohmann::json pci = j.value("pci", nlohmann::json()); pci.is_object()) {
        const auto vendor = count_of<uint32_t>(pci, "vendor_id"), device = count_of<uint32_t>(pci, "device_id");
        if (vendor && device) {
            i.pci_vendor_id = *vendor;
            i.pci_device_id = *device;
            i.known |= VRB_KNOWN_PCI_IDS;
        }
        if (pci.value("address", nlohmann::json()).is_string()) {
            copy_text(i.pci_address, pci, "address");
            i.known |= VRB_KNOWN_PCI_ADDRESS;
        }
    }
    const std::pair<const char *, std::pair<uint64_t, uint64_t *>> wide[] = {
        {"total_memory_bytes", {VRB_KNOWN_TOTAL_MEMORY, &i.total_memory_bytes}},
        {"free_memory_bytes", {VRB_KNOWN_FREE_MEMORY, &i.free_memory_bytes}}};
    for (const auto &[field, target] : wide)
        if (const auto v = count_of<uint64_t>(j, field)) {
            *target.second = *v;
            i.known |= target.first;
        }
    const std::pair<const char *, std::pair<uint64_t, uint32_t *>> narrow[] = {
        {"memory_bus_width_bits", {VRB_KNOWN_BUS_WIDTH, &i.memory_bus_width_bits}},
        {"memory_clock_khz", {VRB_KNOWN_MEMORY_CLOCK, &i.memory_clock_khz}},
        {"compute_units", {VRB_KNOWN_COMPUTE_UNITS, &i.compute_units}},
        {"core_clock_khz", {VRB_KNOWN_CORE_CLOCK, &i.core_clock_khz}}};
    for (const auto &[field, target] : narrow)
        if (const auto v = count_of<uint32_t>(j, field)) {
            *target.second = *v;
            i.known |= target.first;
        }
    for (const auto &c : array_or_empty(j, "caches")) {
        if (i.cache_count >= VRB_MAX_CACHES) break;
        vrb_cache_info &out = i.caches[i.cache_count++];
        out.level = count_of<uint32_t>(c, "level").value_or(0);
        out.bytes = count_of<uint64_t>(c, "bytes").value_or(0);
        out.shared_by = count_of<uint32_t>(c, "shared_by").value_or(0);
        copy_text(out.kind, c, "kind");
    }
    for (const auto &h : array_or_empty(j, "heaps")) {
        if (i.heap_count >= VRB_MAX_HEAPS) break;
        vrb_heap_info &out = i.heaps[i.heap_count++];
        out.bytes = count_of<uint64_t>(h, "bytes").value_or(0);
        out.budget_bytes = count_of<uint64_t>(h, "budget_bytes").value_or(0);
        out.flags = flags_from_names(h.value("flags", nlohmann::json()));
    }
    for (const auto &k : array_or_empty(j, "memory_kinds")) {
        vrb_memory_kind_info kind{};
        kind.struct_size = sizeof kind;
        kind.flags = flags_from_names(k.value("flags", nlohmann::json()));
        copy_text(kind.name, k, "name");
        kind.heap_index = count_of<uint32_t>(k, "heap").value_or(UINT32_MAX);
        kind.max_allocation_bytes = count_of<uint64_t>(k, "max_allocation_bytes").value_or(0);
        d.kinds.push_back(kind);
    }
    if (j.contains("time_budget")) d.time_budget = j["time_budget"];
    if (j.contains("ram_budget")) d.ram_budget = j["ram_budget"];
    if (j.contains("link")) {
        d.link = j["link"];
        d.link_unknown = text_or(object_or_empty(j, "unknown"), "link", "");
    }
    if (j.contains("fabric")) {
        d.fabric = j["fabric"];
        d.fabric_unknown = text_or(object_or_empty(j, "unknown"), "fabric", "");
    }
    const nlohmann::json properties = object_or_empty(j, "properties");
    for (const auto &[key, value] : properties.items()) {
        if (i.property_count >= VRB_MAX_PROPERTIES || !value.is_string()) continue;
        vrb_property &p = i.properties[i.property_count++];
        fill_text(p.key, key);
        fill_text(p.value, value.get<std::string>());
    }
    return d;
}

} // namespace vrb
