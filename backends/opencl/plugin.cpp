// The OpenCL backend's entry: every device of every platform the ICD loader finds, as
// opencl:0, opencl:1 ... in the loader's order; make_table turns the classes into the
// C table of plugin.h.
#include "device.hpp"
#include "device_info.hpp"
#include "platforms.hpp"

#include <vrambench/plugin_table.hpp>

namespace vrb::opencl {
namespace {

class Context {
  public:
    explicit Context(const vrb_host_table *host) : host_(host), found_(enumerate_devices())
    {
        for (const std::string &empty : found_.empty_platforms)
            log(host_, VRB_LOG_INFO, "OpenCL platform " + empty);
    }

    uint32_t device_count() const { return static_cast<uint32_t>(found_.devices.size()); }

    void describe(uint32_t index, vrb_device_info &info) const { describe_device(found_.devices[index], info); }

    std::unique_ptr<Device> open(uint32_t index) const
    {
        return std::make_unique<Device>(found_.devices[index], "opencl:" + std::to_string(index), host_);
    }

  private:
    const vrb_host_table *host_;
    Enumeration found_;
};

} // namespace
} // namespace vrb::opencl

namespace {
const vrb_plugin_table table = vrb::plugin::make_table<vrb::opencl::Context, vrb::opencl::Device, vrb::opencl::Buffer>(
    {"opencl", "OpenCL devices of every platform (ICD loader), OpenCL C kernels", VRAMBENCH_VERSION});
} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
