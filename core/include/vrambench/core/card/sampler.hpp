// Sampling a card beside a probe's timed runs, never inside them: a thread of its own
// reads the card's source (and its link) every few milliseconds and marks each sample
// with whether timed runs were executing at both ends of its read, so a result's
// telemetry covers its timed runs and nothing else (a result no sample fell inside
// records none, and says so).
#pragma once

#include <vrambench/core/card/telemetry.hpp>
#include <vrambench/core/results/result.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace vrb {

// Held while a device executes runs (Device::run): samples taken then are "during the
// timed runs". Counts, so nested or concurrent holders are fine.
class TimedRuns {
  public:
    TimedRuns();
    ~TimedRuns();
    TimedRuns(const TimedRuns &) = delete;
    TimedRuns &operator=(const TimedRuns &) = delete;
};
bool timed_runs_active();

// How often a card's source is read (a timed run of a stream figure on an HBM card lasts
// a few milliseconds: a sample every 2 ms falls inside most), and the host's (each read
// of /proc/stat costs the CPU being measured).
inline constexpr std::chrono::milliseconds kCardSamplingPeriod{2};
inline constexpr std::chrono::milliseconds kHostSamplingPeriod{20};

class TelemetrySampler {
  public:
    // `address`: the PCI address whose link each sample also reads; empty for none.
    TelemetrySampler(std::unique_ptr<TelemetrySource> source, std::string address,
                     std::chrono::milliseconds period = kHostSamplingPeriod);
    ~TelemetrySampler();
    TelemetrySampler(const TelemetrySampler &) = delete;
    TelemetrySampler &operator=(const TelemetrySampler &) = delete;

    // The samples taken since the last call.
    std::vector<TelemetrySample> take();
    // What the source could not read, and its name (call between samples: guarded).
    std::map<std::string, std::string> unavailable();
    std::map<std::string, std::string> averaged();
    std::string source_name() const { return name_; }
    std::chrono::milliseconds period() const { return period_; }

  private:
    void loop();
    std::unique_ptr<TelemetrySource> source_;
    std::string address_, name_;
    std::chrono::milliseconds period_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::vector<TelemetrySample> samples_;
    std::thread thread_;
};

// What the runner keeps per device: the sampler (unless there is no source or
// VRAMBENCH_TELEMETRY=off), the link read at description, and what goes on each result.
class CardWatch {
  public:
    // The PCI address of a peer device by its id ("cuda:1"), empty when it has none: how a
    // peer result finds whether its two cards share the fabric.
    using PeerAddress = std::function<std::string(const std::string &peer_id)>;
    explicit CardWatch(const DeviceRecord &device, PeerAddress peer_address = {});
    // Sets the result's telemetry (and throttled), and for a PCI device its link during
    // the result; a host<->device transfer's figure gets its efficiency against the link,
    // a peer copy's its efficiency against the NVLink or xGMI its two cards share.
    void annotate(ProbeResult &result);

  private:
    std::unique_ptr<TelemetrySampler> sampler_;
    std::string why_none_;
    std::string address_;
    PcieLink described_; // max and port figures do not change; the current speed does
    nlohmann::json fabric_;
    PeerAddress peer_address_;
    std::map<std::string, std::string> peer_addresses_; // by id, as asked
    double peak_core_clock_mhz_ = 0;                    // the highest a GPU's samples showed so far in the run
};

// Whether the card's SMs (compute units) do a probe's work, so a low core clock may
// slow it (with_clocked_down): a copy engine moves a transfer's or a peer copy's bytes
// while the SMs idle and the clock drops, without slowing the copy.
bool sms_do_the_work(const std::string &probe);

// The link's efficiency, flag and reading on a bandwidth.transfer result between host
// and device (both directions at once count the link twice). Exposed for tests.
void annotate_transfer(ProbeResult &result, const nlohmann::json &link);

// The link during a result: the fastest current reading among its samples, over the
// described card's max and port; `taken` says which window.
nlohmann::json link_during(const PcieLink &described, const std::vector<TelemetrySample> &samples,
                           const std::string &taken);

} // namespace vrb
