// The host backend: the CPU's cores run the vocabulary over the process's own memory.
#include "host_description.hpp"
#include "host_kernels.hpp"
#include "worker_pool.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/pattern.h>
#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <vector>

using vrb::plugin::fail;
using vrb::plugin::guard;

struct vrb_context {
    const vrb_host_table *host = nullptr;
    std::unique_ptr<vrb::host::WorkerPool> pool;
    uint64_t last_level_cache = 0;
    // Test-only fault injection, off unless its environment variable is set at init:
    // VRAMBENCH_TEST_FAIL_ALLOC_AFTER=N refuses every allocation after the first N as
    // out of memory; VRAMBENCH_TEST_FLIP_BIT=OFFSET flips the lowest bit of the byte at
    // OFFSET of a buffer after every FILL that covers it. Never set them in a real run.
    uint64_t allocations = 0;
    std::optional<uint64_t> fail_alloc_after;
    std::optional<uint64_t> flip_byte;
};

struct vrb_device {
    vrb_context *ctx;
};

// Anonymous memory, first touched by the workers that will use it.
struct vrb_buffer {
    vrb_device *device = nullptr;
    void *base = nullptr;
    uint64_t bytes = 0;
    uint64_t mapped = 0;

    ~vrb_buffer()
    {
        if (base) munmap(base, mapped);
    }
    uint32_t *lanes(uint64_t offset) const { return reinterpret_cast<uint32_t *>(static_cast<char *>(base) + offset); }
};

namespace vrb::host {
namespace {

constexpr uint64_t cache_line_lanes = 16;

using Clock = std::chrono::steady_clock;

bool cancelled(const vrb_context *ctx)
{
    return ctx->host && ctx->host->struct_size >= offsetof(vrb_host_table, is_cancelled) + sizeof(void *) &&
           ctx->host->is_cancelled && ctx->host->is_cancelled(ctx->host->user);
}

// Runs one repetition of an operation; returns the checksum and mismatch answer.
struct Answer {
    uint64_t checksum = 0, mismatches = 0, first_mismatch = UINT64_MAX;
};

// The passes an operation asks for; a core that predates the field asks for one.
uint32_t passes_of(const vrb_operation &op)
{
    return plugin::operation_passes(op);
}

// Keeps the compiler from proving a pass redundant and doing it once.
inline void pass_fence()
{
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

// Each worker repeats its own share `passes` times with no barrier in between: the
// shares are disjoint, and one dispatch is paid per run, not per pass.
Answer execute(vrb_context *ctx, const vrb_operation &op, uint32_t passes)
{
    WorkerPool &pool = *ctx->pool;
    const Kernels &k = kernels();
    const uint64_t lanes_per_element = op.element_bytes / 4;
    auto *dst = op.dst.buffer ? op.dst.buffer->lanes(op.dst.offset) : nullptr;
    const auto *a = op.src1.buffer ? op.src1.buffer->lanes(op.src1.offset) : nullptr;
    const auto *b = op.src2.buffer ? op.src2.buffer->lanes(op.src2.offset) : nullptr;
    const uint64_t lanes = op.count * lanes_per_element;
    // Non-temporal stores pay off once the destination no longer fits in the caches.
    const bool streaming = lanes * 4 >= ctx->last_level_cache / 2 && lanes * 4 >= (8u << 20);
    std::vector<uint64_t> partial(pool.size(), 0);
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
        pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            const uint64_t m = r.end - r.begin;
            for (uint32_t p = 0; p < passes; ++p) {
                switch (op.kind) {
                case VRB_OP_READ: partial[w] = k.sum(a + r.begin, m); break;
                case VRB_OP_DOT: partial[w] = k.dot(a + r.begin, b + r.begin, m); break;
                case VRB_OP_WRITE: k.random(dst + r.begin, r.begin, *block, m, streaming); break;
                case VRB_OP_COPY: k.copy(dst + r.begin, a + r.begin, m, streaming); break;
                case VRB_OP_SCALE: k.scale(dst + r.begin, a + r.begin, op.scalar, m, streaming); break;
                case VRB_OP_ADD: k.add(dst + r.begin, a + r.begin, b + r.begin, m, streaming); break;
                default: k.triad(dst + r.begin, a + r.begin, b + r.begin, op.scalar, m, streaming); break;
                }
            }
        });
        break;
    case VRB_OP_STRIDED_READ:
        pool.run([&](unsigned w, unsigned n) {
            const Range r = split(op.count, w, n, 1);
            for (uint32_t p = 0; p < passes; ++p) {
                uint64_t s = 0;
                for (uint64_t e = r.begin; e < r.end; ++e)
                    for (uint64_t l = 0; l < lanes_per_element; ++l)
                        s += a[e * op.stride * lanes_per_element + l];
                partial[w] = s;
                pass_fence();
            }
        });
        break;
    case VRB_OP_GATHER: {
        const uint64_t elements = (op.src1.buffer->bytes - op.src1.offset) / op.element_bytes;
        std::atomic<bool> out_of_range{false};
        pool.run([&](unsigned w, unsigned n) {
            const Range r = split(op.count, w, n, 1);
            for (uint32_t p = 0; p < passes; ++p) {
                uint64_t s = 0;
                for (uint64_t i = r.begin; i < r.end; ++i) {
                    const uint64_t e = b[i];
                    if (e >= elements) {
                        out_of_range = true;
                        return;
                    }
                    for (uint64_t l = 0; l < lanes_per_element; ++l)
                        s += a[e * lanes_per_element + l];
                }
                partial[w] = s;
                pass_fence();
            }
        });
        if (out_of_range) fail(VRB_ERROR_INVALID_ARGUMENT, "gather index past the end of src1");
        break;
    }
    case VRB_OP_CHASE: {
        const uint64_t entries = (op.src1.buffer->bytes - op.src1.offset) / 4;
        bool out_of_range = false;
        pool.run([&](unsigned w, unsigned) {
            if (w != 0) return; // one thread: every load depends on the one before
            for (uint32_t p = 0; p < passes; ++p) {
                uint64_t j = 0;
                for (uint64_t step = 0; step < op.count; ++step) {
                    if (j >= entries) {
                        out_of_range = true;
                        return;
                    }
                    j = a[j];
                }
                partial[0] = j;
                pass_fence();
            }
        });
        if (out_of_range) fail(VRB_ERROR_INVALID_ARGUMENT, "chase index past the end of src1");
        break;
    }
    case VRB_OP_TRANSFER: {
        // The host has no copy engine: its cores copy. Both directions at once split the
        // workers between them (one worker does both in turn).
        auto *d1 = reinterpret_cast<char *>(dst);
        const auto *s1 = reinterpret_cast<const char *>(a);
        const bool both = op.src2.buffer && op.dst2.buffer;
        auto *d2 = both ? reinterpret_cast<char *>(op.dst2.buffer->lanes(op.dst2.offset)) : nullptr;
        const auto *s2 = both ? reinterpret_cast<const char *>(op.src2.buffer->lanes(op.src2.offset)) : nullptr;
        pool.run([&](unsigned w, unsigned n) {
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
        pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            for (uint32_t p = 0; p < passes; ++p) {
                if (op.pattern == VRB_PATTERN_RANDOM) {
                    k.random(dst + r.begin, r.begin, *block, r.end - r.begin, streaming);
                    continue;
                }
                for (uint64_t i = r.begin; i < r.end; ++i)
                    dst[i] = vrb_pattern(op.pattern, i, op.seed);
            }
        });
        break;
    case VRB_OP_CHECK: {
        std::optional<RandomBlock> check_block;
        if (op.pattern == VRB_PATTERN_RANDOM) check_block.emplace(op.seed);
        std::vector<Answer> local(pool.size());
        pool.run([&](unsigned w, unsigned n) {
            const Range r = split(lanes, w, n, cache_line_lanes);
            Answer &mine = local[w];
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
                        k.random(expected.data(), i, *check_block, m, false);
                    else
                        for (uint64_t j = 0; j < m; ++j)
                            expected[j] = vrb_pattern(op.pattern, i + j, op.seed);
                    if (std::memcmp(expected.data(), a + i, m * 4) == 0) continue;
                    for (uint64_t j = 0; j < m; ++j)
                        if (a[i + j] != expected[j] && mine.mismatches++ == 0) mine.first_mismatch = i + j;
                }
            }
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

// A test-only hook's number; nothing when the variable is unset, and a refusal to start
// when it is set but not a number, so a typo cannot silently disable a fault test.
std::optional<uint64_t> test_hook(const char *name)
{
    const char *text = std::getenv(name);
    if (!text || !*text) return std::nullopt;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || *text == '-')
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + "=" + text + " is not a byte count or number");
    return value;
}

// After a FILL: the fault VRAMBENCH_TEST_FLIP_BIT plays, when the filled range covers it.
void flip_test_bit(const vrb_context *ctx, const vrb_operation &op)
{
    if (!ctx->flip_byte || op.kind != VRB_OP_FILL || !op.dst.buffer) return;
    const uint64_t at = *ctx->flip_byte;
    const uint64_t end = op.dst.offset + op.count * op.element_bytes;
    if (at < op.dst.offset || at >= end || at >= op.dst.buffer->bytes) return;
    static_cast<unsigned char *>(op.dst.buffer->base)[at] ^= 1u;
}

// ------------------------------------------------------------ ABI entry points

const char *last_error()
{
    return plugin::last_error();
}

vrb_status init(const vrb_host_table *host, vrb_context **out)
{
    return guard([&] {
        auto ctx = std::make_unique<vrb_context>();
        ctx->host = host;
        ctx->pool = std::make_unique<WorkerPool>();
        ctx->fail_alloc_after = test_hook("VRAMBENCH_TEST_FAIL_ALLOC_AFTER");
        ctx->flip_byte = test_hook("VRAMBENCH_TEST_FLIP_BIT");
        vrb_device_info info{};
        info.struct_size = sizeof info;
        describe_host(info, ctx->pool->size());
        for (uint32_t i = 0; i < info.cache_count; ++i)
            ctx->last_level_cache = std::max(ctx->last_level_cache, info.caches[i].bytes);
        *out = ctx.release();
    });
}

void shutdown(vrb_context *ctx)
{
    delete ctx;
}

vrb_status device_count(vrb_context *, uint32_t *out)
{
    *out = 1;
    return VRB_OK;
}

vrb_status device_describe(vrb_context *ctx, uint32_t index, vrb_device_info *out)
{
    return guard([&] {
        if (index != 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the host backend has one device, host:0");
        vrb_device_info info{};
        info.struct_size = sizeof info;
        describe_host(info, ctx->pool->size());
        // Copy only what the caller's struct has room for.
        const uint32_t size = std::min<uint32_t>(out->struct_size, sizeof info);
        std::memcpy(out, &info, size);
        out->struct_size = size;
    });
}

vrb_status device_open(vrb_context *ctx, uint32_t index, vrb_device **out)
{
    return guard([&] {
        if (index != 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the host backend has one device, host:0");
        *out = new vrb_device{ctx};
    });
}

void device_close(vrb_device *device)
{
    delete device;
}

vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
    *out = 1;
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t kind, vrb_memory_kind_info *out)
{
    return guard([&] {
        if (kind != 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the host backend has one memory kind, 0 (pageable)");
        vrb_memory_kind_info info{};
        info.struct_size = sizeof info;
        plugin::copy_string(info.name, "pageable");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT |
                     VRB_MEMORY_HOST_CACHED | VRB_MEMORY_PAGEABLE | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY;
        info.heap_index = 0;
        // An older host's struct may be smaller: fill what it has room for, nothing past it.
        const uint32_t size = std::min<uint32_t>(out->struct_size, sizeof info);
        std::memcpy(out, &info, size);
        out->struct_size = size;
    });
}

vrb_status buffer_alloc(vrb_device *device, uint32_t kind, uint64_t bytes, vrb_buffer **out)
{
    return guard([&] {
        if (kind != 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the host backend has one memory kind, 0 (pageable)");
        if (bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer needs at least one byte");
        vrb_context *ctx = device->ctx;
        if (ctx->fail_alloc_after && ctx->allocations >= *ctx->fail_alloc_after)
            fail(VRB_ERROR_OUT_OF_MEMORY, "allocation refused by VRAMBENCH_TEST_FAIL_ALLOC_AFTER=" +
                                              std::to_string(*ctx->fail_alloc_after) + " (a test-only fault)");
        // Linux overcommits: mmap would succeed and the OOM killer would end the run
        // later. Refuse what the OS says it cannot give now.
        const uint64_t available = available_memory_bytes();
        if (available && bytes > available)
            fail(VRB_ERROR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes: the OS reports " +
                                              std::to_string(available) + " bytes available");
        auto buffer = std::make_unique<vrb_buffer>();
        buffer->device = device;
        buffer->bytes = bytes;
        buffer->mapped = (bytes + 4095) / 4096 * 4096;
        void *base = mmap(nullptr, buffer->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) fail(VRB_ERROR_OUT_OF_MEMORY, "mmap of " + std::to_string(bytes) + " bytes failed");
        buffer->base = base;
        ++ctx->allocations;
        madvise(base, buffer->mapped, MADV_HUGEPAGE); // fewer TLB misses; a hint only
        // First touch by the worker that will use each part places its pages near it.
        char *bytes_base = static_cast<char *>(base);
        const uint64_t mapped = buffer->mapped;
        // One write per page is enough: the kernel zeroes the whole page on that fault.
        device->ctx->pool->run([&](unsigned w, unsigned n) {
            const Range r = split(mapped, w, n, 4096);
            for (uint64_t at = r.begin; at < r.end; at += 4096)
                bytes_base[at] = 0;
        });
        *out = buffer.release();
    });
}

void buffer_free(vrb_buffer *buffer)
{
    delete buffer;
}

vrb_status buffer_upload(vrb_buffer *buffer, uint64_t offset, const void *src, uint64_t bytes)
{
    return guard([&] {
        if (offset > buffer->bytes || bytes > buffer->bytes - offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, "upload past the end of the buffer");
        std::memcpy(static_cast<char *>(buffer->base) + offset, src, bytes);
    });
}

vrb_status buffer_download(vrb_buffer *buffer, uint64_t offset, void *dst, uint64_t bytes)
{
    return guard([&] {
        if (offset > buffer->bytes || bytes > buffer->bytes - offset)
            fail(VRB_ERROR_INVALID_ARGUMENT, "download past the end of the buffer");
        std::memcpy(dst, static_cast<const char *>(buffer->base) + offset, bytes);
    });
}

vrb_status run(vrb_device *device, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    return guard([&] {
        if (!op || !seconds || !out) fail(VRB_ERROR_INVALID_ARGUMENT, "run needs an operation, seconds and output");
        plugin::check_operation(*op, [](vrb_buffer *b) { return b->bytes; });
        if (repetitions == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "repetitions must be at least 1");
        const uint32_t passes = passes_of(*op);
        Answer answer;
        for (uint32_t r = 0; r < repetitions; ++r) {
            if (cancelled(device->ctx)) fail(VRB_ERROR_CANCELLED, "cancelled by the host");
            const auto start = Clock::now();
            answer = execute(device->ctx, *op, passes);
            const auto stop = Clock::now();
            seconds[r] = std::chrono::duration<double>(stop - start).count();
            if (!(seconds[r] > 0)) fail(VRB_ERROR_TIMER, "the monotonic clock did not advance over a run");
        }
        flip_test_bit(device->ctx, *op);
        out->timer = VRB_TIMER_HOST_MONOTONIC;
        out->checksum = answer.checksum;
        out->mismatches = answer.mismatches;
        out->first_mismatch = answer.first_mismatch;
        if (VRB_FITS(*out, passes)) out->passes = passes;
    });
}

// Host memory is shared by pointer: the importer maps the same pages. The whole mapping
// (whole pages) is handed out, since importers take page-aligned ranges only.
vrb_status buffer_export(vrb_buffer *buffer, vrb_external_handle *out)
{
    return guard([&] {
        if (!buffer || !out) fail(VRB_ERROR_INVALID_ARGUMENT, "buffer_export needs a buffer and a handle");
        if (!plugin::handle_has_v12_fields(*out))
            fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle is too small for ABI 1.2's fields");
        vrb_external_handle h{};
        h.struct_size = sizeof h;
        h.type = VRB_EXTERNAL_HOST_POINTER;
        h.handle = static_cast<int64_t>(reinterpret_cast<uintptr_t>(buffer->base));
        h.bytes = buffer->mapped;
        h.allocation_bytes = buffer->mapped;
        h.memory_type_index = UINT32_MAX;
        plugin::copy_string(h.api, "host");
        const uint32_t size = out->struct_size;
        std::memcpy(out, &h, std::min<std::size_t>(size, sizeof h));
        out->struct_size = size;
    });
}

const vrb_plugin_table table = {
    sizeof(vrb_plugin_table),
    VRB_ABI_VERSION,
    "host",
    "the host CPU and its RAM, the reference for every GPU backend",
    "1.0",
    last_error,
    init,
    shutdown,
    device_count,
    device_describe,
    device_open,
    device_close,
    memory_kind_count,
    memory_kind_describe,
    buffer_alloc,
    buffer_free,
    buffer_upload,
    buffer_download,
    run,
    buffer_export,
    nullptr, // buffer_import: host memory is imported by the GPU APIs, not the other way
    nullptr, // buffer_alloc_exportable: every host buffer is exportable by pointer
};

} // namespace
} // namespace vrb::host

VRB_DEFINE_PLUGIN_ENTRY(vrb::host::table)
