// CHASE by device address. A step of the index walk (shaders/chase.comp) makes an
// address of the index it loaded: an add, and a clamp into the chain, lie between two
// dependent loads and lengthen every step on a GPU, which issues a thread's
// instructions in order (backends/cuda/chase_walk.hpp measures the cost).
//
// Where the device offers buffer device addresses and 64-bit integers, the chain of
// 32-bit indices is first made into links on the device (shaders/chase_links.comp):
// link s holds the device address of the link of the index the chain holds at s, so a
// step is one load through a buffer reference (shaders/chase_addresses.comp). An index
// outside the chain becomes a link to the trap, the link past the last, which links to
// itself: a walk that strays stays inside the links and ends at the trap, which is
// checked once, off the timed path, before the indices are walked again to name the
// stray. Where every element at an even index holds an even index or one outside the
// chain (one node per line, as the latency probe lays them), a walk from index 0 follows
// even indices only, and a link lies at the very byte its index does, so the walk touches
// the lines and pages the chain does; otherwise links take 8 bytes an index.
//
// The links live in memory of the chain's kind, in one buffer of their own; where that
// memory has no room for them the chase walks the indices.
#pragma once

#include "handles.hpp"
#include "memory_kinds.hpp"
#include "options.hpp"
#include "physical_device.hpp"
#include "push_constants.hpp"

#include <memory>
#include <string_view>

namespace vrb::vulkan {

class Device;
class HostBuffer;

// Whether the device can walk links: buffer device addresses and shaderInt64.
bool offers_chase_by_address(const PhysicalDevice &device);

// Whether CHASE walks links on the device, as `requested`. Throws
// Failure(VRB_ERROR_UNSUPPORTED) when addresses are asked for and not offered.
bool chase_by_address(const PhysicalDevice &device, ChaseWalk requested);

// How a result names the walk: "device addresses" or "indices".
const char *chase_walk_name(bool by_address);

// Where links lie: link s at byte 8 s, standing for index s << (3 - shift), so at byte
// index << shift; the trap follows the last link.
struct LinkLayout {
    uint32_t shift = 3;
    uint64_t slots = 0; // links, the trap not counted
    uint64_t bytes() const { return (slots + 1) * 8; }
};

// For a chain of `inside` indices; shift 2 where a walk from index 0 meets even ones only.
LinkLayout link_layout(uint64_t inside, bool all_even);

// One buffer of links in memory of one kind, with its device address; its bytes are
// counted against the kind's heap while it lives.
class LinkBuffer {
  public:
    // Throws Failure(VRB_ERROR_OUT_OF_MEMORY) where the heap has no room, and
    // Failure(VRB_ERROR_UNSUPPORTED) where the kind cannot hold such a buffer.
    LinkBuffer(Device &device, const MemoryKind &kind, uint64_t bytes);
    ~LinkBuffer();
    LinkBuffer(const LinkBuffer &) = delete;
    LinkBuffer &operator=(const LinkBuffer &) = delete;

    uint64_t address() const noexcept { return address_; }

  private:
    Device &device_;
    uint32_t heap_;
    uint64_t bytes_;
    Owned<VkDeviceMemory> memory_;
    Owned<VkBuffer> buffer_;
    uint64_t address_ = 0;
};

// What the link-building dispatches need of the chase they serve.
struct LinkSource {
    const MemoryKind *kind = nullptr;     // the chain's
    VkDescriptorSet set = VK_NULL_HANDLE; // the chase's: the chain's segments and the results
    PushConstants common;                 // the chain's base, limit and segment shift
    std::string_view shader;              // chase_links_single, _nonuniform or _switch
};

struct Links {
    std::unique_ptr<LinkBuffer> buffer; // null: no room, the indices are walked
    LinkLayout layout;
};

// Asks the device whether a walk from index 0 meets even indices only, allocates the links and
// writes them, waiting for each. `results` is the chase's results buffer (slot 0 is used).
Links make_links(Device &device, const LinkSource &source, HostBuffer &results);

} // namespace vrb::vulkan
