// An NVIDIA card through NVML, opened at run time (no link-time dependency), matched by
// PCI address whichever API measures the card. The few declarations used are written
// here as nvml.h defines them, so the build needs no NVIDIA header.
#include <vrambench/core/card/telemetry.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>

// NVML's own names for its handle and utilization types: a call through a function
// pointer must name the types the library's definition does (UBSan checks it).
struct nvmlDevice_st;
struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

namespace vrb {

namespace {

using nvml_return = int;
using nvml_device = nvmlDevice_st *;
using nvml_utilization = nvmlUtilization_st;
constexpr nvml_return kSuccess = 0;
constexpr unsigned kClockSm = 1, kClockMemory = 2, kTemperatureGpu = 0;

// nvmlClocksEventReasons (formerly ThrottleReasons) bits and what a result calls them.
constexpr std::pair<unsigned long long, const char *> kReasons[] = {
    {0x1, "idle"},        {0x2, "applications-clocks"}, {0x4, "power-cap"},
    {0x8, "hw-slowdown"}, {0x10, "sync-boost"},         {0x20, "sw-thermal"},
    {0x40, "hw-thermal"}, {0x80, "hw-power-brake"},     {0x100, "display-clocks"},
};

// NVML's own names of the codes it returns, for a library without nvmlErrorString.
std::string code_text(nvml_return code)
{
    switch (code) {
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
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

  private:
    void *handle_;
    std::string why_;
};

class NvmlSource final : public TelemetrySource {
  public:
    NvmlSource(std::unique_ptr<Library> library, nvml_device device) : library_(std::move(library)), device_(device)
    {
        error_string_ = library_->symbol<const char *(*)(nvml_return)>("nvmlErrorString");
    }
    ~NvmlSource() override
    {
        if (auto shutdown = library_->symbol<nvml_return (*)()>("nvmlShutdown")) shutdown();
    }
    std::string name() const override { return "nvml"; }
    TelemetrySample sample() override
    {
        TelemetrySample s;
        unsigned value = 0;
        using clock_fn = nvml_return (*)(nvml_device, unsigned, unsigned *);
        if (call<clock_fn>("core_clock_mhz", "nvmlDeviceGetClockInfo", device_, kClockSm, &value))
            s.figures["core_clock_mhz"] = value;
        if (call<clock_fn>("memory_clock_mhz", "nvmlDeviceGetClockInfo", device_, kClockMemory, &value))
            s.figures["memory_clock_mhz"] = value;
        using uint_fn = nvml_return (*)(nvml_device, unsigned *);
        if (call<uint_fn>("power_w", "nvmlDeviceGetPowerUsage", device_, &value)) s.figures["power_w"] = value / 1000.0;
        if (call<uint_fn>("power_limit_w", "nvmlDeviceGetEnforcedPowerLimit", device_, &value))
            s.figures["power_limit_w"] = value / 1000.0;
        if (s.figures.contains("power_w") && s.figures.contains("power_limit_w") && s.figures["power_limit_w"] > 0)
            s.figures["power_of_limit"] = s.figures["power_w"] / s.figures["power_limit_w"];
        else
            missing("power_of_limit", "needs both power and its limit");
        if (call<clock_fn>("temperature_c", "nvmlDeviceGetTemperature", device_, kTemperatureGpu, &value))
            s.figures["temperature_c"] = value;
        nvml_utilization use{};
        using use_fn = nvml_return (*)(nvml_device, nvml_utilization *);
        if (call<use_fn>("busy_percent", "nvmlDeviceGetUtilizationRates", device_, &use)) {
            s.figures["busy_percent"] = use.gpu;
            s.figures["memory_busy_percent"] = use.memory;
        } else {
            missing("memory_busy_percent", unavailable().at("busy_percent"));
        }
        unsigned long long reasons = 0;
        using reasons_fn = nvml_return (*)(nvml_device, unsigned long long *);
        // The newer name first; drivers before 535 know only the older one.
        const char *reasons_name = library_->symbol<reasons_fn>("nvmlDeviceGetCurrentClocksEventReasons")
                                       ? "nvmlDeviceGetCurrentClocksEventReasons"
                                       : "nvmlDeviceGetCurrentClocksThrottleReasons";
        if (call<reasons_fn>("throttle_reasons", reasons_name, device_, &reasons)) {
            std::vector<std::string> names;
            for (const auto &[bit, name] : kReasons)
                if (reasons & bit) names.emplace_back(name);
            s.throttle_reasons = std::move(names);
        }
        // The link as NVML sees it: what a sample records where sysfs cannot be read.
        unsigned generation = 0, width = 0;
        if (call<uint_fn>("link", "nvmlDeviceGetCurrPcieLinkGeneration", device_, &generation) &&
            call<uint_fn>("link", "nvmlDeviceGetCurrPcieLinkWidth", device_, &width) && generation >= 1 &&
            generation <= 7) {
            static const double speeds[] = {2.5, 5, 8, 16, 32, 64, 128};
            s.link = {speeds[generation - 1], width};
        }
        return s;
    }

  private:
    // Calls NVML's `function`; on failure records why `figure` is missing, in NVML's words.
    template <typename F, typename... Args> bool call(const char *figure, const char *function, Args... args)
    {
        const F f = library_->symbol<F>(function);
        if (!f) {
            missing(figure, fmt::format("nvml: the library has no {}", function));
            return false;
        }
        const nvml_return code = f(args...);
        if (code == kSuccess) return true;
        const char *text = error_string_ ? error_string_(code) : nullptr;
        missing(figure, fmt::format("nvml: {} failed: {} ({})", function, text ? text : code_text(code), code));
        return false;
    }
    std::unique_ptr<Library> library_;
    nvml_device device_;
    const char *(*error_string_)(nvml_return) = nullptr;
};

} // namespace

std::unique_ptr<TelemetrySource> nvml_telemetry_source(const std::string &address, std::string &why_not)
{
    const char *named = std::getenv("VRAMBENCH_NVML_LIBRARY");
    auto library = std::make_unique<Library>(named && *named ? named : "libnvidia-ml.so.1");
    if (!library->open()) {
        why_not = library->why();
        return nullptr;
    }
    const auto init = library->symbol<nvml_return (*)()>("nvmlInit_v2");
    const auto by_pci =
        library->symbol<nvml_return (*)(const char *, nvml_device *)>("nvmlDeviceGetHandleByPciBusId_v2");
    if (!init || !by_pci) {
        why_not = "nvml: the library lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
        return nullptr;
    }
    if (const nvml_return code = init(); code != kSuccess) {
        why_not = fmt::format("nvml: nvmlInit_v2 failed: {} ({})", code_text(code), code);
        return nullptr;
    }
    nvml_device device = nullptr;
    if (const nvml_return code = by_pci(address.c_str(), &device); code != kSuccess) {
        why_not = fmt::format("nvml: no NVIDIA device at {}: {} ({})", address, code_text(code), code);
        if (auto shutdown = library->symbol<nvml_return (*)()>("nvmlShutdown")) shutdown();
        return nullptr;
    }
    return std::make_unique<NvmlSource>(std::move(library), device);
}

} // namespace vrb
