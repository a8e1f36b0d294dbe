// Stream COPY and TRIAD bandwidth of a backend module, and of a plain two-thread C++
// loop for comparison. Not a test: scripts/bench-vulkan-lavapipe runs it.
//
//   vulkan_stream_bench MODULE.so [MiB] [repetitions]   a module's COPY and TRIAD
//   vulkan_stream_bench --loop [MiB] [repetitions]      the C++ loop on 2 threads
//
// Bytes counted: COPY 2 x count x element_bytes, TRIAD 3 x. GB/s = 1e9 B/s, from the
// median repetition and from the best one (the machine may be shared).
#include <vrambench/operation.hpp>
#include <vrambench/plugin.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Times {
    double median, best;
};

Times summary(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front()};
}

void print(const std::string &who, const char *op, double bytes, Times t)
{
    std::printf("%-48s %-5s %7.2f GB/s median %7.2f GB/s best\n", who.c_str(), op, bytes / t.median / 1e9,
                bytes / t.best / 1e9);
}

int fail(const std::string &what)
{
    std::fprintf(stderr, "vulkan_stream_bench: %s\n", what.c_str());
    return 1;
}

int run_loop(uint64_t bytes, int repetitions)
{
    const std::size_t n = bytes / 4;
    std::vector<uint32_t> a(n, 1), b(n, 2), c(n, 3);
    const uint32_t scalar = 3;
    auto timed = [&](auto body) {
        std::vector<double> seconds;
        for (int r = 0; r < repetitions; ++r) {
            const auto start = std::chrono::steady_clock::now();
            std::thread threads[2];
            for (int t = 0; t < 2; ++t)
                threads[t] = std::thread(body, n * t / 2, n * (t + 1) / 2);
            for (auto &t : threads)
                t.join();
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return summary(seconds);
    };
    const Times copy = timed([&](std::size_t lo, std::size_t hi) { std::memcpy(&c[lo], &a[lo], (hi - lo) * 4); });
    const Times triad = timed([&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i)
            c[i] = a[i] + scalar * b[i];
    });
    print("C++ loop, 2 threads", "copy", 2.0 * bytes, copy);
    print("C++ loop, 2 threads", "triad", 3.0 * bytes, triad);
    return 0;
}

int run_module(const char *path, uint64_t bytes, uint32_t repetitions)
{
    void *module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!module) return fail(dlerror());
    auto entry = reinterpret_cast<vrb_plugin_entry_fn>(dlsym(module, VRB_ENTRY_SYMBOL));
    if (!entry) return fail("no entry symbol");
    vrb_negotiation negotiation{};
    negotiation.struct_size = sizeof negotiation;
    negotiation.host_version = VRB_ABI_VERSION;
    if (entry(&negotiation) != VRB_OK) return fail(negotiation.message);
    const vrb_plugin_table &t = *negotiation.table;
    auto check = [&](vrb_status s, const char *what) {
        if (s != VRB_OK) std::fprintf(stderr, "%s: %s\n", what, t.last_error());
        return s == VRB_OK;
    };
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    vrb_context *context = nullptr;
    vrb_device *device = nullptr;
    if (!check(t.init(&host, &context), "init")) return 1;
    if (!check(t.device_open(context, 0, &device), "device_open")) return 1;
    vrb_device_info info{};
    info.struct_size = sizeof info;
    t.device_describe(context, 0, &info);
    std::vector<vrb_buffer *> buffers(3);
    for (auto &b : buffers)
        if (!check(t.buffer_alloc(device, 0, bytes, &b), "buffer_alloc")) return 1;
    const uint32_t e = 16;
    vrb_operation op = vrb::make_operation(VRB_OP_FILL, e, bytes / e);
    op.scalar = 3;
    op.pattern = 4;
    std::vector<double> seconds(repetitions);
    vrb_op_output out{};
    out.struct_size = sizeof out;
    for (vrb_buffer *b : buffers) { // touch every page before timing
        op.dst = {b, 0};
        if (!check(t.run(device, &op, 1, seconds.data(), &out), "fill")) return 1;
    }
    op.dst = {buffers[0], 0};
    op.src1 = {buffers[1], 0};
    op.kind = VRB_OP_COPY;
    if (!check(t.run(device, &op, repetitions, seconds.data(), &out), "copy")) return 1;
    const Times copy = summary(seconds);
    op.src2 = {buffers[2], 0};
    op.kind = VRB_OP_TRIAD;
    if (!check(t.run(device, &op, repetitions, seconds.data(), &out), "triad")) return 1;
    const Times triad = summary(seconds);
    const std::string who = std::string(t.name) + " backend, " + info.name;
    print(who.substr(0, 48), "copy", 2.0 * bytes, copy);
    print(who.substr(0, 48), "triad", 3.0 * bytes, triad);
    for (vrb_buffer *b : buffers)
        t.buffer_free(b);
    t.device_close(device);
    t.shutdown(context);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) return fail("usage: vulkan_stream_bench MODULE.so|--loop [MiB] [repetitions]");
    const uint64_t bytes = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256) << 20;
    const int repetitions = argc > 3 ? std::atoi(argv[3]) : 10;
    if (std::string(argv[1]) == "--loop") return run_loop(bytes, repetitions);
    return run_module(argv[1], bytes, static_cast<uint32_t>(repetitions));
}
