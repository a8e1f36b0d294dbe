// A minimal module as a vendor's first one looks: ABI 1.2's table (no op_supported, so
// the host learns what it declines by running), one device whose one memory kind is
// named "device", and four operations declined with VRB_ERROR_UNSUPPORTED, as the plugin
// guide allows: CHASE, STRIDED_READ, GATHER and TRANSFER. Everything else runs the
// template backend's plain kernels over host memory, so its figures verify.
#include "../../plugins/template/template_kernels.hpp"

#include <vrambench/plugin_table.hpp>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace {

using vrb::plugin::fail;

// Small, so its standard run stays a test's few seconds: every size rule caps to it.
constexpr uint64_t memory_bytes = 16ull << 20;

class AcmeBuffer {
  public:
    explicit AcmeBuffer(uint64_t bytes) : lanes_((bytes + 3) / 4), bytes_(bytes) {}
    uint64_t size() const { return bytes_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(bytes_at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, bytes_at(offset), bytes); }
    uint32_t *lanes_at(uint64_t offset) { return reinterpret_cast<uint32_t *>(bytes_at(offset)); }
    uint64_t lanes_from(uint64_t offset) const { return (bytes_ - offset) / 4; }

  private:
    std::byte *bytes_at(uint64_t offset) { return reinterpret_cast<std::byte *>(lanes_.data()) + offset; }
    std::vector<uint32_t> lanes_;
    uint64_t bytes_;
};

class AcmeDevice {
  public:
    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
        info.heap_index = 0;
        info.max_allocation_bytes = memory_bytes;
    }
    std::unique_ptr<AcmeBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > memory_bytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the acme device's memory");
        return std::make_unique<AcmeBuffer>(bytes);
    }
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        switch (op.kind) {
        case VRB_OP_CHASE:
        case VRB_OP_STRIDED_READ:
        case VRB_OP_GATHER:
        case VRB_OP_TRANSFER: fail(VRB_ERROR_UNSUPPORTED, "acme does not implement this operation yet");
        default: break;
        }
        vrb::tpl::KernelArgs args;
        auto lanes = [](const vrb_operand &operand) -> uint32_t * {
            if (!operand.buffer || operand.offset > buffer(operand)->size()) return nullptr;
            return buffer(operand)->lanes_at(operand.offset);
        };
        args.dst = lanes(op.dst);
        args.src1 = lanes(op.src1);
        args.src2 = lanes(op.src2);
        if (args.src1) args.src1_lanes = buffer(op.src1)->lanes_from(op.src1.offset);
        const uint32_t passes = vrb::plugin::operation_passes(op);
        vrb::tpl::KernelAnswer answer;
        for (double &s : seconds) {
            const auto begun = std::chrono::steady_clock::now();
            for (uint32_t p = 0; p < passes; ++p)
                answer = vrb::tpl::launch_kernel(op, args);
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
            if (!(s > 0)) s = 1e-9;
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        out.checksum = answer.checksum;
        out.mismatches = answer.mismatches;
        out.first_mismatch = answer.first_mismatch;
        if (VRB_FITS(out, passes)) out.passes = passes;
    }

  private:
    static AcmeBuffer *buffer(const vrb_operand &operand) { return reinterpret_cast<AcmeBuffer *>(operand.buffer); }
};

class AcmeContext {
  public:
    explicit AcmeContext(const vrb_host_table *) {}
    uint32_t device_count() { return 1; }
    void describe(uint32_t, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "acme accelerator");
        vrb::plugin::copy_string(info.vendor, "acme");
        vrb::plugin::copy_string(info.api, "acme");
        info.type = VRB_DEVICE_DISCRETE_GPU;
        info.known = VRB_KNOWN_TOTAL_MEMORY | VRB_KNOWN_FREE_MEMORY;
        info.total_memory_bytes = memory_bytes;
        info.free_memory_bytes = memory_bytes;
        info.cache_count = 1;
        info.caches[0] = {2, 0, 256u << 10, {}};
        vrb::plugin::copy_string(info.caches[0].kind, "unified");
        info.heap_count = 1;
        info.heaps[0].bytes = memory_bytes;
        info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
    }
    std::unique_ptr<AcmeDevice> open(uint32_t) { return std::make_unique<AcmeDevice>(); }
};

// The table as a module built against ABI 1.2 hands it over: its size ends before
// op_supported, so nothing past it is read.
const vrb_plugin_table table = [] {
    vrb_plugin_table t = vrb::plugin::make_table<AcmeContext, AcmeDevice, AcmeBuffer>(
        {"acme", "a minimal module that declines four operations", "0.1"});
    t.abi_version = VRB_MAKE_VERSION(1, 2);
    t.struct_size = offsetof(vrb_plugin_table, op_supported);
    return t;
}();

} // namespace

// The entry a 1.2 module answers with: its version, 1.2, and the table above.
VRB_DEFINE_BUILD_NOTE();
extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)
{
    if (!negotiation || negotiation->struct_size < sizeof(vrb_negotiation)) return VRB_ERROR_INVALID_ARGUMENT;
    negotiation->module_version = VRB_MAKE_VERSION(1, 2);
    if (VRB_VERSION_MAJOR(negotiation->host_version) != 1) return VRB_ERROR_VERSION;
    negotiation->table = &table;
    return VRB_OK;
}
