// Which CPUs a thread runs on: the process's allowed set, a pin for the life of a
// thread, and a pin for the length of a scope. The worker pools and the NUMA node
// devices (numa_nodes.hpp) place their work through these.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

namespace vrb::host {

// The CPUs this process may run on (its affinity, which a cpuset or taskset narrows),
// in ascending order; empty when the OS does not say.
std::vector<int> allowed_cpus();

// Restricts the calling thread to `cpus`; false when the OS refuses (or `cpus` is empty).
bool pin_calling_thread(const std::vector<int> &cpus);

// "0-3,8,10-11": a CPU list as Linux writes one (/sys/devices/system/node/node0/cpulist).
std::string cpu_list_text(const std::vector<int> &cpus);

// The calling thread runs on `cpus` until the end of the scope, then on the CPUs it had
// before. With `cpus` empty nothing changes: the whole machine's device keeps the
// caller where it is.
class ScopedAffinity {
  public:
    explicit ScopedAffinity(const std::vector<int> &cpus);
    ~ScopedAffinity();
    ScopedAffinity(const ScopedAffinity &) = delete;
    ScopedAffinity &operator=(const ScopedAffinity &) = delete;

  private:
    cpu_set_t before_;
    bool restore_ = false;
};

} // namespace vrb::host
