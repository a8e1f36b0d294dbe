// One thread per CPU the process may run on (or per CPU of a list: a NUMA node's), each
// pinned to its CPU for its life, so a thread always touches the same pages from the
// same core (first touch places them).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace vrb::host {

class WorkerPool {
  public:
    WorkerPool(); // every CPU the process may run on
    // One worker per CPU of `cpus` (which the process may run on); an empty list makes
    // one unpinned worker, as the OS not telling the affinity does.
    explicit WorkerPool(const std::vector<int> &cpus);
    ~WorkerPool();
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    unsigned size() const { return static_cast<unsigned>(threads_.size()); }

    // Runs task(worker, workers) on every worker at once and returns when all are done,
    // with the seconds from the moment every worker was awake and started to the moment
    // the last one finished. No worker starts before all are awake: a worker that sleeps
    // between runs takes from microseconds to milliseconds to wake (an idle vCPU halts
    // in the hypervisor), and a start staggered by that would be timed as slow memory.
    // This span is the work's, as a GPU's events time a kernel and not its launch.
    // Exceptions thrown by a task are rethrown here (the first one).
    double run(const std::function<void(unsigned worker, unsigned workers)> &task);

  private:
    void loop(unsigned worker, int cpu);

    std::vector<std::thread> threads_;
    const std::function<void(unsigned, unsigned)> *task_ = nullptr;
    std::atomic<uint64_t> generation_{0};
    std::atomic<unsigned> pending_{0};
    // The start line: workers arrived, and the generation whose start the last released.
    std::atomic<unsigned> arrived_{0};
    std::atomic<uint64_t> released_{0};
    std::chrono::steady_clock::time_point started_;
    std::vector<std::chrono::steady_clock::time_point> finished_; // per worker
    std::atomic<bool> stop_{false};
    std::exception_ptr failure_;
    std::atomic<bool> failed_{false};
};

// [begin, end) of `n` items for one worker, with boundaries on multiples of `align`.
struct Range {
    uint64_t begin, end;
};
Range split(uint64_t n, unsigned worker, unsigned workers, uint64_t align);

} // namespace vrb::host
