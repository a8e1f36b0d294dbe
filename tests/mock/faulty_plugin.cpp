// A small working backend ("faulty": one device, one memory kind, the stream
// operations on plain host memory) that fails in one way, named by the module's
// vrambench_mock_variant (mock_variant.hpp): this file is compiled once and linked once
// per fault, so the supervisor's every fault path is fed a real module in a real worker
// process.
//
//   none             works
//   crash_init       segmentation fault in init
//   abort_count      abort() while counting devices
//   crash_run        segmentation fault in the first run() of a COPY: bandwidth.stream's
//                    read and write have finished (counted by operation, not by call:
//                    how many calls a figure takes depends on how fast the runs are)
//   exit_run         exit(0) in the first run() of a COPY
//   hang_run         never returns from the first run() of a COPY
//   garbage_run      writes garbage to every file descriptor from 3 to 9, then goes on
//   prints_run       prints to stdout and stderr on every run(), and works
//   fork_init        init starts a helper that calls setsid() and forks again (a
//                    daemon), holding the worker's pipes; then works. The helper
//                    writes its pid to $FAULTY_HELPER_PID_FILE when that is set;
//                    with $FAULTY_HELPER_WATCH_MS, init then waits that long and
//                    fails if the helper was ended meanwhile (it must live as long
//                    as its worker, whatever the workers beside it do).
//   fork_crash_init  the same helper, then a segmentation fault in init
//   suspect          works, but declares a memory clock and bus width whose peak
//                    (0.002 GB/s) every figure is far above
//   wrong_lane       copy flips one bit of lane 3: a wrong answer for the kit to name
//   declines_dot     works, runs no DOT, and says so through the capability query
//                    (op_supported): the probes must skip DOT with the reason
//   overclaims       its capability query says every operation is supported, though
//                    run() does only the stream family: the kit must catch it
//   unseen_walks     says every stream operation was walked whole by 16 units and
//                    counts their walks, though it walked each set once: every figure
//                    16 times what moved, for the kit to catch
//
// Only declines_dot and overclaims have the capability query: the others' tables have
// no op_supported slot, as a module that never says what it declines.
#include "mock_variant.hpp"

#include <vrambench/plugin_table.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using vrb::plugin::fail;

enum class Fault {
    none,
    crash_init,
    abort_count,
    crash_run,
    exit_run,
    hang_run,
    garbage_run,
    prints_run,
    fork_init,
    fork_crash_init,
    suspect,
    wrong_lane,
    declines_dot,
    overclaims,
    unseen_walks,
};

const Fault fault = vrb::mock::variant_of_module<Fault>({
    {"none", Fault::none},
    {"crash_init", Fault::crash_init},
    {"abort_count", Fault::abort_count},
    {"crash_run", Fault::crash_run},
    {"exit_run", Fault::exit_run},
    {"hang_run", Fault::hang_run},
    {"garbage_run", Fault::garbage_run},
    {"prints_run", Fault::prints_run},
    {"fork_init", Fault::fork_init},
    {"fork_crash_init", Fault::fork_crash_init},
    {"suspect", Fault::suspect},
    {"wrong_lane", Fault::wrong_lane},
    {"declines_dot", Fault::declines_dot},
    {"overclaims", Fault::overclaims},
    {"unseen_walks", Fault::unseen_walks},
});

int run_calls = 0;

void crash()
{
    std::raise(SIGSEGV);
}

// A daemon as a driver might start one: its own session, its parent gone, every file
// descriptor it inherited (the worker's frame pipe among them) kept open, quiet on the
// terminal. init goes on once the helper has said its pid.
// Returns the helper's pid (0 when it could not start).
pid_t start_helper()
{
    int ready[2];
    if (::pipe(ready) != 0) return 0;
    const pid_t first = ::fork();
    if (first == 0) {
        ::setsid();
        if (::fork() == 0) {
            const int null = ::open("/dev/null", O_RDWR);
            for (int fd = 0; fd < 3; ++fd)
                ::dup2(null, fd);
            const pid_t self = ::getpid();
            if (const char *file = std::getenv("FAULTY_HELPER_PID_FILE")) {
                const std::string pid = std::to_string(self) + "\n";
                const int out = ::open(file, O_WRONLY | O_CREAT | O_APPEND, 0644);
                (void)!::write(out, pid.data(), pid.size());
                ::close(out);
            }
            (void)!::write(ready[1], &self, sizeof self);
            for (;;)
                ::pause();
        }
        ::_exit(0);
    }
    ::close(ready[1]);
    ::waitpid(first, nullptr, 0);
    pid_t helper = 0;
    if (::read(ready[0], &helper, sizeof helper) != sizeof helper) helper = 0;
    ::close(ready[0]);
    return helper;
}

// Running (or stopped): neither gone nor a zombie.
bool helper_alive(pid_t pid)
{
    std::FILE *stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!stat) return false;
    char line[512] = {};
    const bool read = std::fgets(line, sizeof line, stat) != nullptr;
    std::fclose(stat);
    const char *close = read ? std::strrchr(line, ')') : nullptr;
    return close && close[1] == ' ' && close[2] != 'Z' && close[2] != '\0';
}

void watch_helper(pid_t helper)
{
    const char *ms = std::getenv("FAULTY_HELPER_WATCH_MS");
    if (!ms || !helper) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
    if (!helper_alive(helper))
        throw std::runtime_error("the helper init started (pid " + std::to_string(helper) +
                                 ") was ended while init still ran");
}

void fault_in_run(uint32_t kind)
{
    ++run_calls;
    if (fault == Fault::prints_run) {
        std::printf("faulty plugin chatter on stdout %d\n", run_calls);
        std::fflush(stdout);
        std::fprintf(stderr, "faulty plugin chatter on stderr %d\n", run_calls);
    }
    static bool faulted = false;
    if (kind != VRB_OP_COPY || faulted) return;
    faulted = true;
    if (fault == Fault::crash_run) crash();
    if (fault == Fault::exit_run) std::exit(0);
    while (fault == Fault::hang_run)
        std::this_thread::sleep_for(std::chrono::seconds(1));
    if (fault == Fault::garbage_run)
        for (int fd = 3; fd < 10; ++fd)
            (void)!::write(fd, "garbage\n", 8);
}

class FaultyBuffer {
  public:
    explicit FaultyBuffer(uint64_t bytes) : lanes_((bytes + 3) / 4), bytes_(bytes) {}

    uint64_t size() const { return bytes_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(at(offset), src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, at(offset), bytes); }
    uint32_t *lanes(uint64_t offset) { return lanes_.data() + offset / 4; }

  private:
    char *at(uint64_t offset) { return reinterpret_cast<char *>(lanes_.data()) + offset; }
    std::vector<uint32_t> lanes_;
    uint64_t bytes_;
};

uint32_t *lanes_of(const vrb_operand &operand)
{
    return operand.buffer ? reinterpret_cast<FaultyBuffer *>(operand.buffer)->lanes(operand.offset) : nullptr;
}

class FaultyDevice {
  public:
    uint32_t memory_kind_count() { return 1; }

    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        vrb::plugin::copy_string(info.name, "ram");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_VISIBLE;
    }

    std::unique_ptr<FaultyBuffer> alloc(uint32_t, uint64_t bytes) { return std::make_unique<FaultyBuffer>(bytes); }

    // Asked only of declines_dot and overclaims (faulty_table() clears the slot of the
    // others). declines_dot's answer is what run() does, less DOT: the probes must skip
    // it with the reason. overclaims' is a lie: run() does only the stream family and FILL.
    bool supports(uint32_t op_kind, uint32_t, uint32_t)
    {
        if (fault == Fault::overclaims) return true;
        return (op_kind >= VRB_OP_READ && op_kind < VRB_OP_DOT) || op_kind == VRB_OP_FILL;
    }

    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
    {
        fault_in_run(op.kind);
        const bool stream = op.kind >= VRB_OP_READ && op.kind <= VRB_OP_DOT;
        if (!stream && op.kind != VRB_OP_FILL) fail(VRB_ERROR_UNSUPPORTED, "faulty runs only the stream operations");
        if (fault == Fault::declines_dot && op.kind == VRB_OP_DOT) fail(VRB_ERROR_UNSUPPORTED, "faulty runs no dot");
        const uint64_t lanes = op.count * (op.element_bytes / 4);
        uint32_t *d = lanes_of(op.dst);
        const uint32_t *a = lanes_of(op.src1);
        const uint32_t *b = lanes_of(op.src2);
        for (double &s : seconds) {
            const auto start = std::chrono::steady_clock::now();
            uint64_t sum = 0;
            for (uint64_t i = 0; i < lanes; ++i) {
                switch (op.kind) {
                case VRB_OP_FILL: d[i] = vrb_pattern(op.pattern, i, op.seed); break;
                case VRB_OP_WRITE: d[i] = vrb_pattern_random(i, op.seed); break;
                case VRB_OP_READ: sum += a[i]; break;
                case VRB_OP_COPY: d[i] = fault == Fault::wrong_lane && i == 3 ? a[i] ^ 1u : a[i]; break;
                case VRB_OP_SCALE: d[i] = op.scalar * a[i]; break;
                case VRB_OP_ADD: d[i] = a[i] + b[i]; break;
                case VRB_OP_TRIAD: d[i] = a[i] + op.scalar * b[i]; break;
                default: sum += static_cast<uint32_t>(a[i] * b[i]); break; // DOT
                }
            }
            s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() + 1e-9;
            out.checksum = sum;
        }
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        if (fault == Fault::unseen_walks && stream) {
            out.flags |= VRB_OUTPUT_WHOLE_SET_PER_UNIT;
            out.passes = vrb::plugin::operation_passes(op) * 16;
        }
    }
};

class FaultyContext {
  public:
    explicit FaultyContext(const vrb_host_table *)
    {
        if (fault == Fault::fork_init || fault == Fault::fork_crash_init) watch_helper(start_helper());
        if (fault == Fault::crash_init || fault == Fault::fork_crash_init) crash();
    }

    uint32_t device_count()
    {
        if (fault == Fault::abort_count) std::abort();
        return 1;
    }

    void describe(uint32_t, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "faulty device");
        vrb::plugin::copy_string(info.api, "faulty");
        info.type = VRB_DEVICE_OTHER;
        if (fault == Fault::suspect) {
            info.known |= VRB_KNOWN_MEMORY_CLOCK | VRB_KNOWN_BUS_WIDTH;
            info.memory_clock_khz = 1000; // 1 MHz, 8 bits: 2 x 1e6 x 8 / 8 B/s = 0.002 GB/s
            info.memory_bus_width_bits = 8;
        }
    }

    std::unique_ptr<FaultyDevice> open(uint32_t) { return std::make_unique<FaultyDevice>(); }
};

vrb_plugin_table faulty_table()
{
    vrb_plugin_table table = vrb::plugin::make_table<FaultyContext, FaultyDevice, FaultyBuffer>(
        {"faulty", "a backend that fails on purpose", "0"});
    if (fault != Fault::declines_dot && fault != Fault::overclaims) table.op_supported = nullptr;
    return table;
}

const vrb_plugin_table table = faulty_table();

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
