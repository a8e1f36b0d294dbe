// The host backend with two faults a test can switch on, for tests only: never
// installed, never in the folder the loader searches, so the shipped host module
// carries none of it. Both are read once, when the backend starts:
//
//   VRAMBENCH_TEST_FAIL_ALLOC_AFTER=N  every allocation after the first N is refused as
//                                      out of memory
//   VRAMBENCH_TEST_FLIP_BIT=OFFSET     after every FILL that covers byte OFFSET of its
//                                      buffer, the lowest bit of that byte is flipped
//
// A value that is not a number stops the backend: a typo must not silently turn a
// fault test into a clean run.
#include "host_module.hpp"

#include <vrambench/plugin_table.hpp>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

using vrb::host::HostBuffer;
using vrb::plugin::fail;

std::optional<uint64_t> hook(const char *name)
{
    const char *text = std::getenv(name);
    if (!text || !*text) return std::nullopt;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || *text == '-')
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + "=" + text + " is not a byte count or number");
    return value;
}

struct Faults {
    std::optional<uint64_t> fail_alloc_after = hook("VRAMBENCH_TEST_FAIL_ALLOC_AFTER");
    std::optional<uint64_t> flip_byte = hook("VRAMBENCH_TEST_FLIP_BIT");
    uint64_t allocations = 0; // across every device the context opened
};

// A host device the faults reach. It is one (not a wrapper of one), so the buffers it
// makes name it as their device and make_table's peer rule holds as in the shipped module.
class FaultDevice : public vrb::host::HostDevice {
  public:
    FaultDevice(Faults &faults, vrb::host::HostContext &host, uint32_t index) : HostDevice(host, index), faults_(faults)
    {
    }

    std::unique_ptr<HostBuffer> alloc(uint32_t kind, uint64_t bytes)
    {
        if (faults_.fail_alloc_after && faults_.allocations >= *faults_.fail_alloc_after)
            fail(VRB_ERROR_OUT_OF_MEMORY, "allocation refused by VRAMBENCH_TEST_FAIL_ALLOC_AFTER=" +
                                              std::to_string(*faults_.fail_alloc_after) + " (a test-only fault)");
        auto buffer = HostDevice::alloc(kind, bytes);
        ++faults_.allocations;
        return buffer;
    }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        HostDevice::run(op, seconds, out);
        if (!faults_.flip_byte || op.kind != VRB_OP_FILL) return;
        HostBuffer &dst = vrb::host::host_buffer(op.dst.buffer);
        const uint64_t at = *faults_.flip_byte;
        const uint64_t end = op.dst.offset + op.count * op.element_bytes;
        if (at < op.dst.offset || at >= end || at >= dst.size()) return;
        *dst.bytes_at(at) ^= 1u;
    }

  private:
    Faults &faults_;
};

class FaultContext {
  public:
    explicit FaultContext(const vrb_host_table *host) : host_(host) {}

    uint32_t device_count() { return host_.device_count(); }
    void describe(uint32_t index, vrb_device_info &info) { host_.describe(index, info); }
    std::unique_ptr<FaultDevice> open(uint32_t index) { return std::make_unique<FaultDevice>(faults_, host_, index); }

  private:
    Faults faults_; // first: a mistyped hook stops the backend before its workers start
    vrb::host::HostContext host_;
};

const vrb_plugin_table table = vrb::plugin::make_table<FaultContext, FaultDevice, HostBuffer>(
    {"host-faults", "the host backend with test-only faults (VRAMBENCH_TEST_*)", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
