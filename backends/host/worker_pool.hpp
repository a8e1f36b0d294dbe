// One thread per CPU the process may run on (or per CPU of a list: a NUMA node's), each
// pinned to its CPU for its life, so a thread always touches the same pages from the
// same core (first touch places them).
#pragma once

#include <atomic>
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

    // Runs task(worker, workers) on every worker at once and returns when all are done.
    // Exceptions thrown by a task are rethrown here (the first one).
    void run(const std::function<void(unsigned worker, unsigned workers)> &task);

  private:
    void loop(unsigned worker, int cpu);

    std::vector<std::thread> threads_;
    const std::function<void(unsigned, unsigned)> *task_ = nullptr;
    std::atomic<uint64_t> generation_{0};
    std::atomic<unsigned> pending_{0};
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
