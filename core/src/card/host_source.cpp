// The host as a CPU device: busy time from /proc/stat between two samples, clock from
// each core's cpufreq. Both through the system root (sysfs.hpp).
#include <vrambench/core/card/sysfs.hpp>
#include <vrambench/core/card/telemetry.hpp>

#include <fmt/format.h>

#include <sstream>

namespace vrb {

namespace {

struct CpuTimes {
    double busy = 0, total = 0;
};

class HostSource final : public TelemetrySource {
  public:
    HostSource()
    {
        previous_ = read_times();
        missing("memory_clock_mhz", "the host's memory clock is in neither /proc nor cpufreq");
        missing("power_w", "the host's energy counters (RAPL) are not read");
        missing("power_limit_w", "the host's energy counters (RAPL) are not read");
        missing("power_of_limit", "the host's energy counters (RAPL) are not read");
        missing("temperature_c", "the host's temperature sensors are not read");
        missing("memory_busy_percent", "the host has no memory-controller busy counter in /proc or cpufreq");
        missing("throttle_reasons", "cpufreq reports no throttle reasons");
    }
    std::string name() const override { return kHostSourceName; }
    TelemetrySample sample() override
    {
        TelemetrySample s;
        const std::optional<CpuTimes> now = read_times();
        if (now && previous_ && now->total > previous_->total)
            s.figures["busy_percent"] = 100 * (now->busy - previous_->busy) / (now->total - previous_->total);
        if (now) previous_ = now;
        if (const auto mhz = mean_core_mhz()) s.figures["core_clock_mhz"] = *mhz;
        return s;
    }

  private:
    // The first line of /proc/stat: "cpu user nice system idle iowait irq softirq steal ...".
    std::optional<CpuTimes> read_times()
    {
        const FileText text = read_system_file("/proc/stat");
        if (!text.text) {
            missing("busy_percent", text.why);
            return std::nullopt;
        }
        std::istringstream line(text.text->substr(0, text.text->find('\n')));
        std::string label;
        line >> label;
        std::vector<double> fields;
        for (double v; line >> v;)
            fields.push_back(v);
        if (label != "cpu" || fields.size() < 4) {
            missing("busy_percent",
                    fmt::format("{} does not start with a 'cpu' line of times", system_path("/proc/stat").string()));
            return std::nullopt;
        }
        CpuTimes t;
        for (std::size_t i = 0; i < fields.size() && i < 8; ++i) // guest times are inside user already
            t.total += fields[i];
        const double idle = fields[3] + (fields.size() > 4 ? fields[4] : 0);
        t.busy = t.total - idle;
        return t;
    }
    std::optional<double> mean_core_mhz()
    {
        std::error_code ec;
        const auto folder = system_path("/sys/devices/system/cpu");
        double sum = 0;
        int cores = 0;
        std::string why = fmt::format("no core in {} has cpufreq/scaling_cur_freq", folder.string());
        for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.size() < 4 || name.rfind("cpu", 0) != 0 ||
                name.find_first_not_of("0123456789", 3) != std::string::npos)
                continue;
            const FileNumber khz = read_system_number("/sys/devices/system/cpu/" + name + "/cpufreq/scaling_cur_freq");
            if (khz.value) {
                sum += *khz.value / 1000;
                ++cores;
            } else if (khz.why.find("no such file") == std::string::npos) {
                why = khz.why; // garbage says more than absence
            }
        }
        if (ec)
            why = fmt::format("cannot list {} to find each core's cpufreq/scaling_cur_freq: {}", folder.string(),
                              ec.message());
        if (cores == 0) {
            missing("core_clock_mhz", why);
            return std::nullopt;
        }
        return sum / cores;
    }
    std::optional<CpuTimes> previous_;
};

} // namespace

std::unique_ptr<TelemetrySource> host_telemetry_source()
{
    return std::make_unique<HostSource>();
}

} // namespace vrb
