// A module of one device whose runs take the time a model of one cache in front of memory
// gives them, so the curve probes meet a memory hierarchy of known shape on any CPU. The
// template backend's plain kernels do every operation over host memory, so every figure
// verifies; only the seconds each run reports come from the model:
//   stream operations: the bytes a pass touches (the working set) move at 4 GB/s while
//     they fit the cache and at 1 GB/s past it;
//   CHASE: the distinct lines a run visits (its cycle's nodes, 64 bytes each) take 10 ns a
//     load while they fit the cache and 100 ns past it (a lap that outgrows an LRU cache
//     finds none of its lines there).
// Environment, read at every run:
//   VRAMBENCH_MOCK_CACHE_KIB  the cache's size in KiB (default 1024)
//   VRAMBENCH_MOCK_SETTLES    "0": past the cache the figure never settles: bandwidth
//                             falls and latency rises as the fourth root of how far the
//                             working set outgrew the cache (19 % a doubling)
//   VRAMBENCH_MOCK_PAGE_BYTES the page size every run's output reports (default 0: not known)
//   VRAMBENCH_MOCK_OUTPUT_1_6 "1": run() answers as a 1.6 module's would, its output's
//                             struct_size ending before page_bytes, though the bytes there
//                             still hold VRAMBENCH_MOCK_PAGE_BYTES
//   VRAMBENCH_MOCK_COPY       unset: no copy engine, a TRANSFER is refused as unsupported;
//                             "engine": a copy engine whose traffic (bytes read plus bytes
//                             written) moves at 3 GB/s at every size, and a TRANSFER asked
//                             of the compute units (VRB_OPERATION_ENGINE_SM) copied by it
//                             all the same, VRB_OUTPUT_ENGINE_SM clear, as a module that
//                             knows nothing of the ask does; "declines-sm": the same
//                             engine, and the ask refused as unsupported in the module's words
#include "../../plugins/template/template_kernels.hpp"

#include <vrambench/plugin_table.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using vrb::plugin::fail;

constexpr uint64_t memory_bytes = 1ull << 30;
constexpr double cache_gb_per_s = 4, memory_gb_per_s = 1;
constexpr double cache_load_ns = 10, memory_load_ns = 100;
constexpr double copy_engine_traffic_gb_per_s = 3;

uint64_t cache_bytes()
{
    const char *text = std::getenv("VRAMBENCH_MOCK_CACHE_KIB");
    if (!text || !*text) return 1ull << 20;
    char *end = nullptr;
    const unsigned long long kib = std::strtoull(text, &end, 10);
    if (*end != '\0' || kib == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_MOCK_CACHE_KIB is not a positive number");
    return kib << 10;
}

uint64_t page_bytes()
{
    const char *text = std::getenv("VRAMBENCH_MOCK_PAGE_BYTES");
    if (!text || !*text) return 0;
    char *end = nullptr;
    const unsigned long long bytes = std::strtoull(text, &end, 10);
    if (*end != '\0') fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_MOCK_PAGE_BYTES is not a number");
    return bytes;
}

enum class Copy { none, engine, declines_sm };

Copy copy_engine()
{
    const char *text = std::getenv("VRAMBENCH_MOCK_COPY");
    if (!text || !*text) return Copy::none;
    const std::string copy(text);
    if (copy == "engine") return Copy::engine;
    if (copy == "declines-sm") return Copy::declines_sm;
    fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_MOCK_COPY=" + copy + " is neither engine nor declines-sm");
}

bool settles()
{
    const char *text = std::getenv("VRAMBENCH_MOCK_SETTLES");
    return !text || std::string(text) != "0";
}

// How much slower than the cache a working set of `bytes` is: 1 inside it, `memory` past
// it, or growing with the fourth root of the overflow where nothing settles.
double slowdown(uint64_t bytes, double memory)
{
    const uint64_t cache = cache_bytes();
    if (bytes <= cache) return 1;
    const double past = settles() ? 1 : std::pow(static_cast<double>(bytes) / static_cast<double>(cache), 0.25);
    return memory * past;
}

uint32_t arrays(uint32_t kind)
{
    switch (kind) {
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_DOT: return 2;
    case VRB_OP_ADD:
    case VRB_OP_TRIAD: return 3;
    default: return 1;
    }
}

class ModelBuffer {
  public:
    explicit ModelBuffer(uint64_t bytes) : lanes_((bytes + 3) / 4), bytes_(bytes) {}
    uint64_t size() const { return bytes_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, at(offset), bytes); }
    uint32_t *lanes_at(uint64_t offset) { return reinterpret_cast<uint32_t *>(at(offset)); }
    uint64_t lanes_from(uint64_t offset) const { return (bytes_ - offset) / 4; }

  private:
    std::byte *at(uint64_t offset) { return reinterpret_cast<std::byte *>(lanes_.data()) + offset; }
    std::vector<uint32_t> lanes_;
    uint64_t bytes_;
};

class ModelDevice {
  public:
    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
        info.heap_index = 0;
        info.max_allocation_bytes = memory_bytes;
    }
    std::unique_ptr<ModelBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > memory_bytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the model device's memory");
        return std::make_unique<ModelBuffer>(bytes);
    }
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        if (op.kind == VRB_OP_TRANSFER) return transfer(op, seconds, out);
        const uint32_t passes = vrb::plugin::operation_passes(op);
        double modelled = 0;
        if (op.kind == VRB_OP_CHASE) {
            const Walk walk = chase(op);
            out.checksum = walk.end;
            modelled = static_cast<double>(op.count) * cache_load_ns * 1e-9 *
                       slowdown(walk.distinct * 64, memory_load_ns / cache_load_ns);
        } else {
            vrb::tpl::KernelArgs args;
            auto lanes = [](const vrb_operand &operand) -> uint32_t * {
                if (!operand.buffer || operand.offset > buffer(operand)->size()) return nullptr;
                return buffer(operand)->lanes_at(operand.offset);
            };
            args.dst = lanes(op.dst);
            args.src1 = lanes(op.src1);
            args.src2 = lanes(op.src2);
            if (args.src1) args.src1_lanes = buffer(op.src1)->lanes_from(op.src1.offset);
            vrb::tpl::KernelAnswer answer;
            for (uint32_t p = 0; p < passes; ++p)
                answer = vrb::tpl::launch_kernel(op, args);
            out.checksum = answer.checksum;
            out.mismatches = answer.mismatches;
            out.first_mismatch = answer.first_mismatch;
            const uint64_t touched = op.count * op.element_bytes * arrays(op.kind);
            modelled = passes * static_cast<double>(touched) / (cache_gb_per_s * 1e9) *
                       slowdown(touched, cache_gb_per_s / memory_gb_per_s);
        }
        for (double &s : seconds)
            s = modelled > 0 ? modelled : 1e-9;
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        if (VRB_FITS(out, passes)) out.passes = passes;
        if (VRB_FITS(out, page_bytes)) out.page_bytes = page_bytes();
    }

  private:
    void transfer(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        const Copy copy = copy_engine();
        if (copy == Copy::none) fail(VRB_ERROR_UNSUPPORTED, "the model device has no copy engine");
        if (copy == Copy::declines_sm && (vrb::plugin::operation_flags(op) & VRB_OPERATION_ENGINE_SM))
            fail(VRB_ERROR_UNSUPPORTED, "the model device's compute units copy nothing: only its engine does");
        const uint32_t passes = vrb::plugin::operation_passes(op);
        std::memcpy(buffer(op.dst)->lanes_at(op.dst.offset), buffer(op.src1)->lanes_at(op.src1.offset), op.count);
        const double modelled = passes * 2 * static_cast<double>(op.count) / (copy_engine_traffic_gb_per_s * 1e9);
        for (double &s : seconds)
            s = modelled > 0 ? modelled : 1e-9;
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        if (VRB_FITS(out, passes)) out.passes = passes;
    }

    struct Walk {
        uint64_t end = 0;      // the lane the chase ends at, as the template's kernel answers
        uint64_t distinct = 0; // nodes visited: the chain's cycle, or the steps when fewer
    };
    static Walk chase(const vrb_operation &op)
    {
        const uint32_t *chain = buffer(op.src1)->lanes_at(op.src1.offset);
        const uint64_t lanes = buffer(op.src1)->lanes_from(op.src1.offset);
        Walk w;
        uint64_t j = 0;
        for (uint64_t step = 0; step < op.count; ++step) {
            if (j >= lanes) fail(VRB_ERROR_INVALID_ARGUMENT, "chase index past the chain");
            j = chain[j];
            if (w.distinct == 0 && j == 0) w.distinct = step + 1; // back at the start: one lap
        }
        if (w.distinct == 0) w.distinct = op.count;
        w.end = j;
        return w;
    }
    static ModelBuffer *buffer(const vrb_operand &operand) { return reinterpret_cast<ModelBuffer *>(operand.buffer); }
};

class ModelContext {
  public:
    explicit ModelContext(const vrb_host_table *) {}
    uint32_t device_count() { return 1; }
    void describe(uint32_t, vrb_device_info &info)
    {
        std::snprintf(info.name, sizeof info.name, "cache-model mock");
        vrb::plugin::copy_string(info.vendor, "vrambench tests");
        vrb::plugin::copy_string(info.api, "mock");
        info.type = VRB_DEVICE_DISCRETE_GPU;
        info.known = VRB_KNOWN_TOTAL_MEMORY;
        info.total_memory_bytes = memory_bytes;
        info.heap_count = 1;
        info.heaps[0].bytes = memory_bytes;
        info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
    }
    std::unique_ptr<ModelDevice> open(uint32_t) { return std::make_unique<ModelDevice>(); }
};

const vrb_plugin_table made = vrb::plugin::make_table<ModelContext, ModelDevice, ModelBuffer>(
    {"cache-model", "one mock device whose run times follow a model of one cache and memory", "1.0"});

// A 1.6 module fills an output that ends before page_bytes; what lies past its
// struct_size is not its answer, whatever it holds.
vrb_status run_answering_as_asked(vrb_device *dev, const vrb_operation *op, uint32_t repetitions, double *seconds,
                                  vrb_op_output *out)
{
    const vrb_status status = made.run(dev, op, repetitions, seconds, out);
    const char *older = std::getenv("VRAMBENCH_MOCK_OUTPUT_1_6");
    if (status == VRB_OK && out && older && std::string(older) == "1")
        out->struct_size = static_cast<uint32_t>(offsetof(vrb_op_output, page_bytes));
    return status;
}

const vrb_plugin_table table = [] {
    vrb_plugin_table t = made;
    t.run = run_answering_as_asked;
    return t;
}();

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
