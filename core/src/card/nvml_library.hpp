// NVML opened at run time (no link-time dependency): the library handle, its open and
// shutdown, and NVML's words for its codes. Shared by the telemetry source and the
// NVLink reader; the few declarations used are written as nvml.h defines them, so the
// build needs no NVIDIA header.
#pragma once

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <string>

// NVML's own handle type name: a call through a function pointer must name the types
// the library's definition does (UBSan checks it).
struct nvmlDevice_st;

namespace vrb::nvml {

using Return = int;
using Device = nvmlDevice_st *;
inline constexpr Return kSuccess = 0;
inline constexpr Return kNotSupported = 3;

// NVML's own names of the codes it returns, for a library without nvmlErrorString.
inline std::string code_text(Return code)
{
    switch (code) {
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
    case 13: return "Function Not Found";
    case 15: return "GPU is lost";
    default: return "Unknown Error";
    }
}

class Library {
  public:
    explicit Library(const std::string &file) : handle_(::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL))
    {
        if (!handle_) why_ = fmt::format("nvml: cannot open {}: {}", file, ::dlerror());
    }
    ~Library()
    {
        if (handle_) ::dlclose(handle_);
    }
    Library(const Library &) = delete;
    Library &operator=(const Library &) = delete;
    bool open() const { return handle_ != nullptr; }
    const std::string &why() const { return why_; }
    template <typename F> F symbol(const char *name) const
    {
        return handle_ ? reinterpret_cast<F>(::dlsym(handle_, name)) : nullptr;
    }
    // "Not Supported (3)", in the library's words where it has nvmlErrorString.
    std::string words(Return code) const
    {
        const auto error_string = symbol<const char *(*)(Return)>("nvmlErrorString");
        const char *text = error_string ? error_string(code) : nullptr;
        return fmt::format("{} ({})", text ? text : code_text(code), code);
    }

  private:
    void *handle_;
    std::string why_;
};

// The library initialised and the device at a PCI address found; shut down when it ends.
class Session {
  public:
    // VRAMBENCH_NVML_LIBRARY when set, else libnvidia-ml.so.1. On failure, device() is
    // null and why() says why, in NVML's words.
    explicit Session(const std::string &address)
    {
        const char *named = std::getenv("VRAMBENCH_NVML_LIBRARY");
        library_ = std::make_unique<Library>(named && *named ? named : "libnvidia-ml.so.1");
        if (!library_->open()) {
            why_ = library_->why();
            return;
        }
        const auto init = library_->symbol<Return (*)()>("nvmlInit_v2");
        const auto by_pci = library_->symbol<Return (*)(const char *, Device *)>("nvmlDeviceGetHandleByPciBusId_v2");
        if (!init || !by_pci) {
            why_ = "nvml: the library lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
            return;
        }
        if (const Return code = init(); code != kSuccess) {
            why_ = fmt::format("nvml: nvmlInit_v2 failed: {}", library_->words(code));
            return;
        }
        initialised_ = true;
        if (const Return code = by_pci(address.c_str(), &device_); code != kSuccess) {
            why_ = fmt::format("nvml: no NVIDIA device at {}: {}", address, library_->words(code));
            device_ = nullptr;
        }
    }
    ~Session()
    {
        if (initialised_)
            if (auto shutdown = library_->symbol<Return (*)()>("nvmlShutdown")) shutdown();
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
    Device device() const { return device_; }
    const std::string &why() const { return why_; }
    const Library &library() const { return *library_; }

  private:
    std::unique_ptr<Library> library_;
    bool initialised_ = false;
    Device device_ = nullptr;
    std::string why_;
};

} // namespace vrb::nvml
