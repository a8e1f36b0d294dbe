// What a card was doing while it was measured: clocks, power against its limit,
// temperature, throttle reasons, busy time. Read by PCI address from the card's own
// source whatever API measures it (NVML for NVIDIA cards, amdgpu's sysfs for AMD ones),
// and from /proc/stat and cpufreq for a CPU device.
#pragma once

#include <vrambench/core/card/link.hpp>
#include <vrambench/core/results/device_record.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vrb {

// Reads the device's PCIe link into device.link ("at description, idle"), or null with
// the reason: a CPU has none, a backend without a PCI address cannot say, a PCI address
// with no sysfs folder (a container, another machine) cannot be read. Reads the device's
// GPU-to-GPU fabric too (fabric.hpp: describe_fabric).
void describe_link(DeviceRecord &device);

// The figures a source may give, by the name a result records them under.
inline constexpr const char *kTelemetryFigures[] = {
    "core_clock_mhz",      // SM/graphics clock; for a CPU, the mean of its cores' cpufreq
    "memory_clock_mhz",    // as the driver reports it
    "power_w",             // board power
    "power_limit_w",       // the limit the driver enforces
    "power_of_limit",      // power_w / power_limit_w
    "temperature_c",       // the GPU's (edge) temperature
    "busy_percent",        // share of time a kernel ran (GPU) or the CPUs were busy
    "memory_busy_percent", // share of time the memory controller was busy
};

// Throttle reasons that mean the card ran below its clocks for a cause outside the
// measurement: power, thermal or hardware slowdown (throttle_reasons.hpp's classes other
// than `setting`). Other reasons (idle, application clocks) are recorded but do not mark
// a result throttled; `health` judges the classes apart.
bool is_throttling_reason(const std::string &reason);

// The name of the host's own source (host_telemetry_source): a CPU, not a card.
inline constexpr const char *kHostSourceName = "host-proc";

struct TelemetrySample {
    std::map<std::string, double> figures;
    std::optional<std::vector<std::string>> throttle_reasons; // empty: none active; absent: unknown
    LinkSpeed link;                                           // the link's current speed, PCI devices only
    bool during_timed_runs = false;
};

// One card's source. sample() never throws: what it cannot read it leaves out and says
// why in unavailable().
class TelemetrySource {
  public:
    virtual ~TelemetrySource() = default;
    virtual std::string name() const = 0; // "nvml", "amdgpu-sysfs", "host-proc"
    virtual TelemetrySample sample() = 0;
    // The figures the source reports as an average over a window of its own, longer than
    // one sample (a driver's utilisation or power counter), with that window in words: a
    // result marks them, for they describe more than its timed runs.
    virtual std::map<std::string, std::string> averaged() const { return {}; }
    const std::map<std::string, std::string> &unavailable() const { return unavailable_; }

  protected:
    // Records why `figure` is missing (the first reason seen is kept).
    void missing(const std::string &figure, const std::string &why) { unavailable_.emplace(figure, why); }

  private:
    std::map<std::string, std::string> unavailable_;
};

// The source for a described device, or none with the reasons each candidate gave
// ("nvml: libnvidia-ml.so.1 not found", ...). A CPU device reads the host.
struct OpenedSource {
    std::unique_ptr<TelemetrySource> source;
    std::string why_none;
};
OpenedSource open_telemetry_source(const DeviceRecord &device);

// The sources, for tests and for open_telemetry_source().
std::unique_ptr<TelemetrySource> host_telemetry_source();
// NULL with the reason when the device is not driven by amdgpu.
std::unique_ptr<TelemetrySource> amdgpu_telemetry_source(const std::string &address, std::string &why_not);
// NVML from VRAMBENCH_NVML_LIBRARY when set, else libnvidia-ml.so.1, opened at run time;
// NULL with the reason when it is not there or does not know the address.
std::unique_ptr<TelemetrySource> nvml_telemetry_source(const std::string &address, std::string &why_not);

// A result's `telemetry` object from the samples taken during it (schema:
// definitions/telemetry): min, median and max of each figure, the throttle reasons seen,
// how many samples and which window they cover, what was unavailable and why, and the
// figures that are the source's own averages over a longer window (`averaged`).
nlohmann::json summarize_telemetry(const std::vector<TelemetrySample> &samples, const std::string &source,
                                   const std::map<std::string, std::string> &unavailable, const std::string &window,
                                   const std::map<std::string, std::string> &averaged = {});

// The result's `throttled` object (reasons and the samples they were active in), or
// null when no sample saw a throttling reason.
nlohmann::json throttled_json(const std::vector<TelemetrySample> &samples);

// A GPU lowers its clocks when it finds itself idle, and between short timed runs it
// may: an H200 under Vulkan ran a suite's later probes at 500-700 MHz of its 1980, at
// half the bandwidth. A result whose timed-run samples' median core clock is below
// kClockedDownShare x `peak_mhz` (the highest core clock the card has shown in this
// run) gets "clocked-down" among its `throttled` reasons, merged into `throttled`
// (null or throttled_json's object); the others are left as they are.
inline constexpr double kClockedDownShare = 0.75;
nlohmann::json with_clocked_down(nlohmann::json throttled, const std::vector<TelemetrySample> &timed, double peak_mhz);

// How many results of a result set are marked throttled (run --fail-on-throttle).
std::size_t throttled_results(const nlohmann::json &document);

} // namespace vrb
