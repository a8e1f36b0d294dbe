#include <vrambench/core/card/sysfs.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace vrb {

std::filesystem::path system_root()
{
    const char *root = std::getenv("VRAMBENCH_SYSFS_ROOT");
    return root && *root ? std::filesystem::path(root) : std::filesystem::path("/");
}

std::filesystem::path system_path(const std::string &path)
{
    return system_root() / std::filesystem::path(path).relative_path();
}

FileText read_system_file(const std::string &path)
{
    const std::filesystem::path file = system_path(path);
    std::ifstream in(file);
    if (!in) return {std::nullopt, fmt::format("no such file: {}", file.string())};
    std::ostringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {std::nullopt, fmt::format("{} is empty", file.string())};
    s = s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
    return {std::move(s), {}};
}

FileNumber read_system_number(const std::string &path)
{
    const FileText t = read_system_file(path);
    if (!t.text) return {std::nullopt, t.why};
    const std::string &s = *t.text;
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || s.front() == '-' || s.front() == '+' || !(v == v))
        return {std::nullopt, fmt::format("{} holds '{}', not a number", system_path(path).string(), s.substr(0, 40))};
    return {v, {}};
}

std::string pci_device_folder(const std::string &address)
{
    return "/sys/bus/pci/devices/" + address;
}

} // namespace vrb
