// An AMD card through amdgpu's sysfs files: busy time, the active DPM levels of the
// shader and memory clocks, and hwmon's power, power cap and temperature.
#include <vrambench/core/card/sysfs.hpp>
#include <vrambench/core/card/telemetry.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <sstream>

namespace vrb {

namespace {

// pp_dpm_sclk lists the levels, the active one starred: "1: 1800Mhz *".
std::optional<double> active_level_mhz(const std::string &file, std::string &why)
{
    const FileText text = read_system_file(file);
    if (!text.text) {
        why = text.why;
        return std::nullopt;
    }
    std::istringstream lines(*text.text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find('*') == std::string::npos) continue;
        const auto colon = line.find(':');
        const char *at = line.c_str() + (colon == std::string::npos ? 0 : colon + 1);
        char *end = nullptr;
        const double mhz = std::strtod(at, &end);
        if (end != at && mhz > 0) return mhz;
    }
    why = fmt::format("{} has no active level (a line marked *) with a clock in MHz", system_path(file).string());
    return std::nullopt;
}

class AmdgpuSource final : public TelemetrySource {
  public:
    AmdgpuSource(std::string folder, std::string hwmon) : folder_(std::move(folder)), hwmon_(std::move(hwmon))
    {
        if (hwmon_.empty())
            for (const char *f : {"power_w", "power_limit_w", "power_of_limit", "temperature_c"})
                missing(f, fmt::format("no hwmon folder under {}/hwmon", system_path(folder_).string()));
        missing("throttle_reasons", "amdgpu gives its throttle status only inside the binary gpu_metrics file, "
                                    "which is not decoded");
    }
    std::string name() const override { return "amdgpu-sysfs"; }
    TelemetrySample sample() override
    {
        TelemetrySample s;
        number(s, "busy_percent", folder_ + "/gpu_busy_percent", 1);
        number(s, "memory_busy_percent", folder_ + "/mem_busy_percent", 1);
        level(s, "core_clock_mhz", folder_ + "/pp_dpm_sclk");
        level(s, "memory_clock_mhz", folder_ + "/pp_dpm_mclk");
        if (!hwmon_.empty()) {
            // power1_average on most cards, power1_input on newer ones; both in microwatts.
            if (!number(s, "power_w", hwmon_ + "/power1_average", 1e-6, false))
                number(s, "power_w", hwmon_ + "/power1_input", 1e-6);
            number(s, "power_limit_w", hwmon_ + "/power1_cap", 1e-6);
            number(s, "temperature_c", hwmon_ + "/temp1_input", 1e-3);
            if (s.figures.contains("power_w") && s.figures.contains("power_limit_w") && s.figures["power_limit_w"] > 0)
                s.figures["power_of_limit"] = s.figures["power_w"] / s.figures["power_limit_w"];
            else
                missing("power_of_limit", "needs both power and its limit");
        }
        return s;
    }

  private:
    bool number(TelemetrySample &s, const char *figure, const std::string &file, double scale, bool record = true)
    {
        const FileNumber n = read_system_number(file);
        if (n.value) {
            s.figures[figure] = *n.value * scale;
            return true;
        }
        if (record) missing(figure, n.why);
        return false;
    }
    void level(TelemetrySample &s, const char *figure, const std::string &file)
    {
        std::string why;
        if (const auto mhz = active_level_mhz(file, why))
            s.figures[figure] = *mhz;
        else
            missing(figure, why);
    }
    std::string folder_, hwmon_;
};

} // namespace

std::unique_ptr<TelemetrySource> amdgpu_telemetry_source(const std::string &address, std::string &why_not)
{
    const std::string folder = pci_device_folder(address);
    std::error_code ec;
    const auto driver = std::filesystem::read_symlink(system_path(folder + "/driver"), ec);
    const bool amdgpu = (!ec && driver.filename() == "amdgpu") ||
                        std::filesystem::exists(system_path(folder + "/gpu_busy_percent"), ec);
    if (!amdgpu) {
        why_not = fmt::format("amdgpu-sysfs: {} is not driven by amdgpu (no gpu_busy_percent)", address);
        return nullptr;
    }
    std::string hwmon;
    for (const auto &entry : std::filesystem::directory_iterator(system_path(folder + "/hwmon"), ec))
        if (entry.path().filename().string().rfind("hwmon", 0) == 0) {
            hwmon = folder + "/hwmon/" + entry.path().filename().string();
            break;
        }
    return std::make_unique<AmdgpuSource>(folder, hwmon);
}

} // namespace vrb
