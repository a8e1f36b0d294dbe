// The PCIe link as a bound: bytes that move between host memory and a card cross its
// link, so no figure of them can beat the link's rate. A figure that does never crossed
// it in the timed runs: a driver kept a device-side copy of host memory (NVIDIA's OpenCL
// does, for CL_MEM_ALLOC_HOST_PTR and CL_MEM_USE_HOST_PTR buffers), or a copy returned
// before its data arrived. Such a figure is "suspect", as one above the peak is
// (measure.hpp).
#pragma once

#include <vrambench/core/measurement/traffic.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/result.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace vrb {

// The rate a link figure is read as is the theoretical one of its generation and lanes,
// printed to a tenth: a figure up to this fraction above it is not called suspect.
inline constexpr double kLinkTolerance = 0.05;

struct HostLink {
    double gb_per_s = 0; // per direction
    std::string text;    // "x16 Gen5 link", "link of its x8 Gen4 slot"
};

// The link between the device and host memory, at the most the card and its slot both
// support, as read at description. Never the speed read then: an idle GPU lowers it.
// Empty where there is none to bound a figure: the device's own memory is host memory (a
// CPU, an integrated GPU: no device-local heap apart from host memory), the device
// records no link (absent, or null as a CPU's is), or the link's rate was not read.
std::optional<HostLink> host_link(const DeviceRecord &device);

// How many times one direction's rate a figure of `traffic` may reach, counting every
// byte it read and wrote: reads go one way and writes the other, so the figure is bound
// by total / max(read, written): 1 for a read or a write, 2 for a copy, 1.5 for a triad.
double link_directions(const Traffic &traffic);

// Whether `gb_per_s` is past `directions` x `rate` with kLinkTolerance to spare.
bool is_past_link(double gb_per_s, double rate, double directions);

// The sentence a figure of `gb_per_s` is marked suspect with when it is past the device's
// host link in `directions` directions (`what` names the figure); none where it is not, or
// the device has no such link. check_link_bound marks a live result by it and `vrambench
// analyze` a stored one.
std::optional<std::string> link_suspicion(double gb_per_s, const DeviceRecord &device, double directions,
                                          std::string_view what);

// Marks `result` suspect when its value is past the device's host link (host_link) in
// `directions` directions: the caller says that the result's bytes all cross the link.
// `what` names the figure in the sentence set in `error` ("host-to-device pinned", "read
// on memory kind pinned"); one that set_bandwidth set already follows it. Nothing
// happens where the device has no such link, or the result has no value or is neither
// ok nor suspect (a failed figure is not made suspect).
void check_link_bound(ProbeResult &result, const DeviceRecord &device, double directions, std::string_view what);

} // namespace vrb
