#include <vrambench/core/card/link.hpp>
#include <vrambench/core/measurement/link_bound.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

// A heap of the device's own memory that is not the host's: what makes host memory lie
// across a link from it.
bool has_own_memory_apart_from_host(const vrb_device_info &info)
{
    for (uint32_t h = 0; h < std::min<uint32_t>(info.heap_count, VRB_MAX_HEAPS); ++h)
        if ((info.heaps[h].flags & VRB_MEMORY_DEVICE_LOCAL) && !(info.heaps[h].flags & VRB_MEMORY_HOST_MEMORY))
            return true;
    return false;
}

} // namespace

std::optional<HostLink> host_link(const DeviceRecord &device)
{
    if (!has_own_memory_apart_from_host(device.info)) return std::nullopt;
    if (!device.link || !device.link->is_object()) return std::nullopt;
    const PcieLink link = pcie_link_from_json(*device.link);
    const auto card = card_rate(link);
    if (!card) return std::nullopt;
    HostLink bound{*card, link_text(link.max) + " link"};
    if (link.port_max.known())
        if (const auto slot = pcie_rate_gb_per_s(*link.port_max.gts, *link.port_max.width); slot && *slot < *card)
            bound = {*slot, "link of its " + link_text(link.port_max) + " slot"};
    return bound;
}

double link_directions(const Traffic &traffic)
{
    const uint64_t one_way = std::max(traffic.read, traffic.written);
    return one_way ? static_cast<double>(traffic.total()) / static_cast<double>(one_way) : 1.0;
}

bool is_past_link(double gb_per_s, double rate, double directions)
{
    return gb_per_s > rate * directions * (1 + kLinkTolerance);
}

std::optional<std::string> link_suspicion(double gb_per_s, const DeviceRecord &device, double directions,
                                          std::string_view what)
{
    const auto link = host_link(device);
    if (!link || !is_past_link(gb_per_s, link->gb_per_s, directions)) return std::nullopt;
    const std::string carries = directions == 1
                                    ? fmt::format("{:.1f} GB/s per direction", link->gb_per_s)
                                    : fmt::format("{:g} x {:.1f} GB/s per direction", directions, link->gb_per_s);
    return fmt::format("{:.1f} GB/s ({}) is above what the {} carries, {}: these bytes move between host memory and "
                       "the device, so they did not cross the link in the timed runs; the driver likely kept a "
                       "device-side copy of the host memory",
                       gb_per_s, what, link->text, carries);
}

void check_link_bound(ProbeResult &result, const DeviceRecord &device, double directions, std::string_view what)
{
    if (!result.value) return;
    if (result.status != ProbeResult::Status::ok && result.status != ProbeResult::Status::suspect) return;
    std::optional<std::string> sentence = link_suspicion(*result.value, device, directions, what);
    if (!sentence) return;
    if (result.status == ProbeResult::Status::suspect && result.error) *sentence += "; " + *result.error;
    result.status = ProbeResult::Status::suspect;
    result.error = std::move(sentence);
}

} // namespace vrb
