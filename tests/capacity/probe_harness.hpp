// Running one probe in this process on a backend module, the way the runner would,
// keeping every result it emits.
#pragma once

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vrb::test {

struct OpenDevice {
    BackendEntry entry;
    std::unique_ptr<Device> device; // empty when the backend is unavailable
    DeviceRecord record;
};

// Opens device 0 of a module; entry.reason says why when it is unavailable.
OpenDevice open_device(const std::filesystem::path &module);

// Every available module in the build's module folder: host, and Vulkan when built.
std::vector<std::filesystem::path> available_modules();

ProbeOptions small_budget(std::string limit, Suite suite = Suite::quick);

// Runs the probe with that id; an exception from the probe reaches the caller.
std::vector<ProbeResult> run_probe(OpenDevice &target, std::string_view id, const ProbeOptions &options);

// Sets an environment variable for the life of the object (the host backend reads
// its test hooks when it starts, so open the device inside the scope).
class ScopedEnv {
  public:
    ScopedEnv(std::string name, const std::string &value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    std::string name_;
};

} // namespace vrb::test
