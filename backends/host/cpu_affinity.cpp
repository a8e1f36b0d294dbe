#include "cpu_affinity.hpp"

#include <pthread.h>

namespace vrb::host {

std::vector<int> allowed_cpus()
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
    return cpus;
}

bool pin_calling_thread(const std::vector<int> &cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    bool any = false;
    for (int cpu : cpus)
        if (cpu >= 0 && cpu < CPU_SETSIZE) {
            CPU_SET(cpu, &set);
            any = true;
        }
    return any && pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

std::string cpu_list_text(const std::vector<int> &cpus)
{
    std::string text;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        if (!text.empty()) text += ',';
        text += std::to_string(cpus[i]);
        if (j > i) text += '-' + std::to_string(cpus[j]);
        i = j + 1;
    }
    return text;
}

ScopedAffinity::ScopedAffinity(const std::vector<int> &cpus)
{
    CPU_ZERO(&before_);
    if (cpus.empty() || pthread_getaffinity_np(pthread_self(), sizeof before_, &before_) != 0) return;
    restore_ = pin_calling_thread(cpus);
}

ScopedAffinity::~ScopedAffinity()
{
    if (restore_) pthread_setaffinity_np(pthread_self(), sizeof before_, &before_);
}

} // namespace vrb::host
