// A built GPU backend module, loaded through the plugin ABI alone: dlopen, the entry
// symbol and the table it answers with. No part of the core is involved.
#pragma once

#include <vrambench/plugin.h>

#include <dlfcn.h>

#include <cstdlib>
#include <ostream>
#include <sstream>
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

// The backends VRAMBENCH_REQUIRE_GPU names (space- or comma-separated: "cuda", "hip"):
// scripts/gpu-check sets it where nvidia-smi, amd-smi or rocm-smi lists a GPU, so that a
// module that cannot reach it fails the GPU tests instead of skipping them. A name that is
// neither is returned too, for RequiredGpu.NamesOnlyBuiltGpuBackends to refuse.
inline std::vector<std::string> required_gpu_backends()
{
    std::vector<std::string> names;
    const char *value = std::getenv("VRAMBENCH_REQUIRE_GPU");
    if (!value) return names;
    std::string text = value;
    for (char &c : text)
        if (c == ',') c = ' ';
    std::istringstream words(text);
    for (std::string word; words >> word;)
        names.push_back(word);
    return names;
}
inline bool gpu_required(const std::string &backend)
{
    for (const std::string &name : required_gpu_backends())
        if (name == backend) return true;
    return false;
}

// Skips the test with `why` where the module has no device here, or fails it where
// VRAMBENCH_REQUIRE_GPU says this machine's GPU must be reached through `backend`.
#define VRB_SKIP_UNLESS_GPU_REQUIRED(backend, why)                                                                     \
    do {                                                                                                               \
        if (vrb::test::gpu_required(backend))                                                                          \
            FAIL() << "VRAMBENCH_REQUIRE_GPU=" << std::getenv("VRAMBENCH_REQUIRE_GPU") << ": this machine has a GPU "  \
                   << "for the " << (backend) << " backend, which cannot reach it: " << (why);                         \
        GTEST_SKIP() << (why);                                                                                         \
    } while (0)

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
