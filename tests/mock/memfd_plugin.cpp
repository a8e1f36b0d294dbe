// A module whose memory is a memfd per buffer, exported and imported as the fd: the
// ownership rules of plugin.h (an export hands out a new fd; an import takes the fd on
// success and leaves it the caller's on failure) kept or broken on purpose, for the
// conformance kit's interop.export-import check. Two devices, one memory kind; the
// vocabulary runs through the template's plain kernels. The handle's api is
// "memfd-mock", and the module imports nothing else. Test-only: never installed.
// Which rule it keeps or breaks is named by the module's vrambench_mock_variant
// (mock_variant.hpp): this file is compiled once and linked once per variant.
//
//   ok                     keeps every rule
//   import_dups            an import dup()s the caller's fd and keeps the copy,
//                          so the fd it was given stays open for ever (a leak)
//   failed_import_closes   an import that fails closes the caller's fd, which
//                          the caller still owns and closes again
//   peer_read_half         a READ of the other device's memory in place sums only
//                          the first half of it (a peer path that stops short)
#include "mock_variant.hpp"

#include "../../plugins/template/template_kernels.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/plugin_table.hpp>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

using vrb::plugin::fail;
using vrb::plugin::UniqueFd;

enum class Variant {
    ok,
    import_dups,
    failed_import_closes,
    peer_read_half,
};

const Variant variant = vrb::mock::variant_of_module<Variant>({
    {"ok", Variant::ok},
    {"import_dups", Variant::import_dups},
    {"failed_import_closes", Variant::failed_import_closes},
    {"peer_read_half", Variant::peer_read_half},
});

constexpr char kApi[] = "memfd-mock";
constexpr uint32_t kDevices = 2;
constexpr uint64_t kMemoryBytes = 256ull << 20;

uint64_t whole_pages(uint64_t bytes)
{
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
}

class MemfdDevice;

// The buffer's pages, mapped shared from its fd: an importer maps the same file.
class MemfdBuffer {
  public:
    MemfdBuffer(const MemfdDevice *device, UniqueFd fd, uint64_t bytes, uint64_t mapped)
        : device_(device), fd_(std::move(fd)), bytes_(bytes), mapped_(mapped)
    {
        base_ = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.get(), 0);
        if (base_ == MAP_FAILED) fail(VRB_ERROR_OUT_OF_MEMORY, "mmap of the buffer's memfd failed");
    }
    ~MemfdBuffer() { ::munmap(base_, mapped_); }
    MemfdBuffer(const MemfdBuffer &) = delete;
    MemfdBuffer &operator=(const MemfdBuffer &) = delete;

    uint64_t size() const { return bytes_; }
    const MemfdDevice *device() const { return device_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, at(offset), bytes); }
    uint32_t *lanes(uint64_t offset) { return reinterpret_cast<uint32_t *>(at(offset)); }
    uint64_t lanes_from(uint64_t offset) const { return (bytes_ - offset) / 4; }

    void export_handle(vrb_external_handle &h)
    {
        const int copy = ::fcntl(fd_.get(), F_DUPFD_CLOEXEC, 0);
        if (copy < 0) fail(VRB_ERROR_DEVICE, std::string("dup of the buffer's memfd failed: ") + std::strerror(errno));
        h.type = VRB_EXTERNAL_OPAQUE_FD;
        h.handle = copy;
        h.bytes = bytes_;
        h.allocation_bytes = mapped_;
        h.memory_type_index = UINT32_MAX;
        vrb::plugin::copy_string(h.api, kApi);
    }

  private:
    std::byte *at(uint64_t offset) { return static_cast<std::byte *>(base_) + offset; }
    const MemfdDevice *device_;
    UniqueFd fd_;
    uint64_t bytes_, mapped_;
    void *base_ = nullptr;
};

MemfdBuffer *buffer_of(const vrb_operand &operand)
{
    return reinterpret_cast<MemfdBuffer *>(operand.buffer);
}

class MemfdDevice {
  public:
    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_VISIBLE;
        info.heap_index = UINT32_MAX;
        info.max_allocation_bytes = kMemoryBytes;
    }
    std::unique_ptr<MemfdBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > kMemoryBytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the mock device's memory");
        UniqueFd fd(::memfd_create("vrambench-memfd-mock", MFD_CLOEXEC));
        const uint64_t mapped = whole_pages(bytes == 0 ? 1 : bytes);
        if (fd.get() < 0 || ::ftruncate(fd.get(), static_cast<off_t>(mapped)) != 0)
            fail(VRB_ERROR_OUT_OF_MEMORY, std::string("memfd for the buffer failed: ") + std::strerror(errno));
        return std::make_unique<MemfdBuffer>(this, std::move(fd), bytes, mapped);
    }
    std::unique_ptr<MemfdBuffer> alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t type)
    {
        if (type != VRB_EXTERNAL_OPAQUE_FD) fail(VRB_ERROR_UNSUPPORTED, "the mock exports opaque fds only");
        return alloc(kind, bytes);
    }
    std::unique_ptr<MemfdBuffer> import_buffer(const vrb_external_handle &h, uint32_t)
    {
        const int fd = static_cast<int>(h.handle);
        try {
            vrb::plugin::check_import_handle(&h, {kApi, false, nullptr, nullptr, "memfd mock", ""},
                                             static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)));
            if (vrb::plugin::handle_api(h) != kApi)
                fail(VRB_ERROR_UNSUPPORTED, "the mock imports only memory of its own api, " + std::string(kApi));
        } catch (...) {
            if (variant == Variant::failed_import_closes) ::close(fd);
            throw;
        }
        UniqueFd taken(variant == Variant::import_dups ? ::fcntl(fd, F_DUPFD_CLOEXEC, 0) : fd);
        return std::make_unique<MemfdBuffer>(this, std::move(taken), h.bytes, h.allocation_bytes);
    }
    uint32_t peer(const MemfdDevice &) const { return VRB_PEER_COPY | VRB_PEER_ACCESS; }

    // The operation as this module runs it: unchanged, but for the planted fault.
    vrb_operation as_run(const vrb_operation &op) const
    {
        vrb_operation ran = op;
        if (variant == Variant::peer_read_half && op.kind == VRB_OP_READ && buffer_of(op.src1)->device() != this)
            ran.count = op.count / 2;
        return ran;
    }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        const uint32_t passes = vrb::plugin::operation_passes(op);
        vrb::tpl::KernelArgs args;
        auto lanes = [](const vrb_operand &o) -> uint32_t * {
            return o.buffer && o.offset <= buffer_of(o)->size() ? buffer_of(o)->lanes(o.offset) : nullptr;
        };
        args.dst = lanes(op.dst);
        args.src1 = lanes(op.src1);
        args.src2 = lanes(op.src2);
        if (args.src1) args.src1_lanes = buffer_of(op.src1)->lanes_from(op.src1.offset);
        vrb::tpl::KernelAnswer answer;
        for (double &s : seconds) {
            const auto begun = std::chrono::steady_clock::now();
            for (uint32_t p = 0; p < passes; ++p) {
                if (op.kind != VRB_OP_TRANSFER) {
                    answer = vrb::tpl::launch_kernel(as_run(op), args);
                    continue;
                }
                std::memcpy(args.dst, args.src1, op.count);
                if (op.src2.buffer && op.dst2.buffer) std::memcpy(lanes(op.dst2), args.src2, op.count);
            }
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
            if (!(s > 0)) s = 1e-9;
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        out.checksum = answer.checksum;
        out.mismatches = answer.mismatches;
        out.first_mismatch = answer.first_mismatch;
        if (VRB_FITS(out, passes)) out.passes = passes;
    }
};

class MemfdContext {
  public:
    explicit MemfdContext(const vrb_host_table *) {}
    uint32_t device_count() { return kDevices; }
    void describe(uint32_t index, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "memfd mock");
        vrb::plugin::copy_string(info.api, kApi);
        info.type = VRB_DEVICE_OTHER;
        info.known = VRB_KNOWN_TOTAL_MEMORY;
        info.total_memory_bytes = kMemoryBytes;
        (void)index;
    }
    std::unique_ptr<MemfdDevice> open(uint32_t) { return std::make_unique<MemfdDevice>(); }
};

const vrb_plugin_table table = vrb::plugin::make_table<MemfdContext, MemfdDevice, MemfdBuffer>(
    {"memfd", "memory in memfds, exported and imported as fds (tests/mock/memfd_plugin.cpp)", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
