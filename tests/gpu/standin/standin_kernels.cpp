// The stand-in runs no kernels: an operation that needs one is refused, so that the
// host code around them (the table, transfers, timing) is built and tested as it ships.
#include "kernels.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::gpu {
namespace {

[[noreturn]] PreparedKernel no_kernels()
{
    plugin::fail(VRB_ERROR_UNSUPPORTED, "the recording stand-in runs no kernels");
}

} // namespace

PreparedKernel prepare_stream_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}
PreparedKernel prepare_access_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}
PreparedKernel prepare_pattern_op(const KernelOp &, const Scratch &, const DeviceShape &)
{
    no_kernels();
}
PreparedKernel prepare_chase_op(const KernelOp &, const Scratch &, const DeviceShape &, StreamHandle)
{
    no_kernels();
}

} // namespace vrb::gpu
