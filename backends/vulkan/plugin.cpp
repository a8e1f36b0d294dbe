// The C ABI of vrambench-vulkan: the Context, Device, Buffer and Semaphore classes turned
// into the table by make_table, which checks every argument and keeps exceptions inside. Each
// member fails its call when the validation layer (if on) reported anything during it,
// or after the last call that could fail (validation.hpp).
#include "buffer.hpp"
#include "context.hpp"
#include "device.hpp"
#include "semaphore.hpp"

#include <vrambench/plugin_table.hpp>

namespace vrb::vulkan {
namespace {

const vrb_plugin_table kTable = plugin::make_table<Context, Device, Buffer, Semaphore>(
    {"vulkan", "Vulkan compute shaders and copy queues, through the loader found at run time", VRAMBENCH_VERSION});

} // namespace
} // namespace vrb::vulkan

VRB_DEFINE_PLUGIN_ENTRY(vrb::vulkan::kTable)
