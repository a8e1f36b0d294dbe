#include <vrambench/core/health/card_model.hpp>
#include <vrambench/core/publishing/compare.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <cstring>
#include <regex>

namespace vrb::health {

namespace {

CardModel resolve(std::string key, uint32_t vendor, uint32_t device, double bytes)
{
    CardModel model;
    model.key = std::move(key);
    model.pci = true;
    vrb_device_info info;
    std::memset(&info, 0, sizeof info);
    info.known = VRB_KNOWN_PCI_IDS;
    info.pci_vendor_id = vendor;
    info.pci_device_id = device;
    if (bytes > 0) {
        info.known |= VRB_KNOWN_TOTAL_MEMORY;
        info.total_memory_bytes = static_cast<uint64_t>(bytes);
    }
    const CardMatch match = match_card(info);
    model.spec_why = match.why;
    if (match.kind == CardMatch::Kind::unique) model.spec = match.card;
    return model;
}

} // namespace

CardModel card_model_of(const nlohmann::json &device)
{
    const std::string key = device_match_text(device, DeviceMatch::model);
    const nlohmann::json &pci = object_or_empty(device, "pci");
    if (!pci.contains("vendor_id") || !pci["vendor_id"].is_number() || !pci.contains("device_id") ||
        !pci["device_id"].is_number())
        return {key, nullptr, "the device records no PCI ids"};
    return resolve(key, pci["vendor_id"].get<uint32_t>(), pci["device_id"].get<uint32_t>(),
                   number_or(device, "total_memory_bytes", 0));
}

CardModel card_model_of_key(const std::string &key)
{
    static const std::regex form(R"(^([0-9a-fA-F]{4}):([0-9a-fA-F]{4}), *([0-9]+(\.[0-9]+)?) *(GiB|GB|MiB)$)");
    std::smatch m;
    if (!std::regex_match(key, m, form))
        return {key, nullptr,
                "not a card key: write it as compare --match model does, PCI vendor:device and memory, "
                "e.g. \"10de:2335, 140.4 GiB\""};
    const double size = std::stod(m[3].str());
    const std::string unit = m[5].str();
    const double bytes = unit == "GiB" ? size * (1ull << 30) : unit == "MiB" ? size * (1ull << 20) : size * 1e9;
    return resolve(key, std::stoul(m[1].str(), nullptr, 16), std::stoul(m[2].str(), nullptr, 16), bytes);
}

bool same_model(const CardModel &a, const CardModel &b)
{
    if (a.spec && b.spec) return a.spec == b.spec;
    return a.key == b.key;
}

} // namespace vrb::health
