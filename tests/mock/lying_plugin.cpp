// A module that lies, one way per run, so every check a probe makes of a module's answer
// has a test that watches it fail. Its devices ("liar:0", "liar:1") run the vocabulary
// with the template backend's plain kernels over host memory, as the multi-device mock
// does, so with no lie every probe verifies; then the lie named by VRAMBENCH_LIE spoils
// exactly one thing:
//
//   checksum          every checksum (READ, DOT, STRIDED_READ, GATHER) is one too large
//   copy scale add triad write fill
//                     that operation leaves bit 8 of its last destination lane flipped
//   blind-check       FILL flips bit 8 of its last lane, and CHECK reports no mismatch
//   chase             a CHASE over the device's own memory stops one node early
//   peer-read         a CHASE over another device's memory stops one node early
//   to-device         a TRANSFER into device memory flips bit 0 of its last byte
//   to-host           a TRANSFER into host memory (pinned or pageable) does the same
//   second-direction  only the second copy of a TRANSFER both ways at once does
//   peer-copy         a TRANSFER from one device into another's memory does
//   idle-transfer     a TRANSFER copies nothing: its destinations keep what they held
//   import            memory read through an imported buffer (an operation's source, or
//                     what CHECK compares) reads 0x100 too large in its last lane (added,
//                     not flipped, so two reads through it never cancel); what is
//                     written through it arrives as written
//
// Two more name how a READ is walked, as a GPU module walks a small set on every compute
// unit (VRB_OUTPUT_WHOLE_SET_PER_UNIT); the sums stay right, only the flag tells:
//
//   per-unit-reads    a READ not asked as one read (VRB_OPERATION_ONE_READ) is walked
//                     on every unit; one asked so is read once
//   one-read-unknown  every READ is walked on every unit, asked as one read or not
//
// VRAMBENCH_LIE_LOG names a file the module appends each distinct lie to, in the words a
// probe's verification uses, so a test can demand the exact address and both values:
//   "byte 0x1ffc: 0x12345778, expected 0x12345678"   a lane or byte it spoiled
//   "checksum 0x1235, expected 0x1234"               a checksum it spoiled
//   "the chase ended at lane 17, expected 42"         a chase it cut short
// A lie the module does not know stops it when it starts: a typo must not turn a
// failing test into a clean run.
//
// Memory kinds: 0 "device" (device-local), 1 "pinned" and 2 "pageable" (host memory), so
// bandwidth.transfer has each of its routes. Buffers export their memory by address
// (api "liar") and the module imports its own handles, so the interop probes pair a
// device with itself.
#include "../../plugins/template/template_kernels.hpp"

#include <vrambench/plugin_table.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using vrb::plugin::fail;

constexpr uint64_t memory_bytes = 256ull << 20;
constexpr uint64_t page_bytes = 4096;
constexpr uint32_t lane_bit = 1u << 8;
constexpr uint32_t device_count = 2;
enum Kind : uint32_t { device_kind = 0, pinned_kind = 1, pageable_kind = 2, kind_count = 3 };

enum class Lie {
    none,
    checksum,
    copy,
    scale,
    add,
    triad,
    write,
    fill,
    blind_check,
    chase,
    peer_read,
    to_device,
    to_host,
    second_direction,
    peer_copy,
    idle_transfer,
    import,
    per_unit_reads,
    one_read_unknown
};

Lie read_lie()
{
    static constexpr std::array<std::pair<const char *, Lie>, 18> names{{{"checksum", Lie::checksum},
                                                                         {"copy", Lie::copy},
                                                                         {"scale", Lie::scale},
                                                                         {"add", Lie::add},
                                                                         {"triad", Lie::triad},
                                                                         {"write", Lie::write},
                                                                         {"fill", Lie::fill},
                                                                         {"blind-check", Lie::blind_check},
                                                                         {"chase", Lie::chase},
                                                                         {"peer-read", Lie::peer_read},
                                                                         {"to-device", Lie::to_device},
                                                                         {"to-host", Lie::to_host},
                                                                         {"second-direction", Lie::second_direction},
                                                                         {"peer-copy", Lie::peer_copy},
                                                                         {"idle-transfer", Lie::idle_transfer},
                                                                         {"import", Lie::import},
                                                                         {"per-unit-reads", Lie::per_unit_reads},
                                                                         {"one-read-unknown", Lie::one_read_unknown}}};
    const char *text = std::getenv("VRAMBENCH_LIE");
    if (!text || !*text) return Lie::none;
    for (const auto &[name, lie] : names)
        if (std::strcmp(text, name) == 0) return lie;
    fail(VRB_ERROR_INVALID_ARGUMENT, std::string("VRAMBENCH_LIE=") + text + " names no lie this module tells");
}

// The lie an operation kind is spoiled by when it writes its destination.
Lie lane_lie(uint32_t op_kind)
{
    switch (op_kind) {
    case VRB_OP_COPY: return Lie::copy;
    case VRB_OP_SCALE: return Lie::scale;
    case VRB_OP_ADD: return Lie::add;
    case VRB_OP_TRIAD: return Lie::triad;
    case VRB_OP_WRITE: return Lie::write;
    case VRB_OP_FILL: return Lie::fill;
    default: return Lie::none;
    }
}

// Each distinct lie once, in the order told, to VRAMBENCH_LIE_LOG as it was when the
// backend started.
class LieLog {
  public:
    void tell(const std::string &line)
    {
        if (path_.empty()) return;
        const std::lock_guard lock(mutex_);
        if (!told_.insert(line).second) return;
        const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return;
        const std::string text = line + "\n";
        (void)!::write(fd, text.data(), text.size()); // one write with O_APPEND: whole lines
        ::close(fd);
    }

  private:
    std::string path_ = std::getenv("VRAMBENCH_LIE_LOG") ? std::getenv("VRAMBENCH_LIE_LOG") : "";
    std::mutex mutex_;
    std::set<std::string> told_;
};

struct Shared {
    Lie lie = read_lie();
    LieLog log;
};

class LiarDevice;

struct FreeMemory {
    void operator()(void *p) const { std::free(p); }
};

// Whole pages, so a buffer's memory can be handed out by address. An imported buffer
// owns nothing: it is a view of its exporter's memory, which outlives it.
class LiarBuffer {
  public:
    LiarBuffer(const LiarDevice *device, uint32_t kind, uint64_t bytes)
        : device_(device), kind_(kind), bytes_(bytes),
          owned_(std::aligned_alloc(page_bytes, (bytes + page_bytes - 1) / page_bytes * page_bytes)),
          base_(static_cast<std::byte *>(owned_.get()))
    {
        if (!base_) fail(VRB_ERROR_OUT_OF_MEMORY, "no host memory for a buffer of " + std::to_string(bytes) + " bytes");
    }
    LiarBuffer(const LiarDevice *device, uint32_t kind, uint64_t bytes, std::byte *view)
        : device_(device), kind_(kind), bytes_(bytes), base_(view)
    {
    }

    uint64_t size() const { return bytes_; }
    const LiarDevice *device() const { return device_; }
    uint32_t kind() const { return kind_; }
    bool imported() const { return !owned_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(base_ + offset, src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, base_ + offset, bytes); }
    void export_handle(vrb_external_handle &handle)
    {
        handle.type = VRB_EXTERNAL_HOST_POINTER;
        handle.handle = static_cast<int64_t>(reinterpret_cast<uintptr_t>(base_));
        handle.bytes = bytes_;
        handle.allocation_bytes = bytes_;
        handle.memory_type_index = UINT32_MAX;
        vrb::plugin::copy_string(handle.api, "liar");
    }
    std::byte *bytes_at(uint64_t offset) { return base_ + offset; }
    uint32_t *lanes_at(uint64_t offset) { return reinterpret_cast<uint32_t *>(base_ + offset); }
    uint64_t lanes_from(uint64_t offset) const { return (bytes_ - offset) / 4; }

  private:
    const LiarDevice *device_;
    uint32_t kind_;
    uint64_t bytes_;
    std::unique_ptr<void, FreeMemory> owned_;
    std::byte *base_;
};

LiarBuffer *buffer_of(const vrb_operand &operand)
{
    // The ABI hands our own buffers back; make_table has checked they are this device's
    // or a peer's this device may use.
    return reinterpret_cast<LiarBuffer *>(operand.buffer);
}

class LiarDevice {
  public:
    explicit LiarDevice(Shared &shared) : shared_(shared) {}

    uint32_t memory_kind_count() { return kind_count; }
    void describe(uint32_t kind, vrb_memory_kind_info &info)
    {
        static constexpr std::array<const char *, kind_count> names{"device", "pinned", "pageable"};
        vrb::plugin::copy_string(info.name, names.at(kind));
        const uint32_t host = VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT;
        info.flags = kind == device_kind   ? VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS
                     : kind == pinned_kind ? host | VRB_MEMORY_PINNED | VRB_MEMORY_DEVICE_ACCESS
                                           : host | VRB_MEMORY_PAGEABLE;
        info.heap_index = kind == device_kind ? 0 : 1;
        info.max_allocation_bytes = memory_bytes;
    }
    std::unique_ptr<LiarBuffer> alloc(uint32_t kind, uint64_t bytes)
    {
        if (bytes > memory_bytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the lying device's memory");
        return std::make_unique<LiarBuffer>(this, kind, bytes);
    }
    std::unique_ptr<LiarBuffer> import_buffer(const vrb_external_handle &handle, uint32_t)
    {
        if (handle.type != VRB_EXTERNAL_HOST_POINTER || vrb::plugin::handle_api(handle) != "liar")
            fail(VRB_ERROR_UNSUPPORTED, "the lying module imports only its own buffers, by address");
        auto *view = reinterpret_cast<std::byte *>(static_cast<uintptr_t>(handle.handle));
        return std::make_unique<LiarBuffer>(this, device_kind, handle.bytes, view);
    }
    uint32_t peer(const LiarDevice &) const { return VRB_PEER_COPY | VRB_PEER_ACCESS; }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        vrb::tpl::KernelAnswer answer;
        const uint32_t passes = vrb::plugin::operation_passes(op);
        for (double &s : seconds) {
            const auto start = std::chrono::steady_clock::now();
            for (uint32_t p = 0; p < passes; ++p)
                answer = op.kind == VRB_OP_TRANSFER ? transfer(op) : kernel(op);
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!(s > 0)) s = 1e-9;
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        out.checksum = answer.checksum;
        out.mismatches = answer.mismatches;
        out.first_mismatch = answer.first_mismatch;
        if (VRB_FITS(out, passes)) out.passes = passes;
        if (op.kind == VRB_OP_READ && walks_every_unit(op)) out.flags |= VRB_OUTPUT_WHOLE_SET_PER_UNIT;
    }

  private:
    bool lying(Lie lie) const { return shared_.lie == lie; }

    bool walks_every_unit(const vrb_operation &op) const
    {
        const bool asked_once = vrb::plugin::operation_flags(op) & VRB_OPERATION_ONE_READ;
        return lying(Lie::one_read_unknown) || (lying(Lie::per_unit_reads) && !asked_once);
    }

    // Flips `bit` of lane `lane` from the operand's offset and says so.
    void spoil_lane(const vrb_operand &operand, uint64_t lane, uint32_t bit)
    {
        uint32_t &word = buffer_of(operand)->lanes_at(operand.offset)[lane];
        const uint32_t was = word;
        word ^= bit;
        shared_.log.tell(fmt::format("byte {:#x}: {:#010x}, expected {:#010x}", operand.offset + lane * 4, word, was));
    }

    vrb::tpl::KernelAnswer kernel(const vrb_operation &op)
    {
        // Memory read through an imported buffer is off by a bit while the operation runs.
        std::vector<uint32_t *> twisted;
        if (lying(Lie::import))
            for (const vrb_operand *operand : {&op.src1, &op.src2})
                if (operand->buffer && buffer_of(*operand)->imported()) {
                    LiarBuffer &b = *buffer_of(*operand);
                    uint32_t *last = b.lanes_at(0) + b.size() / 4 - 1;
                    if (std::find(twisted.begin(), twisted.end(), last) == twisted.end()) twisted.push_back(last);
                }
        for (uint32_t *lane : twisted)
            *lane += lane_bit;

        vrb::tpl::KernelArgs args;
        // An operand the operation does not use may carry any offset: it is never resolved.
        auto lanes = [](const vrb_operand &operand) -> uint32_t * {
            if (!operand.buffer || operand.offset > buffer_of(operand)->size()) return nullptr;
            return buffer_of(operand)->lanes_at(operand.offset);
        };
        args.dst = lanes(op.dst);
        args.src1 = lanes(op.src1);
        args.src2 = lanes(op.src2);
        if (args.src1) args.src1_lanes = buffer_of(op.src1)->lanes_from(op.src1.offset);
        vrb::tpl::KernelAnswer answer = vrb::tpl::launch_kernel(op, args);

        for (uint32_t *lane : twisted)
            *lane -= lane_bit;
        if (!twisted.empty()) shared_.log.tell(fmt::format("import reads the last lane {:#x} too large", lane_bit));

        const uint64_t op_lanes = op.count * op.element_bytes / 4;
        switch (op.kind) {
        case VRB_OP_READ:
        case VRB_OP_DOT:
        case VRB_OP_STRIDED_READ:
        case VRB_OP_GATHER:
            if (lying(Lie::checksum)) {
                shared_.log.tell(fmt::format("checksum {:#x}, expected {:#x}", answer.checksum + 1, answer.checksum));
                ++answer.checksum;
            }
            break;
        case VRB_OP_CHASE: {
            const bool theirs = buffer_of(op.src1)->device() != this;
            if (op.count > 0 && lying(theirs ? Lie::peer_read : Lie::chase)) {
                vrb_operation shorter = op;
                --shorter.count;
                const uint64_t want = answer.checksum;
                answer = vrb::tpl::launch_kernel(shorter, args);
                shared_.log.tell(fmt::format("the chase ended at lane {}, expected {}", answer.checksum, want));
            }
            break;
        }
        case VRB_OP_CHECK:
            if (lying(Lie::blind_check)) answer = {};
            break;
        default:
            if (op_lanes && (lying(lane_lie(op.kind)) || (op.kind == VRB_OP_FILL && lying(Lie::blind_check))))
                spoil_lane(op.dst, op_lanes - 1, lane_bit);
            break;
        }
        return answer;
    }

    // The copy engine: memcpy of each pair, both at once as one after the other.
    vrb::tpl::KernelAnswer transfer(const vrb_operation &op)
    {
        if (lying(Lie::idle_transfer)) {
            // What the destination's first lane still holds, where the copy would have changed it.
            const uint32_t held = *buffer_of(op.dst)->lanes_at(op.dst.offset);
            const uint32_t sent = *buffer_of(op.src1)->lanes_at(op.src1.offset);
            if (op.count >= 4 && held != sent)
                shared_.log.tell(fmt::format("byte {:#x}: {:#010x}, expected {:#010x}", op.dst.offset, held, sent));
            return {};
        }
        auto copy = [&](const vrb_operand &to, const vrb_operand &from, bool spoiled) {
            std::memcpy(buffer_of(to)->bytes_at(to.offset), buffer_of(from)->bytes_at(from.offset), op.count);
            if (spoiled && op.count >= 4) spoil_lane(to, op.count / 4 - 1, 1u << 24); // bit 0 of the last byte
        };
        auto spoils = [&](const vrb_operand &to, const vrb_operand &from, bool second) {
            const LiarBuffer &dst = *buffer_of(to);
            return (lying(Lie::to_device) && dst.kind() == device_kind) ||
                   (lying(Lie::to_host) && dst.kind() != device_kind) || (lying(Lie::second_direction) && second) ||
                   (lying(Lie::peer_copy) && dst.device() != buffer_of(from)->device());
        };
        copy(op.dst, op.src1, spoils(op.dst, op.src1, false));
        if (op.src2.buffer && op.dst2.buffer) copy(op.dst2, op.src2, spoils(op.dst2, op.src2, true));
        return {};
    }

    Shared &shared_;
};

class LiarContext {
  public:
    explicit LiarContext(const vrb_host_table *) {}
    uint32_t device_count() { return ::device_count; }
    void describe(uint32_t index, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "lying mock");
        vrb::plugin::copy_string(info.vendor, "vrambench tests");
        vrb::plugin::copy_string(info.api, "liar");
        info.type = VRB_DEVICE_DISCRETE_GPU;
        info.known = VRB_KNOWN_PCI_IDS | VRB_KNOWN_PCI_ADDRESS | VRB_KNOWN_TOTAL_MEMORY;
        info.pci_vendor_id = 0xfffe;
        info.pci_device_id = 0x0002;
        std::snprintf(info.pci_address, sizeof info.pci_address, "0000:%02x:00.0", 0x20 + index);
        info.total_memory_bytes = memory_bytes;
        info.cache_count = 1;
        info.caches[0] = {2, 0, 256u << 10, {}};
        vrb::plugin::copy_string(info.caches[0].kind, "unified");
        info.heap_count = 2;
        info.heaps[0].bytes = memory_bytes;
        info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
        info.heaps[1].bytes = memory_bytes;
        info.heaps[1].flags = 0;
    }
    std::unique_ptr<LiarDevice> open(uint32_t) { return std::make_unique<LiarDevice>(shared_); }

  private:
    Shared shared_; // reads VRAMBENCH_LIE when the backend starts
};

const vrb_plugin_table table = vrb::plugin::make_table<LiarContext, LiarDevice, LiarBuffer>(
    {"liar", "devices that each tell one lie a probe must catch (VRAMBENCH_LIE)", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
