#include "probe_harness.hpp"

#include <vrambench/core/run/runner.hpp>

#include <cstdlib>
#include <stdexcept>

namespace vrb::test {

OpenDevice open_device(const std::filesystem::path &module)
{
    OpenDevice target;
    target.entry = open_backend(module);
    if (target.entry.state != BackendEntry::State::available || target.entry.backend->device_count() == 0)
        return target;
    target.device = target.entry.backend->open(0);
    target.record = describe_device(*target.entry.backend, target.device.get(), 0);
    return target;
}

std::vector<std::filesystem::path> available_modules()
{
    std::vector<std::filesystem::path> found;
    for (const auto &item : std::filesystem::directory_iterator(VRAMBENCH_MODULE_DIR)) {
        const std::string file = item.path().filename().string();
        if (file.rfind("vrambench-", 0) != 0 || item.path().extension() != ".so") continue;
        const BackendEntry entry = open_backend(item.path());
        if (entry.state == BackendEntry::State::available && entry.backend->device_count() > 0)
            found.push_back(item.path());
    }
    return found;
}

ProbeOptions small_budget(std::string limit, Suite suite)
{
    ProbeOptions options;
    options.suite = suite;
    options.memory_limit = parse_memory_limit(limit);
    return options;
}

std::vector<ProbeResult> run_probe(OpenDevice &target, std::string_view id, const ProbeOptions &options)
{
    for (const auto &probe : all_probes()) {
        if (probe->id() != id) continue;
        std::vector<ProbeResult> results;
        ProbeContext ctx{*target.device, target.record, options, {}, {}};
        ctx.emit = [&](ProbeResult r) { results.push_back(std::move(r)); };
        probe->run(ctx);
        return results;
    }
    throw std::invalid_argument("no probe " + std::string(id));
}

ScopedEnv::ScopedEnv(std::string name, const std::string &value) : name_(std::move(name))
{
    setenv(name_.c_str(), value.c_str(), 1);
}

ScopedEnv::~ScopedEnv()
{
    unsetenv(name_.c_str());
}

} // namespace vrb::test
