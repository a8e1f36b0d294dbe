#include "worker_pool.hpp"

#include "cpu_affinity.hpp"

#include <algorithm>

namespace vrb::host {

WorkerPool::WorkerPool() : WorkerPool(allowed_cpus()) {}

WorkerPool::WorkerPool(const std::vector<int> &cpus)
{
    // Sized before any worker starts; a worker writes only its own entry.
    finished_.resize(std::max<std::size_t>(cpus.size(), 1));
    if (cpus.empty()) {
        threads_.emplace_back(&WorkerPool::loop, this, 0u, -1); // unknown affinity: one unpinned worker
        return;
    }
    threads_.reserve(cpus.size());
    for (unsigned w = 0; w < cpus.size(); ++w)
        threads_.emplace_back(&WorkerPool::loop, this, w, cpus[w]);
}

WorkerPool::~WorkerPool()
{
    stop_.store(true);
    generation_.fetch_add(1);
    generation_.notify_all();
    for (auto &t : threads_)
        t.join();
}

double WorkerPool::run(const std::function<void(unsigned, unsigned)> &task)
{
    task_ = &task;
    failed_.store(false);
    failure_ = nullptr;
    pending_.store(size());
    arrived_.store(0);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    // Spin first: a measured run ends within microseconds of its last worker.
    for (unsigned spins = 0; pending_.load(std::memory_order_acquire) != 0; ++spins) {
        if (spins > 1000) {
            unsigned left = pending_.load(std::memory_order_acquire);
            if (left != 0) pending_.wait(left, std::memory_order_acquire);
        }
    }
    task_ = nullptr;
    if (failed_.load()) std::rethrow_exception(failure_);
    const auto last = *std::max_element(finished_.begin(), finished_.end());
    return std::chrono::duration<double>(last - started_).count();
}

void WorkerPool::loop(unsigned worker, int cpu)
{
    if (cpu >= 0) pin_calling_thread({cpu});
    uint64_t seen = 0;
    for (;;) {
        uint64_t now = generation_.load(std::memory_order_acquire);
        for (unsigned spins = 0; now == seen; ++spins) {
            if (spins > 2000) generation_.wait(now == seen ? seen : now, std::memory_order_acquire);
            now = generation_.load(std::memory_order_acquire);
        }
        seen = now;
        if (stop_.load()) return;
        // The last worker to wake starts the clock and lets the others go; they spin, as
        // they wait at most one sibling's wake-up.
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size()) {
            started_ = std::chrono::steady_clock::now();
            released_.store(now, std::memory_order_release);
        } else {
            for (unsigned spins = 0; released_.load(std::memory_order_acquire) != now; ++spins)
                if (spins > 4000) std::this_thread::yield(); // a sibling's CPU is taken by another process
        }
        try {
            (*task_)(worker, size());
        } catch (...) {
            bool expected = false;
            if (failed_.compare_exchange_strong(expected, true)) failure_ = std::current_exception();
        }
        finished_[worker] = std::chrono::steady_clock::now();
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_all();
    }
}

Range split(uint64_t n, unsigned worker, unsigned workers, uint64_t align)
{
    const uint64_t blocks = (n + align - 1) / align;
    const uint64_t b0 = blocks * worker / workers, b1 = blocks * (worker + 1) / workers;
    Range r{b0 * align, b1 * align};
    if (r.begin > n) r.begin = n;
    if (r.end > n) r.end = n;
    return r;
}

} // namespace vrb::host
