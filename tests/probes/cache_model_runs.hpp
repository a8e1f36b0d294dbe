// The cache-model module (tests/mock/cache_model_plugin.cpp) opened once for the probe
// tests, and one probe run on it at 1 MiB in the quick suite with some of its settings
// (VRAMBENCH_MOCK_*, read by the model at every run) set for that run only.
#pragma once

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace vrb::test {

struct CacheModel {
    BackendEntry entry = open_backend(MOCK_CACHE_MODEL_PATH);
    std::unique_ptr<Device> device;
    DeviceRecord record;
    CacheModel()
    {
        if (entry.state != BackendEntry::State::available) return;
        device = entry.backend->open(0);
        record = describe_device(*entry.backend, device.get(), 0);
    }
};

inline CacheModel &cache_model()
{
    static CacheModel m;
    return m;
}

// A test on the model, skipped where the module cannot be opened.
class CacheModelTest : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (cache_model().entry.state != BackendEntry::State::available)
            GTEST_SKIP() << "cache-model module unavailable: " << cache_model().entry.reason;
    }
};

// A setting of the model for one scope (a null value: unset).
class CacheModelSetting {
  public:
    CacheModelSetting(const char *name, const char *value) : name_(name)
    {
        if (value) ::setenv(name, value, 1);
    }
    ~CacheModelSetting() { ::unsetenv(name_); }
    CacheModelSetting(const CacheModelSetting &) = delete;
    CacheModelSetting &operator=(const CacheModelSetting &) = delete;

  private:
    const char *name_;
};

// Probe `id` on the model over 1 MiB (no growth), with `settings` (name, value) set.
inline std::vector<ProbeResult>
run_on_cache_model(std::string_view id, std::initializer_list<std::pair<const char *, const char *>> settings)
{
    std::vector<std::unique_ptr<CacheModelSetting>> set;
    for (const auto &[name, value] : settings)
        set.push_back(std::make_unique<CacheModelSetting>(name, value));
    CacheModel &m = cache_model();
    ProbeOptions options;
    options.suite = Suite::quick;
    options.size = 1 << 20;
    std::vector<ProbeResult> results;
    ProbeContext ctx{*m.device, m.record, options, [&](ProbeResult r) { results.push_back(std::move(r)); }, {}};
    for (const auto &p : all_probes())
        if (p->id() == id) p->run(ctx);
    return results;
}

} // namespace vrb::test
