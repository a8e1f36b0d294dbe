// The Vulkan module loaded as the core loads it (dlopen, negotiation through
// vrb_plugin_entry), with small owners for its contexts, devices and buffers so a
// failing test leaks nothing into the next.
#pragma once

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vrb::vulkan::test {

// The module's table; loads the module on first use. Fails the test when it cannot.
const vrb_plugin_table &table();

// "VRB_ERROR_... : message" of the last failed call, for assertion messages.
std::string why(vrb_status status);

struct ContextCloser {
    void operator()(vrb_context *c) const { table().shutdown(c); }
};
struct DeviceCloser {
    void operator()(vrb_device *d) const { table().device_close(d); }
};
struct BufferFreer {
    void operator()(vrb_buffer *b) const { table().buffer_free(b); }
};
using ContextPtr = std::unique_ptr<vrb_context, ContextCloser>;
using DevicePtr = std::unique_ptr<vrb_device, DeviceCloser>;
using BufferPtr = std::unique_ptr<vrb_buffer, BufferFreer>;

ContextPtr open_context();
DevicePtr open_device(vrb_context *context, uint32_t index = 0);
BufferPtr alloc(vrb_device *device, uint32_t kind, uint64_t bytes);

struct Kind {
    uint32_t index;
    vrb_memory_kind_info info;
};
std::vector<Kind> memory_kinds(vrb_device *device);

void upload(vrb_buffer *buffer, uint64_t offset, const void *data, uint64_t bytes);
void download(vrb_buffer *buffer, uint64_t offset, void *data, uint64_t bytes);

template <typename T> void upload(vrb_buffer *buffer, uint64_t offset, const std::vector<T> &data)
{
    upload(buffer, offset, data.data(), data.size() * sizeof(T));
}
template <typename T> std::vector<T> download(vrb_buffer *buffer, uint64_t offset, uint64_t count)
{
    std::vector<T> data(count);
    download(buffer, offset, data.data(), count * sizeof(T));
    return data;
}

struct RunResult {
    vrb_op_output output{};
    std::vector<double> seconds;
};
// Runs and asserts success.
RunResult run(vrb_device *device, const vrb_operation &op, uint32_t repetitions = 1);
// Runs and returns the status (for refusals).
vrb_status try_run(vrb_device *device, const vrb_operation &op, uint32_t repetitions = 1);

// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
  public:
    ScopedEnv(const char *name, const char *value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    std::string name_;
    bool had_ = false;
    std::string old_;
};

// The devices the tests share (pipelines are built once): device 0 of one context,
// opened with VRAMBENCH_VULKAN_SHADERS set to `tuning` ("gpu", "cpu"), or unset.
vrb_device *shared_device(const char *tuning = nullptr);

// The two sets of streaming shaders; every operation is tested with both.
inline constexpr const char *kTunings[] = {"gpu", "cpu"};

} // namespace vrb::vulkan::test
