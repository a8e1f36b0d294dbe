// The host backend changed in one way chosen at build time, for the conformance kit's
// tests: a module that is right in every other respect, so the one check that must
// catch (or pass) the change is the only one that can fail. Test-only: never installed.
//
//   VARIANT_DECLINES_WIDE   declines DOT and SCALE at 16-byte elements, consistently:
//                           op_supported says no and run() refuses them as unsupported,
//                           as a module whose shading language has no 16-byte type does
//   VARIANT_LANE_PAST_4MI   every element-wise operation over more than 4 Mi lanes gets
//                           lane 4 Mi + 3 wrong (a 32-bit index split that only large
//                           counts reach)
#include "host_module.hpp"

#include <vrambench/plugin_table.hpp>

#include <string>

#if !defined(VARIANT_DECLINES_WIDE) && !defined(VARIANT_LANE_PAST_4MI)
#error "define one VARIANT_*"
#endif

namespace {

using vrb::host::HostBuffer;
using vrb::plugin::fail;

[[maybe_unused]] bool declined(uint32_t op_kind, uint32_t element_bytes)
{
    return element_bytes == 16 && (op_kind == VRB_OP_DOT || op_kind == VRB_OP_SCALE);
}

class VariantDevice : public vrb::host::HostDevice {
  public:
    using HostDevice::HostDevice;

    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind)
    {
#if defined(VARIANT_DECLINES_WIDE)
        if (declined(op_kind, element_bytes)) return false;
#endif
        return HostDevice::supports(op_kind, element_bytes, memory_kind);
    }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
#if defined(VARIANT_DECLINES_WIDE)
        if (declined(op.kind, op.element_bytes))
            fail(VRB_ERROR_UNSUPPORTED, "this module has no 16-byte type for dot and scale");
#endif
        HostDevice::run(op, seconds, out);
#if defined(VARIANT_LANE_PAST_4MI)
        constexpr uint64_t wrong_lane = (uint64_t{1} << 22) + 3;
        const bool elementwise = op.kind >= VRB_OP_WRITE && op.kind <= VRB_OP_TRIAD;
        if (elementwise && op.count * (op.element_bytes / 4) > wrong_lane)
            *vrb::host::host_buffer(op.dst.buffer).lanes(op.dst.offset + wrong_lane * 4) ^= 1u;
#endif
    }
};

class VariantContext {
  public:
    explicit VariantContext(const vrb_host_table *host) : host_(host) {}

    uint32_t device_count() { return 1; } // host:0 only: the whole machine
    void describe(uint32_t index, vrb_device_info &info) { host_.describe(index, info); }
    std::unique_ptr<VariantDevice> open(uint32_t index) { return std::make_unique<VariantDevice>(host_, index); }

  private:
    vrb::host::HostContext host_;
};

#if defined(VARIANT_DECLINES_WIDE)
constexpr const char *name = "host-declines";
#else
constexpr const char *name = "host-lanes";
#endif

const vrb_plugin_table table = vrb::plugin::make_table<VariantContext, VariantDevice, HostBuffer>(
    {name, "the host backend with one test-only change (tests/mock/host_variants.cpp)", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
