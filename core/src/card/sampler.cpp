#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/card/sysfs.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace vrb {

namespace {

std::atomic<int> &timed_runs_count()
{
    static std::atomic<int> count{0};
    return count;
}

// The current speed and width alone: the two files a sample reads.
LinkSpeed current_link(const std::string &address)
{
    LinkSpeed s;
    if (address.empty()) return s;
    const PcieLink read = read_pcie_link(address);
    return read.current;
}

bool telemetry_off()
{
    const char *v = std::getenv("VRAMBENCH_TELEMETRY");
    return v && std::strcmp(v, "off") == 0;
}

} // namespace

TimedRuns::TimedRuns()
{
    timed_runs_count().fetch_add(1, std::memory_order_relaxed);
}

TimedRuns::~TimedRuns()
{
    timed_runs_count().fetch_sub(1, std::memory_order_relaxed);
}

bool timed_runs_active()
{
    return timed_runs_count().load(std::memory_order_relaxed) > 0;
}

TelemetrySampler::TelemetrySampler(std::unique_ptr<TelemetrySource> source, std::string address,
                                   std::chrono::milliseconds period)
    : source_(std::move(source)), address_(std::move(address)), name_(source_->name()), period_(period),
      thread_([this] { loop(); })
{
}

TelemetrySampler::~TelemetrySampler()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void TelemetrySampler::loop()
{
    std::unique_lock lock(mutex_);
    while (!stop_) {
        // Read with the lock released: a slow driver call never holds up take().
        lock.unlock();
        const bool during_before = timed_runs_active();
        TelemetrySample s = source_->sample();
        // sysfs first: it reads the same for every vendor; the source's own reading otherwise.
        if (const LinkSpeed link = current_link(address_); link.known()) s.link = link;
        // A sample counts as during the timed runs only when they ran at both its ends.
        s.during_timed_runs = during_before && timed_runs_active();
        lock.lock();
        samples_.push_back(std::move(s));
        wake_.wait_for(lock, period_, [this] { return stop_; });
    }
}

std::vector<TelemetrySample> TelemetrySampler::take()
{
    std::lock_guard lock(mutex_);
    return std::exchange(samples_, {});
}

std::map<std::string, std::string> TelemetrySampler::unavailable()
{
    std::lock_guard lock(mutex_);
    return source_->unavailable();
}

std::map<std::string, std::string> TelemetrySampler::averaged()
{
    std::lock_guard lock(mutex_);
    return source_->averaged();
}

bool sms_do_the_work(const std::string &probe)
{
    return probe != "bandwidth.transfer" && probe != "bandwidth.peer";
}

nlohmann::json link_during(const PcieLink &described, const std::vector<TelemetrySample> &samples,
                           const std::string &taken)
{
    PcieLink link = described;
    link.current = {};
    std::optional<double> best;
    for (const auto &s : samples) {
        if (!s.link.known()) continue;
        const auto rate = pcie_rate_gb_per_s(*s.link.gts, *s.link.width);
        if (rate && (!best || *rate > *best)) {
            best = rate;
            link.current = s.link;
        }
    }
    link.unknown.erase("current.speed");
    link.unknown.erase("current.width");
    if (!best) link.unknown["current"] = "no sample read the link's current speed and width";
    return to_json(link, fmt::format("{} ({} readings)", taken, samples.size()));
}

void annotate_transfer(ProbeResult &r, const nlohmann::json &link)
{
    if (r.probe != "bandwidth.transfer" || !link.is_object()) return;
    const std::string direction = text_or(r.parameters, "direction", "");
    const bool host_device = direction.rfind("host-to-device", 0) == 0 || direction.rfind("device-to-host", 0) == 0 ||
                             direction.rfind("both-directions", 0) == 0;
    if (!host_device) return;
    r.link = link;
    const PcieLink reading = pcie_link_from_json(link);
    const auto rate = current_rate(reading);
    if (r.value && rate && *rate > 0) {
        // Both at once use both directions of the link, each at its rate; where the API
        // made the two copies one after the other (pageable memory), one direction at a
        // time carried them, so one link's rate is the ceiling.
        const bool at_once =
            direction.rfind("both-directions", 0) == 0 && r.parameters.value("directions_at_once", true) != false;
        r.link_efficiency = *r.value / (*rate * (at_once ? 2 : 1));
    }
}

CardWatch::CardWatch(const DeviceRecord &device, PeerAddress peer_address)
    : fabric_(device.fabric.value_or(nlohmann::json())), peer_address_(std::move(peer_address))
{
    if (device.info.known & VRB_KNOWN_PCI_ADDRESS && device.info.type != VRB_DEVICE_CPU) {
        address_ = module_string(device.info.pci_address);
        described_ = read_pcie_link(address_);
    }
    if (telemetry_off()) {
        why_none_ = "VRAMBENCH_TELEMETRY=off: no sampling";
        return;
    }
    OpenedSource opened = open_telemetry_source(device);
    if (!opened.source) {
        why_none_ = opened.why_none;
        // The link is still worth reading during transfers, from sysfs alone.
        if (address_.empty()) return;
        class LinkOnly final : public TelemetrySource {
          public:
            std::string name() const override { return "none"; }
            TelemetrySample sample() override { return {}; }
        };
        sampler_ = std::make_unique<TelemetrySampler>(std::make_unique<LinkOnly>(), address_);
        return;
    }
    // A GPU's timed runs last a few milliseconds each: its sampler reads often enough to
    // fall inside them; a CPU's source reads /proc/stat, which costs the cores it measures.
    const auto period = opened.source->name() == kHostSourceName ? kHostSamplingPeriod : kCardSamplingPeriod;
    sampler_ = std::make_unique<TelemetrySampler>(std::move(opened.source), address_, period);
}

namespace {

// A result's telemetry where the card has no source to sample, and why.
nlohmann::json no_telemetry(const std::string &why)
{
    return {{"source", "none"},
            {"samples", 0},
            {"window", "none"},
            {"figures", nullptr},
            {"throttle_reasons", nullptr},
            {"unavailable", {{"all", why}}}};
}

} // namespace

void CardWatch::annotate(ProbeResult &r)
{
    if (r.probe == "bandwidth.peer" && fabric_.is_object() && peer_address_) {
        const std::string peer = text_or(r.parameters, "peer", "");
        if (!peer_addresses_.contains(peer)) peer_addresses_[peer] = peer.empty() ? "" : peer_address_(peer);
        annotate_peer(r, fabric_, peer_addresses_[peer]);
    }
    if (!sampler_) {
        if (!why_none_.empty()) r.telemetry = no_telemetry(why_none_);
        return;
    }
    std::vector<TelemetrySample> all = sampler_->take();
    std::vector<TelemetrySample> timed;
    for (const auto &s : all)
        if (s.during_timed_runs) timed.push_back(s);
    // Only samples read while the timed runs ran describe them: a result whose runs no
    // sample fell inside says so, rather than borrow the setup's or the checks' readings.
    const bool inside = !timed.empty();
    if (sampler_->source_name() == "none") {
        r.telemetry = no_telemetry(why_none_);
    } else if (!inside) {
        const std::string why = fmt::format("no sample fell inside the timed runs ({} taken around them, one every "
                                            "{} ms)",
                                            all.size(), sampler_->period().count());
        std::map<std::string, std::string> unavailable;
        for (const char *figure : kTelemetryFigures)
            unavailable[figure] = why;
        unavailable["throttle_reasons"] = why;
        r.telemetry = summarize_telemetry({}, sampler_->source_name(), unavailable, "none");
    } else {
        r.telemetry = summarize_telemetry(timed, sampler_->source_name(), sampler_->unavailable(), "timed-runs",
                                          sampler_->averaged());
        r.throttled = throttled_json(timed);
    }
    // A CPU's mean clock moves with its idle cores: only a GPU's is held against its peak.
    if (sampler_->source_name() != "none" && sampler_->source_name() != kHostSourceName) {
        for (const auto &s : all)
            if (const auto it = s.figures.find("core_clock_mhz"); it != s.figures.end())
                peak_core_clock_mhz_ = std::max(peak_core_clock_mhz_, it->second);
        if (inside && sms_do_the_work(r.probe))
            r.throttled = with_clocked_down(std::move(r.throttled), timed, peak_core_clock_mhz_);
    }
    if (!address_.empty() && r.probe == "bandwidth.transfer")
        annotate_transfer(r, link_during(described_, inside ? timed : all,
                                         inside ? "during the timed runs" : "during the result's wall time"));
}

} // namespace vrb
