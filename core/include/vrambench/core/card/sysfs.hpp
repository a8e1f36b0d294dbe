// Every read of the kernel's files about a card (/sys and /proc) goes through one root,
// so tests build fake trees: VRAMBENCH_SYSFS_ROOT names a folder that stands for "/"
// (its sys/bus/pci/devices/..., sys/devices/system/cpu/..., proc/stat).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace vrb {

// VRAMBENCH_SYSFS_ROOT when set and not empty, else "/". Read at each call.
std::filesystem::path system_root();

// `path` ("/sys/bus/pci/devices/...") under system_root().
std::filesystem::path system_path(const std::string &path);

// What one read found: the text (trimmed of surrounding white space), or why there is none.
struct FileText {
    std::optional<std::string> text;
    std::string why; // "no such file: /sys/...", "empty: ..." when text is absent
};

// Reads a small file under the root ("/sys/bus/pci/devices/0000:01:00.0/current_link_speed").
FileText read_system_file(const std::string &path);

// A whole number from a file, or why not: a file that holds anything else (garbage,
// several numbers, a sign) is "not a number" with what it held.
struct FileNumber {
    std::optional<double> value;
    std::string why;
};
FileNumber read_system_number(const std::string &path);

// The sysfs folder of a PCI function: /sys/bus/pci/devices/ADDRESS.
std::string pci_device_folder(const std::string &address);

} // namespace vrb
