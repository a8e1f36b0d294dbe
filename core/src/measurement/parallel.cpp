#include <vrambench/core/measurement/parallel.hpp>

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace vrb {

void parallel_for(uint64_t n, const std::function<void(uint64_t, uint64_t)> &body)
{
    // Below this many items a thread costs more than it saves.
    constexpr uint64_t min_per_thread = 1 << 16;
    const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
    const uint64_t threads = std::clamp<uint64_t>(n / min_per_thread, 1, cores);
    if (threads == 1) {
        body(0, n);
        return;
    }
    std::exception_ptr failure;
    std::mutex lock;
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (uint64_t t = 0; t < threads; ++t) {
        const uint64_t begin = n * t / threads, end = n * (t + 1) / threads;
        pool.emplace_back([&, begin, end] {
            try {
                body(begin, end);
            } catch (...) {
                const std::lock_guard guard(lock);
                if (!failure) failure = std::current_exception();
            }
        });
    }
    for (auto &t : pool)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

} // namespace vrb
