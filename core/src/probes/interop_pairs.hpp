// The pairs the interop probes measure on one importing device: every exporter in this
// process that can hand the device memory it can import (docs/interop.md). The device's
// own backend opened a second time (vulkan->vulkan: two VkDevices), and the run's other
// backends loaded here (host->vulkan by host pointer, cuda->vulkan on the same card).
#pragma once

#include <vrambench/core/modules/external.hpp>
#include <vrambench/core/modules/external_semaphore.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vrb::interop {

struct Pair {
    std::string name;        // "host->vulkan"
    std::string exporter_id; // "host:0"; "vulkan:0" for a second device of the same card
    std::string handle;      // "opaque-fd", "host-pointer"
    // How the exporter was found to be the importer's card: "uuid", "pci-address" (the
    // APIs' UUIDs differ, as HIP's and Vulkan's do on AMD), "same device" (the device's
    // own backend opened again) or "host memory" (shared by address with any device).
    std::string card_key;
    // Declared in destruction order: the exporter's device before its backend.
    std::shared_ptr<const Backend> backend;
    std::unique_ptr<Device> exporter;
    uint32_t kind = 0;             // the exporter's memory kind
    bool exportable_alloc = false; // allocated through buffer_alloc_exportable
};

// What a pair shares: memory (handoff, bandwidth, import) or timeline semaphores (sync).
enum class Sharing { memory, semaphores };

// Which key shows two descriptions to be one card: "uuid" where both know their UUIDs
// and those agree, else "pci-address" where both know their PCI addresses and those
// agree (one card's UUIDs differ between APIs: HIP's and Vulkan's on AMD); nullopt for
// another card, or one that cannot be told.
std::optional<std::string> same_card_key(const vrb_device_info &a, const vrb_device_info &b);

// The exporters for ctx.device, each opened; `skipped` collects the exporters found
// that cannot share with it, with the reason ("cuda:0 is another card").
std::vector<Pair> find_pairs(const ProbeContext &ctx, std::vector<std::string> &skipped,
                             Sharing sharing = Sharing::memory);

// Memory of the exporter, seen by the importer. Members go in reverse: the imported
// buffer before the exporter's, whose memory it uses.
struct Shared {
    std::unique_ptr<Buffer> exported;
    std::unique_ptr<Buffer> imported;
    double export_seconds = 0, import_seconds = 0;
};

// Allocates `bytes` on the exporter, exports and imports it. Throws BackendError.
Shared share(Pair &pair, Device &importer, uint64_t bytes);

// The page-rounded size every pair can share (host pointers need whole pages).
uint64_t shareable_bytes(uint64_t bytes);

// The property a module reports for the largest buffer it exports or imports as one
// allocation (Vulkan: what one descriptor binds, maxStorageBufferRange), and its value
// on a device: 0 where the device sets no bound.
inline constexpr const char *max_shared_bytes_property = "external.max_bytes";
uint64_t max_shared_bytes(const vrb_device_info &info);

// `bytes` capped to what the importer and every pair's exporter share in one allocation,
// page-rounded and a multiple of `granule`; `rule` gains the cap and whose it is.
uint64_t cap_to_shareable(uint64_t bytes, uint64_t granule, const DeviceRecord &importer,
                          const std::vector<Pair> &pairs, std::string &rule);

// A result skeleton naming the pair.
ProbeResult make_pair_result(const ProbeContext &ctx, std::string_view probe, const Pair &pair);

// A pair that cannot share this memory (VRB_ERROR_UNSUPPORTED) is skipped with the
// reason; any other error fails the result.
void mark_error(ProbeResult &r, const Error &e);

// One result saying why a probe measured nothing on this device.
ProbeResult make_no_pair_result(const ProbeContext &ctx, std::string_view probe,
                                const std::vector<std::string> &skipped, Sharing sharing = Sharing::memory);

} // namespace vrb::interop
