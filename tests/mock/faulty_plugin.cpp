// A small working backend ("faulty": one device, one memory kind, the stream
// operations on plain host memory) that fails in one way chosen at build time, so the
// supervisor's every fault path is fed a real module in a real worker process.
//
//   FAULT_NONE          works
//   FAULT_CRASH_INIT    segmentation fault in init
//   FAULT_ABORT_COUNT   abort() while counting devices
//   FAULT_CRASH_RUN     segmentation fault in the FAULT_AT-th call to run()
//   FAULT_EXIT_RUN      exit(0) in the FAULT_AT-th call to run()
//   FAULT_HANG_RUN      never returns from the FAULT_AT-th call to run()
//   FAULT_GARBAGE_RUN   writes garbage to every file descriptor from 3 to 9, then goes on
//   FAULT_PRINTS_RUN    prints to stdout and stderr on every run(), and works
//   FAULT_FORK_INIT     init starts a helper that calls setsid() and forks again (a
//                       daemon), holding the worker's pipes; then works. The helper
//                       writes its pid to $FAULTY_HELPER_PID_FILE when that is set.
//   FAULT_FORK_CRASH_INIT  the same helper, then a segmentation fault in init
//   FAULT_SUSPECT       works, but declares a memory clock and bus width whose peak
//                       (0.002 GB/s) every figure is far above
//   FAULT_WRONG_LANE    copy flips one bit of lane 3: a wrong answer for the kit to name
//   FAULT_DECLINES_DOT  works, runs no DOT, and says so through the capability query
//                       (op_supported): the probes must skip DOT with the reason
//   FAULT_OVERCLAIMS    its capability query says every operation is supported, though
//                       run() does only the stream family: the kit must catch it
#include <vrambench/plugin_support.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef FAULT_AT
#define FAULT_AT 8
#endif

using vrb::plugin::fail;
using vrb::plugin::guard;

struct vrb_context {
    int unused;
};
struct vrb_device {
    int unused;
};
struct vrb_buffer {
    std::vector<uint32_t> lanes;
    uint64_t bytes;
};

namespace {

vrb_context the_context{};
vrb_device the_device{};
int run_calls = 0;

[[maybe_unused]] void crash()
{
    std::raise(SIGSEGV);
}

const char *last_error()
{
    return vrb::plugin::last_error();
}

#if defined(FAULT_FORK_INIT) || defined(FAULT_FORK_CRASH_INIT)
// A daemon as a driver might start one: its own session, its parent gone, every file
// descriptor it inherited (the worker's frame pipe among them) kept open, quiet on the
// terminal. init goes on once the helper has said its pid.
void start_helper()
{
    int ready[2];
    if (::pipe(ready) != 0) return;
    const pid_t first = ::fork();
    if (first == 0) {
        ::setsid();
        if (::fork() == 0) {
            const int null = ::open("/dev/null", O_RDWR);
            for (int fd = 0; fd < 3; ++fd)
                ::dup2(null, fd);
            if (const char *file = std::getenv("FAULTY_HELPER_PID_FILE")) {
                const std::string pid = std::to_string(::getpid()) + "\n";
                const int out = ::open(file, O_WRONLY | O_CREAT | O_APPEND, 0644);
                (void)!::write(out, pid.data(), pid.size());
                ::close(out);
            }
            (void)!::write(ready[1], "x", 1);
            for (;;)
                ::pause();
        }
        ::_exit(0);
    }
    ::close(ready[1]);
    ::waitpid(first, nullptr, 0);
    char c;
    (void)!::read(ready[0], &c, 1);
    ::close(ready[0]);
}
#endif

vrb_status init(const vrb_host_table *, vrb_context **out)
{
#if defined(FAULT_FORK_INIT) || defined(FAULT_FORK_CRASH_INIT)
    start_helper();
#endif
#if defined(FAULT_CRASH_INIT) || defined(FAULT_FORK_CRASH_INIT)
    crash();
#endif
    *out = &the_context;
    return VRB_OK;
}

void shutdown(vrb_context *) {}

vrb_status device_count(vrb_context *, uint32_t *out)
{
#ifdef FAULT_ABORT_COUNT
    std::abort();
#endif
    *out = 1;
    return VRB_OK;
}

vrb_status device_describe(vrb_context *, uint32_t index, vrb_device_info *out)
{
    return guard([&] {
        if (index != 0) fail(VRB_ERROR_INVALID_ARGUMENT, "one device");
        vrb::plugin::copy_string(out->name, "faulty device");
        vrb::plugin::copy_string(out->api, "faulty");
        out->type = VRB_DEVICE_OTHER;
#if defined(FAULT_SUSPECT)
        out->known |= VRB_KNOWN_MEMORY_CLOCK | VRB_KNOWN_BUS_WIDTH;
        out->memory_clock_khz = 1000; // 1 MHz, 8 bits: 2 x 1e6 x 8 / 8 B/s = 0.002 GB/s
        out->memory_bus_width_bits = 8;
#endif
    });
}

vrb_status device_open(vrb_context *, uint32_t, vrb_device **out)
{
    *out = &the_device;
    return VRB_OK;
}

void device_close(vrb_device *) {}

vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
    *out = 1;
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t, vrb_memory_kind_info *out)
{
    vrb::plugin::copy_string(out->name, "ram");
    out->flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_VISIBLE;
    return VRB_OK;
}

vrb_status buffer_alloc(vrb_device *, uint32_t, uint64_t bytes, vrb_buffer **out)
{
    return guard([&] {
        auto *b = new vrb_buffer{std::vector<uint32_t>((bytes + 3) / 4), bytes};
        *out = b;
    });
}

void buffer_free(vrb_buffer *b)
{
    delete b;
}

vrb_status buffer_upload(vrb_buffer *b, uint64_t offset, const void *src, uint64_t bytes)
{
    std::memcpy(reinterpret_cast<char *>(b->lanes.data()) + offset, src, bytes);
    return VRB_OK;
}

vrb_status buffer_download(vrb_buffer *b, uint64_t offset, void *dst, uint64_t bytes)
{
    std::memcpy(dst, reinterpret_cast<const char *>(b->lanes.data()) + offset, bytes);
    return VRB_OK;
}

void fault_in_run()
{
    ++run_calls;
#if defined(FAULT_PRINTS_RUN)
    std::printf("faulty plugin chatter on stdout %d\n", run_calls);
    std::fflush(stdout);
    std::fprintf(stderr, "faulty plugin chatter on stderr %d\n", run_calls);
#endif
    if (run_calls != FAULT_AT) return;
#if defined(FAULT_CRASH_RUN)
    crash();
#elif defined(FAULT_EXIT_RUN)
    std::exit(0);
#elif defined(FAULT_HANG_RUN)
    for (;;)
        std::this_thread::sleep_for(std::chrono::seconds(1));
#elif defined(FAULT_GARBAGE_RUN)
    for (int fd = 3; fd < 10; ++fd)
        (void)!::write(fd, "garbage\n", 8);
#endif
}

vrb_status run(vrb_device *, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    return guard([&] {
        fault_in_run();
        vrb::plugin::check_operation(*op, [](vrb_buffer *b) { return b->bytes; });
        const bool stream = op->kind >= VRB_OP_READ && op->kind <= VRB_OP_DOT;
        if (!stream && op->kind != VRB_OP_FILL) fail(VRB_ERROR_UNSUPPORTED, "faulty runs only the stream operations");
        const uint64_t lanes = op->count * (op->element_bytes / 4);
        uint32_t *d = op->dst.buffer ? op->dst.buffer->lanes.data() + op->dst.offset / 4 : nullptr;
        const uint32_t *a = op->src1.buffer ? op->src1.buffer->lanes.data() + op->src1.offset / 4 : nullptr;
        const uint32_t *b = op->src2.buffer ? op->src2.buffer->lanes.data() + op->src2.offset / 4 : nullptr;
        for (uint32_t r = 0; r < repetitions; ++r) {
            const auto start = std::chrono::steady_clock::now();
            uint64_t sum = 0;
            for (uint64_t i = 0; i < lanes; ++i) {
                switch (op->kind) {
                case VRB_OP_FILL: d[i] = vrb_pattern(op->pattern, i, op->seed); break;
                case VRB_OP_WRITE: d[i] = vrb_pattern_random(i, op->seed); break;
                case VRB_OP_READ: sum += a[i]; break;
#ifdef FAULT_WRONG_LANE
                case VRB_OP_COPY: d[i] = i == 3 ? a[i] ^ 1u : a[i]; break;
#else
                case VRB_OP_COPY: d[i] = a[i]; break;
#endif
                case VRB_OP_SCALE: d[i] = op->scalar * a[i]; break;
                case VRB_OP_ADD: d[i] = a[i] + b[i]; break;
                case VRB_OP_TRIAD: d[i] = a[i] + op->scalar * b[i]; break;
#ifdef FAULT_DECLINES_DOT
                case VRB_OP_DOT: fail(VRB_ERROR_UNSUPPORTED, "faulty runs no dot");
#else
                case VRB_OP_DOT: sum += static_cast<uint32_t>(a[i] * b[i]); break;
#endif
                default: fail(VRB_ERROR_UNSUPPORTED, "faulty runs only the stream operations");
                }
            }
            seconds[r] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() + 1e-9;
            out->checksum = sum;
        }
        out->timer = VRB_TIMER_HOST_MONOTONIC;
    });
}

#if defined(FAULT_DECLINES_DOT) || defined(FAULT_OVERCLAIMS)
// The capability query of ABI 1.3, by hand like the rest of this table, so that its
// answer can be a lie (OVERCLAIMS) that no make_table() module would tell by accident.
vrb_status op_supported(vrb_device *, uint32_t op_kind, uint32_t, uint32_t, uint32_t *out)
{
#if defined(FAULT_OVERCLAIMS)
    (void)op_kind;
    *out = 1;
#else
    *out = (op_kind >= VRB_OP_READ && op_kind < VRB_OP_DOT) || op_kind == VRB_OP_FILL ? 1 : 0;
#endif
    return VRB_OK;
}
#endif

const vrb_plugin_table table = {
    sizeof(vrb_plugin_table),
    VRB_ABI_VERSION,
    "faulty",
    "a backend that fails on purpose",
    "0",
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
    nullptr,
    nullptr,
    nullptr,
#if defined(FAULT_DECLINES_DOT) || defined(FAULT_OVERCLAIMS)
    op_supported,
#else
    nullptr,
#endif
};

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
