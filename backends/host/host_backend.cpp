// The host backend: the CPU's cores run the vocabulary over the process's own memory.
#include "cpu_affinity.hpp"
#include "host_description.hpp"
#include "host_kernels.hpp"
#include "host_module.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/pattern.h>
#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <vector>

using vrb::plugin::fail;

namespace vrb::host {
namespace {

constexpr uint64_t cache_line_lanes = 16;

using Clock = std::chrono::steady_clock;

// Runs one repetition of an operation; returns the checksum and mismatch answer.
struct Answer {
    uint64_t checksum = 0, mismatches = 0, first_mismatch = UINT64_MAX;
    // The work's span: from every worker started to the last done (WorkerPool::run), or
    // the calling thread's loop; the set-up around it is not the operation's.
    double seconds = 0;
};

// Keeps the compiler from proving a pass redundant and doing it once.
inline void pass_fence()
{
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

// Each worker repeats its own share `passes` times with no barrier in between: the
// shares are disjoint, and one dispatch is paid per run, not per pass.
Answer execute(WorkerPool &pool, uint64_t last_level_cache, const vrb_operation &op, uint32_t passes)
{
    const Kernels &k = kernels();
    const uint64_t lanes_per_element = op.element_bytes / 4;
    auto *dst = op.dst.buffer ? host_buffer(op.dst.buffer).lanes(op.dst.offset) : nullptr;
    const auto *a = op.src1.buffer ? host_buffer(op.src1.buffer).lanes(op.src1.offset) : nullptr;
    const auto *b = op.src2.buffer ? host_buffer(op.src2.buffer).lanes(op.src2.offset) : nullptr;
    const uint64_t lanes = op.count * lanes_per_element;
    // Non-temporal stores pay off once the destination no longer fits in the caches, and
    // a read walks several streams a core once its array is past them.
    const bool streaming = lanes * 4 >= last_level_cache / 2 && lanes * 4 >= (8u << 20);
    // Each worker's answer is kept in a register through its passes and stored here once:
    // neighbouring slots share a cache line, and a store per pass would bounce that line
    // between cores for every pass over an L1-sized share.
    std::vector<uint64_t> partial(pool.size(), 0);
    std::vector<uint32_t> folded(pool.size(), 0); // where READ's folds go, so none is dropped
    Answer answer;
    // Made once per run, not per pass or per worker: it is the random pattern's only hashing.
    const bool random = op.kind == VRB_OP_WRITE || (op.kind == VRB_OP_FILL && op.pattern == VRB_PATTERN_RANDOM);
    std::optional<RandomBlock> block;
    if (random) block.emplace(op.seed);

    switch (op.kind) {
    case VRB_OP_READ:
    case VRB_OP_DOT:
    case VRB_OP_WRITE:
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_ADD:
    case VRB_OP_TRIAD:
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            const uint64_t m = r.end - r.begin;
            uint64_t sum = 0;
            uint32_t fold = 0;
            switch (op.kind) {
            // The sweep's operations make every pass in one call (Kernels says why). READ
            // folds all passes but the last, which sums (Kernels::fold says why).
            case VRB_OP_READ:
                if (passes > 1) fold = k.fold(a + r.begin, m, passes - 1, streaming);
                sum = k.sum(a + r.begin, m, streaming);
                break;
            case VRB_OP_WRITE: k.random(dst + r.begin, r.begin, *block, m, streaming, passes); break;
            case VRB_OP_COPY: k.copy(dst + r.begin, a + r.begin, m, streaming, passes); break;
            default:
                for (uint32_t p = 0; p < passes; ++p) {
                    switch (op.kind) {
                    case VRB_OP_DOT: sum = k.dot(a + r.begin, b + r.begin, m); break;
                    case VRB_OP_SCALE: k.scale(dst + r.begin, a + r.begin, op.scalar, m, streaming); break;
                    case VRB_OP_ADD: k.add(dst + r.begin, a + r.begin, b + r.begin, m, streaming); break;
                    default: k.triad(dst + r.begin, a + r.begin, b + r.begin, op.scalar, m, streaming); break;
                    }
                    pass_fence();
                }
            }
            partial[w] = sum;
            folded[w] = fold;
        });
        break;
    case VRB_OP_STRIDED_READ:
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            // The share is walked as two halves side by side, each summed on its own: one
            // stream a core is bound by the misses the core keeps in flight (host_kernels_avx2.cpp says
            // more). The sum is the same in any order.
            const Range r = split(op.count, w, n, 1);
            const uint64_t half = (r.end - r.begin) / 2, second = r.begin + half;
            const uint64_t step = op.stride * lanes_per_element;
            uint64_t s = 0;
            for (uint32_t p = 0; p < passes; ++p) {
                uint64_t s0 = 0, s1 = 0;
                for (uint64_t e = 0; e < half; ++e)
                    for (uint64_t l = 0; l < lanes_per_element; ++l) {
                        s0 += a[(r.begin + e) * step + l];
                        s1 += a[(second + e) * step + l];
                    }
                for (uint64_t e = second + half; e < r.end; ++e)
                    for (uint64_t l = 0; l < lanes_per_element; ++l)
                        s0 += a[e * step + l];
                s = s0 + s1;
                pass_fence();
            }
            partial[w] = s;
        });
        break;
    case VRB_OP_GATHER: {
        const uint64_t elements = (host_buffer(op.src1.buffer).size() - op.src1.offset) / op.element_bytes;
        std::atomic<bool> out_of_range{false};
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            const Range r = split(op.count, w, n, 1);
            uint64_t s = 0;
            for (uint32_t p = 0; p < passes; ++p) {
                s = 0;
                for (uint64_t i = r.begin; i < r.end; ++i) {
                    const uint64_t e = b[i];
                    if (e >= elements) {
                        out_of_range = true;
                        return;
                    }
                    for (uint64_t l = 0; l < lanes_per_element; ++l)
                        s += a[e * lanes_per_element + l];
                }
                pass_fence();
            }
            partial[w] = s;
        });
        if (out_of_range) fail(VRB_ERROR_INVALID_ARGUMENT, "gather index past the end of src1");
        break;
    }
    case VRB_OP_CHASE: {
        const uint64_t entries = (host_buffer(op.src1.buffer).size() - op.src1.offset) / 4;
        // One thread, the calling one: every load depends on the one before, and waking
        // the pool's other workers would only add their wake-up (milliseconds on a loaded
        // machine) to a chain that fits in L1. A node device has moved it onto its CPUs.
        const auto start = Clock::now();
        for (uint32_t p = 0; p < passes; ++p) {
            uint64_t j = 0;
            for (uint64_t step = 0; step < op.count; ++step) {
                if (j >= entries) fail(VRB_ERROR_INVALID_ARGUMENT, "chase index past the end of src1");
                j = a[j];
            }
            partial[0] = j;
            pass_fence();
        }
        answer.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        break;
    }
    case VRB_OP_TRANSFER: {
        // The host has no copy engine: its cores copy, the running device's, so a copy
        // between two nodes' memory measured from one node is done by that node's cores.
        // Both directions at once split the workers between them (one worker does both
        // in turn).
        auto *d1 = reinterpret_cast<char *>(dst);
        const auto *s1 = reinterpret_cast<const char *>(a);
        const bool both = op.src2.buffer && op.dst2.buffer;
        auto *d2 = both ? reinterpret_cast<char *>(host_buffer(op.dst2.buffer).bytes_at(op.dst2.offset)) : nullptr;
        const auto *s2 =
            both ? reinterpret_cast<const char *>(host_buffer(op.src2.buffer).bytes_at(op.src2.offset)) : nullptr;
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            if (!both || n == 1) {
                const Range r = split(op.count, w, n, 64);
                for (uint32_t p = 0; p < passes; ++p) {
                    std::memcpy(d1 + r.begin, s1 + r.begin, r.end - r.begin);
                    if (both) std::memcpy(d2 + r.begin, s2 + r.begin, r.end - r.begin);
                }
                return;
            }
            const unsigned half = n / 2;
            const bool second = w >= half;
            const Range r = split(op.count, second ? w - half : w, second ? n - half : half, 64);
            for (uint32_t p = 0; p < passes; ++p)
                std::memcpy((second ? d2 : d1) + r.begin, (second ? s2 : s1) + r.begin, r.end - r.begin);
        });
        break;
    }
    case VRB_OP_FILL:
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            if (op.pattern == VRB_PATTERN_RANDOM) {
                k.random(dst + r.begin, r.begin, *block, r.end - r.begin, streaming, passes);
                return;
            }
            for (uint32_t p = 0; p < passes; ++p)
                for (uint64_t i = r.begin; i < r.end; ++i)
                    dst[i] = vrb_pattern(op.pattern, i, op.seed);
        });
        break;
    case VRB_OP_CHECK: {
        std::optional<RandomBlock> check_block;
        if (op.pattern == VRB_PATTERN_RANDOM) check_block.emplace(op.seed);
        std::vector<Answer> local(pool.size());
        answer.seconds = pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            Answer mine;
            // The expected lanes are made a cache-sized chunk at a time (the random pattern by
            // the vector writer, not a hash per lane) and compared whole; only a chunk that
            // differs is walked lane by lane.
            constexpr uint64_t chunk = 2048;
            std::array<uint32_t, chunk> expected;
            for (uint32_t p = 0; p < passes; ++p) {
                mine = Answer{};
                for (uint64_t i = r.begin; i < r.end; i += chunk) {
                    const uint64_t m = std::min(chunk, r.end - i);
                    if (check_block)
                        k.random(expected.data(), i, *check_block, m, false, 1);
                    else
                        for (uint64_t j = 0; j < m; ++j)
                            expected[j] = vrb_pattern(op.pattern, i + j, op.seed);
                    if (std::memcmp(expected.data(), a + i, m * 4) == 0) continue;
                    for (uint64_t j = 0; j < m; ++j)
                        if (a[i + j] != expected[j] && mine.mismatches++ == 0) mine.first_mismatch = i + j;
                }
            }
            local[w] = mine;
        });
        for (const Answer &l : local) {
            answer.mismatches += l.mismatches;
            answer.first_mismatch = std::min(answer.first_mismatch, l.first_mismatch);
        }
        if (answer.mismatches == 0) answer.first_mismatch = 0;
        return answer;
    }
    default:
        fail(VRB_ERROR_UNSUPPORTED, "operation " + std::to_string(op.kind) + " is not offered by the host backend");
    }
    for (uint64_t p : partial)
        answer.checksum += p;
    answer.first_mismatch = 0;
    return answer;
}

// Buffers made by every device of the module: a new one may be mapped where a freed one was.
std::atomic<uint64_t> buffers_made{0};

// The pages of the buffers `op` uses.
std::vector<AddressRange> operand_pages(const vrb_operation &op)
{
    std::vector<AddressRange> ranges;
    for (const vrb_operand *operand : {&op.dst, &op.src1, &op.src2, &op.dst2}) {
        if (!operand->buffer) continue;
        const PageMapping &m = host_buffer(operand->buffer).mapping();
        const auto begin = reinterpret_cast<uintptr_t>(m.base());
        ranges.push_back({begin, begin + m.bytes()});
    }
    return ranges;
}

} // namespace

// ------------------------------------------------------------ the three classes

HostContext::HostContext(const vrb_host_table *host)
    : host_(host), numa_(discover_nodes()), pool_(std::make_unique<WorkerPool>()), node_pools_(numa_.devices.size())
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    describe_host(info, pool_->size(), numa_.summary);
    for (uint32_t i = 0; i < info.cache_count; ++i)
        last_level_cache_ = std::max(last_level_cache_, info.caches[i].bytes);
    log(VRB_LOG_INFO, "NUMA nodes: " + numa_.summary);
}

NumaLayout HostContext::discover_nodes() const
{
    try {
        return numa_layout();
    } catch (const plugin::Failure &failure) {
        log(VRB_LOG_ERROR, failure.what());
        throw;
    }
}

void HostContext::log(vrb_log_level level, const std::string &message) const
{
    if (host_ && VRB_FITS(*host_, log) && host_->log) host_->log(host_->user, level, message.c_str());
}

bool HostContext::cancelled() const
{
    return host_ && VRB_FITS(*host_, is_cancelled) && host_->is_cancelled && host_->is_cancelled(host_->user);
}

void HostContext::describe(uint32_t index, vrb_device_info &info)
{
    if (const NumaNode *n = node(index))
        describe_node(info, *n, numa_.nodes_with_memory);
    else
        describe_host(info, pool_->size(), numa_.summary);
}

std::unique_ptr<HostDevice> HostContext::open(uint32_t index)
{
    return std::make_unique<HostDevice>(*this, index);
}

WorkerPool &HostContext::pool_of(uint32_t index)
{
    const NumaNode *n = node(index);
    if (!n) return *pool_;
    std::unique_ptr<WorkerPool> &pool = node_pools_[index - 1];
    if (!pool) pool = std::make_unique<WorkerPool>(n->cpus);
    return *pool;
}

HostDevice::HostDevice(HostContext &ctx, uint32_t index) : ctx_(ctx), node_(ctx.node(index)), pool_(ctx.pool_of(index))
{
}

uint32_t HostDevice::peer(const HostDevice &other) const
{
    return node_ && other.node_ ? VRB_PEER_COPY | VRB_PEER_ACCESS : 0u;
}

void HostDevice::describe(uint32_t, vrb_memory_kind_info &info)
{
    plugin::copy_string(info.name, "pageable");
    info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_HOST_CACHED |
                 VRB_MEMORY_PAGEABLE | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY;
    info.heap_index = 0;
}

// The cores run every operation of the vocabulary at every width on the one kind.
bool HostDevice::supports(uint32_t, uint32_t, uint32_t)
{
    return true;
}

std::unique_ptr<HostBuffer> HostDevice::alloc(uint32_t, uint64_t bytes)
{
    // Linux overcommits: mmap would succeed and the OOM killer would end the run
    // later. Refuse what the OS says it cannot give now (on a node, what the node has:
    // its memory is bound there and cannot spill onto another node).
    const uint64_t available = node_ ? node_memory(node_->id).available_bytes : available_memory_bytes();
    if (available && bytes > available)
        fail(VRB_ERROR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes: the OS reports " +
                                          std::to_string(available) + " bytes available" +
                                          (node_ ? " on NUMA node " + std::to_string(node_->id) : std::string()));
    auto buffer = std::make_unique<HostBuffer>(bytes, *this, node_ ? node_->id : -1);
    const uint64_t mapped = (bytes + 4095) / 4096 * 4096;
    // First touch by the worker that will use each part places its pages near it (on a
    // node, in the node's memory, where the binding puts them whoever touches first).
    // One write per page is enough: the kernel zeroes the whole page on that fault.
    unsigned char *first = buffer->bytes_at(0);
    pool_.run([&](unsigned w, unsigned n) {
        const Range r = split(mapped, w, n, 4096);
        for (uint64_t at = r.begin; at < r.end; at += 4096)
            first[at] = 0;
    });
    return buffer;
}

void HostDevice::run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    const uint32_t passes = plugin::operation_passes(op);
    // A node's work runs on its CPUs, the part the calling thread does (CHASE) included.
    const ScopedAffinity on_node(node_ ? node_->cpus : std::vector<int>{});
    Answer answer;
    for (double &s : seconds) {
        if (ctx_.cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled by the host");
        answer = execute(pool_, ctx_.last_level_cache(), op, passes);
        s = answer.seconds;
    }
    out.timer = VRB_TIMER_HOST_MONOTONIC;
    out.checksum = answer.checksum;
    out.mismatches = answer.mismatches;
    out.first_mismatch = answer.first_mismatch;
    out.passes = passes;
    // After the timed runs: reading smaps walks page tables, which no run may pay for.
    out.page_bytes = pages_.of(operand_pages(op), buffers_made.load(std::memory_order_relaxed));
}

HostBuffer::HostBuffer(uint64_t bytes, const HostDevice &owner, int node)
    : bytes_(bytes), mapping_(bytes), owner_(&owner)
{
    buffers_made.fetch_add(1, std::memory_order_relaxed);
    madvise(mapping_.base(), mapping_.bytes(), MADV_HUGEPAGE); // fewer TLB misses; a hint only
    // Bound before the first touch: no page is ever placed anywhere else.
    if (node >= 0) bind_to_node(mapping_.base(), mapping_.bytes(), node);
}

void HostBuffer::upload(uint64_t offset, const void *src, uint64_t bytes)
{
    std::memcpy(bytes_at(offset), src, bytes);
}

void HostBuffer::download(uint64_t offset, void *dst, uint64_t bytes)
{
    std::memcpy(dst, bytes_at(offset), bytes);
}

// Host memory is shared by pointer: the importer maps the same pages. The whole mapping
// (whole pages) is handed out, since importers take page-aligned ranges only.
void HostBuffer::export_handle(vrb_external_handle &handle)
{
    handle.type = VRB_EXTERNAL_HOST_POINTER;
    handle.handle = static_cast<int64_t>(reinterpret_cast<uintptr_t>(mapping_.base()));
    handle.bytes = mapping_.bytes();
    handle.allocation_bytes = mapping_.bytes();
    handle.memory_type_index = UINT32_MAX;
    plugin::copy_string(handle.api, "host");
}

} // namespace vrb::host
