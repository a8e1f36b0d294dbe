// A fake "/" for the card's sysfs and /proc files (VRAMBENCH_SYSFS_ROOT): PCI devices
// with their link files and the port above them, amdgpu's files, /proc/stat, cpufreq.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace vrb::test {

class FakeSystemTree {
  public:
    FakeSystemTree()
    {
        root_ = std::filesystem::temp_directory_path() /
                ("vrambench-sysfs-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(root_);
    }
    ~FakeSystemTree()
    {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }
    FakeSystemTree(const FakeSystemTree &) = delete;
    FakeSystemTree &operator=(const FakeSystemTree &) = delete;

    const std::filesystem::path &root() const { return root_; }
    std::string env() const { return "VRAMBENCH_SYSFS_ROOT=" + root_.string(); }

    // Writes `text` to `path` ("/proc/stat") under the root, folders made as needed.
    void write(const std::string &path, const std::string &text) const
    {
        const auto file = root_ / std::filesystem::path(path).relative_path();
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }

    // A card at `address` below the port `port`, as sysfs lays them out: the real folder
    // under /sys/devices, a link to it under /sys/bus/pci/devices. Speeds as the kernel
    // writes them ("16.0 GT/s PCIe").
    std::string pci_card(const std::string &address, const std::string &current_speed, int current_width,
                         const std::string &max_speed, int max_width, const std::string &port = "0000:00:01.0",
                         const std::string &port_speed = "32.0 GT/s PCIe", int port_width = 16) const
    {
        const std::string port_folder = "/sys/devices/pci0000:00/" + port;
        const std::string folder = port_folder + "/" + address;
        write(port_folder + "/max_link_speed", port_speed + "\n");
        write(port_folder + "/max_link_width", std::to_string(port_width) + "\n");
        write(folder + "/current_link_speed", current_speed + "\n");
        write(folder + "/current_link_width", std::to_string(current_width) + "\n");
        write(folder + "/max_link_speed", max_speed + "\n");
        write(folder + "/max_link_width", std::to_string(max_width) + "\n");
        std::filesystem::create_directories(root_ / "sys/bus/pci/devices");
        std::error_code ec;
        std::filesystem::remove(root_ / "sys/bus/pci/devices" / address, ec);
        std::filesystem::create_directory_symlink("../../../devices/pci0000:00/" + port + "/" + address,
                                                  root_ / "sys/bus/pci/devices" / address);
        return "/sys/bus/pci/devices/" + address;
    }

  private:
    static int &counter()
    {
        static int n = 0;
        return n;
    }
    std::filesystem::path root_;
};

// Sets VRAMBENCH_SYSFS_ROOT (or another variable) while it lives.
class ScopedEnv {
  public:
    ScopedEnv(const char *name, const std::string &value) : name_(name)
    {
        if (const char *old = std::getenv(name)) old_ = old, had_ = true;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv()
    {
        if (had_)
            ::setenv(name_, old_.c_str(), 1);
        else
            ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    const char *name_;
    std::string old_;
    bool had_ = false;
};

} // namespace vrb::test
