#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/results/card_key.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <fmt/format.h>
#include <sys/utsname.h>

#include <algorithm>
#include <iterator>

namespace vrb {

bool software_device(const vrb_device_info &info)
{
    if (info.type == VRB_DEVICE_CPU) return true;
    return (info.known & VRB_KNOWN_UUID) &&
           std::all_of(std::begin(info.uuid), std::end(info.uuid), [](uint8_t byte) { return byte == 0; });
}

std::string card_key(const vrb_device_info &info, const std::string &id, const std::string &host)
{
    if ((info.known & VRB_KNOWN_PCI_ADDRESS) && info.pci_address[0])
        return fmt::format("pci:{}", module_text(info.pci_address));
    if (!(info.known & VRB_KNOWN_UUID)) return id;
    const std::string uuid = "uuid:" + uuid_text(info.uuid);
    return software_device(info) ? fmt::format("host:{}/{}", host, uuid) : uuid;
}

std::string this_host_name()
{
    utsname u{};
    return uname(&u) == 0 ? std::string(u.nodename) : std::string("unknown");
}

} // namespace vrb
