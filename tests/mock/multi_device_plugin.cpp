// A module of several devices ("multi:0", "multi:1", ...), written as the three classes
// make_table turns into the C table. Each device runs the vocabulary with the template
// backend's plain kernels over host memory, so every probe's figures verify. For the
// tests of concurrent runs it can stretch each run and log when it ran:
//   VRAMBENCH_MOCK_DEVICES   how many devices (default 3, at most 8)
//   VRAMBENCH_MOCK_RUN_MS    the least milliseconds one run() call takes (default 0)
//   VRAMBENCH_MOCK_TRACE     a file each run() call appends "ID START_NS END_NS" to,
//                            times from CLOCK_MONOTONIC, one line per repetition
//   VRAMBENCH_MOCK_CRASH     the index of a device whose first run() crashes its worker
//                            (SIGSEGV), to show a fault costs only that device's results
// Its devices are peers (ABI 1.5): a TRANSFER copies between any two of them, and READ
// and CHASE read another's memory in place, all through host memory as it is.
//   VRAMBENCH_MOCK_PEERS     "copy": copies only, no access; "none": no peer path at all;
//                            "I-J": only device I has a path (copy and access) to J;
//                            "bad-bits": an answer with a bit no VRB_PEER_* names
//   VRAMBENCH_MOCK_PEER_SKEW a number of bytes a peer copy leaves unwritten at its end
//                            (a broken module, for the probe's verification)
//   VRAMBENCH_MOCK_HOST_KIND "1": a second memory kind, pinned host memory, so transfers
//                            run host to device and back (the link tests)
#include "../../plugins/template/template_kernels.hpp"

#include <vrambench/plugin_table.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using vrb::plugin::fail;

constexpr uint64_t memory_bytes = 256ull << 20;

uint32_t env_number(const char *name, uint32_t fallback, uint32_t most)
{
    const char *text = std::getenv(name);
    if (!text || !*text) return fallback;
    char *end = nullptr;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (*end != '\0' || value > most)
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + " is not a number up to " + std::to_string(most));
    return static_cast<uint32_t>(value);
}

uint64_t monotonic_ns()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
}

class MultiDevice;

class MultiBuffer {
  public:
    MultiBuffer(const MultiDevice *device, uint64_t bytes) : device_(device), lanes_((bytes + 3) / 4), bytes_(bytes) {}
    uint64_t size() const { return bytes_; }
    const MultiDevice *device() const { return device_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(bytes_at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, bytes_at(offset), bytes); }
    uint32_t *lanes_at(uint64_t offset) { return reinterpret_cast<uint32_t *>(bytes_at(offset)); }
    uint64_t lanes_from(uint64_t offset) const { return (bytes_ - offset) / 4; }

  private:
    std::byte *bytes_at(uint64_t offset) { return reinterpret_cast<std::byte *>(lanes_.data()) + offset; }
    const MultiDevice *device_;
    std::vector<uint32_t> lanes_;
    uint64_t bytes_;
};

class MultiDevice {
  public:
    explicit MultiDevice(uint32_t index) : index_(index), run_ms_(env_number("VRAMBENCH_MOCK_RUN_MS", 0, 10000)) {}
    uint32_t memory_kind_count() { return env_number("VRAMBENCH_MOCK_HOST_KIND", 0, 1) ? 2 : 1; }
    void describe(uint32_t kind, vrb_memory_kind_info &info)
    {
        if (kind == 1) {
            vrb::plugin::copy_string(info.name, "pinned host");
            info.flags = VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PINNED | VRB_MEMORY_HOST_VISIBLE |
                         VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_DEVICE_ACCESS;
            info.heap_index = 0;
            info.max_allocation_bytes = memory_bytes;
            return;
        }
        vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
        info.heap_index = 0;
        info.max_allocation_bytes = memory_bytes;
    }
    std::unique_ptr<MultiBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > memory_bytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the mock device's memory");
        return std::make_unique<MultiBuffer>(this, bytes);
    }
    uint32_t peer(const MultiDevice &other) const
    {
        const char *peers = std::getenv("VRAMBENCH_MOCK_PEERS");
        const std::string rule = peers ? peers : "";
        if (rule == "none") return 0;
        if (rule == "bad-bits") return VRB_PEER_COPY | 0x80u;
        if (rule == "copy") return VRB_PEER_COPY | VRB_PEER_THROUGH_HOST;
        if (!rule.empty() && rule != std::to_string(index_) + "-" + std::to_string(other.index_)) return 0;
        return VRB_PEER_COPY | VRB_PEER_ACCESS;
    }
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        if (op.kind == VRB_OP_TRANSFER) return transfer(op, seconds, out);
        if (const char *crash = std::getenv("VRAMBENCH_MOCK_CRASH"); crash && std::to_string(index_) == crash)
            std::raise(SIGSEGV);
        vrb::tpl::KernelArgs args;
        // An operand the operation does not use may carry any offset: it is never resolved past its buffer.
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
            const uint64_t start = monotonic_ns();
            const auto begun = std::chrono::steady_clock::now();
            for (uint32_t p = 0; p < passes; ++p)
                answer = vrb::tpl::launch_kernel(op, args);
            if (run_ms_) std::this_thread::sleep_until(begun + std::chrono::milliseconds(run_ms_));
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
            trace(start, monotonic_ns());
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        out.checksum = answer.checksum;
        out.mismatches = answer.mismatches;
        out.first_mismatch = answer.first_mismatch;
        if (VRB_FITS(out, passes)) out.passes = passes;
    }

  private:
    // The copy engine: memcpy of each pair, both at once as one after the other.
    void transfer(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        const uint64_t skew = env_number("VRAMBENCH_MOCK_PEER_SKEW", 0, 1u << 20);
        const bool peers = op.src1.buffer && op.dst.buffer && buffer(op.src1)->device() != buffer(op.dst)->device();
        const uint64_t bytes = peers && skew < op.count ? op.count - skew : op.count;
        const uint32_t passes = vrb::plugin::operation_passes(op);
        for (double &s : seconds) {
            const auto begun = std::chrono::steady_clock::now();
            for (uint32_t p = 0; p < passes; ++p) {
                std::memcpy(buffer(op.dst)->lanes_at(op.dst.offset), buffer(op.src1)->lanes_at(op.src1.offset), bytes);
                if (op.src2.buffer && op.dst2.buffer)
                    std::memcpy(buffer(op.dst2)->lanes_at(op.dst2.offset), buffer(op.src2)->lanes_at(op.src2.offset),
                                bytes);
            }
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
            if (!(s > 0)) s = 1e-9;
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        if (VRB_FITS(out, passes)) out.passes = passes;
    }
    static MultiBuffer *buffer(const vrb_operand &operand)
    {
        // The ABI hands our own buffers back; make_table has checked they are this device's
        // or a peer's this device may use.
        return reinterpret_cast<MultiBuffer *>(operand.buffer);
    }
    void trace(uint64_t start, uint64_t end) const
    {
        const char *path = std::getenv("VRAMBENCH_MOCK_TRACE");
        if (!path || !*path) return;
        const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return;
        char line[96];
        const int n = std::snprintf(line, sizeof line, "multi:%u %llu %llu\n", index_,
                                    static_cast<unsigned long long>(start), static_cast<unsigned long long>(end));
        // One write with O_APPEND: lines of several processes never interleave.
        (void)!::write(fd, line, static_cast<std::size_t>(n));
        ::close(fd);
    }
    uint32_t index_;
    uint32_t run_ms_;
};

class MultiContext {
  public:
    explicit MultiContext(const vrb_host_table *) : count_(env_number("VRAMBENCH_MOCK_DEVICES", 3, 8)) {}
    uint32_t device_count() { return count_; }
    void describe(uint32_t index, vrb_device_info &info)
    {
        std::snprintf(info.name, sizeof info.name, "multi-device mock");
        vrb::plugin::copy_string(info.vendor, "vrambench tests");
        vrb::plugin::copy_string(info.api, "mock");
        info.type = VRB_DEVICE_DISCRETE_GPU;
        // Each device its own card: distinct PCI addresses, one model.
        info.known = VRB_KNOWN_PCI_IDS | VRB_KNOWN_PCI_ADDRESS | VRB_KNOWN_TOTAL_MEMORY;
        info.pci_vendor_id = 0xfffe;
        info.pci_device_id = 0x0001;
        std::snprintf(info.pci_address, sizeof info.pci_address, "0000:%02x:00.0", 0x10 + index);
        info.total_memory_bytes = memory_bytes;
        info.cache_count = 1;
        info.caches[0] = {2, 0, 256u << 10, {}};
        vrb::plugin::copy_string(info.caches[0].kind, "unified");
        info.heap_count = 1;
        info.heaps[0].bytes = memory_bytes;
        info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
    }
    std::unique_ptr<MultiDevice> open(uint32_t index) { return std::make_unique<MultiDevice>(index); }

  private:
    uint32_t count_;
};

const vrb_plugin_table table = vrb::plugin::make_table<MultiContext, MultiDevice, MultiBuffer>(
    {"multi", "several mock devices, for concurrent runs and peer matrices", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
