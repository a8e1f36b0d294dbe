// A built GPU backend module, loaded through the plugin ABI alone: dlopen, the entry
// symbol and the table it answers with. No part of the core is involved.
#pragma once

#include <vrambench/plugin.h>

#include <dlfcn.h>

#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace vrb::test {

struct BuiltModule {
    std::string name; // the backend's name, as its table must say it
    std::string path;
    std::string api; // how its messages name the API
};

// Where the build put a module, or, where VRB_TEST_MODULE_DIR is set, the file of that
// name in that folder: scripts/gpu-check carries a build to another machine, where the
// build's own paths do not exist.
inline std::string module_path(const std::string &built)
{
    const char *dir = std::getenv("VRB_TEST_MODULE_DIR");
    if (!dir || !*dir) return built;
    const std::size_t slash = built.rfind('/');
    return std::string(dir) + "/" + (slash == std::string::npos ? built : built.substr(slash + 1));
}

inline std::vector<BuiltModule> built_modules()
{
    std::vector<BuiltModule> modules;
#ifdef VRB_TEST_CUDA_MODULE
    modules.push_back({"cuda", module_path(VRB_TEST_CUDA_MODULE), "CUDA"});
#endif
#ifdef VRB_TEST_HIP_MODULE
    modules.push_back({"hip", module_path(VRB_TEST_HIP_MODULE), "HIP"});
#endif
    return modules;
}

inline std::ostream &operator<<(std::ostream &out, const BuiltModule &m)
{
    return out << m.name;
}

class LoadedModule {
  public:
    explicit LoadedModule(const std::string &path)
    {
        handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            const char *why = dlerror();
            error_ = why ? why : "dlopen failed";
            return;
        }
        entry_ = reinterpret_cast<vrb_plugin_entry_fn>(dlsym(handle_, VRB_ENTRY_SYMBOL));
        if (!entry_) error_ = "no " VRB_ENTRY_SYMBOL " in " + path;
    }
    ~LoadedModule()
    {
        if (handle_) dlclose(handle_);
    }
    LoadedModule(const LoadedModule &) = delete;
    LoadedModule &operator=(const LoadedModule &) = delete;

    bool loaded() const { return entry_ != nullptr; }
    vrb_plugin_entry_fn entry() const { return entry_; }
    const std::string &error() const { return error_; }

    vrb_status negotiate(uint32_t host_version, vrb_negotiation &n) const
    {
        n = vrb_negotiation{};
        n.struct_size = sizeof n;
        n.host_version = host_version;
        return entry_(&n);
    }

    // The table for the host's own version, or null.
    const vrb_plugin_table *table() const
    {
        vrb_negotiation n;
        return negotiate(VRB_ABI_VERSION, n) == VRB_OK ? n.table : nullptr;
    }

  private:
    void *handle_ = nullptr;
    vrb_plugin_entry_fn entry_ = nullptr;
    std::string error_;
};

inline vrb_host_table quiet_host()
{
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    return host;
}

} // namespace vrb::test
