// An NVIDIA card through NVML, opened at run time (nvml_library.hpp), matched by PCI
// address whichever API measures the card.
#include "nvml_library.hpp"

#include <vrambench/core/card/telemetry.hpp>
#include <vrambench/core/card/throttle_reasons.hpp>

#include <fmt/format.h>

// NVML's own name for its utilization type: a call through a function pointer must name
// the types the library's definition does (UBSan checks it).
struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

namespace vrb {

namespace {

using nvml_return = nvml::Return;
using nvml_device = nvml::Device;
using nvml_utilization = nvmlUtilization_st;
constexpr nvml_return kSuccess = nvml::kSuccess;
constexpr unsigned kClockSm = 1, kClockMemory = 2, kTemperatureGpu = 0;

class NvmlSource final : public TelemetrySource {
  public:
    explicit NvmlSource(std::unique_ptr<nvml::Session> session)
        : session_(std::move(session)), library_(&session_->library()), device_(session_->device())
    {
    }
    std::string name() const override { return "nvml"; }
    // NVML's API reference: nvmlDeviceGetUtilizationRates reports the share of "the past
    // sample period", between 1/6 s and 1 s by product; nvmlDeviceGetPowerUsage on Ampere
    // and newer (GA100 excepted) the power averaged over 1 s.
    std::map<std::string, std::string> averaged() const override
    {
        const std::string use = "NVML's utilisation over its own sample period (1/6 s to 1 s by product), which "
                                "may reach back before the timed runs";
        const std::string power = "NVML's power reading, averaged over 1 s on Ampere and newer (GA100 excepted), "
                                  "which may reach back before the timed runs";
        return {{"busy_percent", use}, {"memory_busy_percent", use}, {"power_w", power}, {"power_of_limit", power}};
    }
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
            for (const ThrottleReason &r : kThrottleReasons)
                if (r.nvml_bit && (reasons & r.nvml_bit)) names.emplace_back(r.name);
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
        missing(figure, fmt::format("nvml: {} failed: {}", function, library_->words(code)));
        return false;
    }
    std::unique_ptr<nvml::Session> session_;
    const nvml::Library *library_;
    nvml_device device_;
};

} // namespace

std::unique_ptr<TelemetrySource> nvml_telemetry_source(const std::string &address, std::string &why_not)
{
    auto session = std::make_unique<nvml::Session>(address);
    if (!session->device()) {
        why_not = session->why();
        return nullptr;
    }
    return std::make_unique<NvmlSource>(std::move(session));
}

} // namespace vrb
