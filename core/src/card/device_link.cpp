#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/sysfs.hpp>
#include <vrambench/core/card/telemetry.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

namespace vrb {

void describe_link(DeviceRecord &device)
{
    describe_fabric(device);
    const vrb_device_info &info = device.info;
    device.link = nlohmann::json();
    if (info.type == VRB_DEVICE_CPU) {
        device.link_unknown = "a CPU is not a PCI device, so it has no PCIe link";
        return;
    }
    if (!(info.known & VRB_KNOWN_PCI_ADDRESS)) {
        device.link_unknown = fmt::format("the {} backend reports no PCI address to read the link by", device.backend);
        return;
    }
    const std::string address = module_string(info.pci_address);
    std::error_code ec;
    if (!std::filesystem::exists(system_path(pci_device_folder(address)), ec)) {
        device.link_unknown = fmt::format("no sysfs folder {} for the device's PCI address",
                                          system_path(pci_device_folder(address)).string());
        return;
    }
    // GPUs lower the link's speed when idle: this reading may be below what a transfer
    // sees, which is why transfer results carry their own.
    device.link = to_json(read_pcie_link(address), "at description, idle");
}

} // namespace vrb
