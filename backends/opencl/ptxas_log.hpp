// The registers each kernel takes, read from the build log NVIDIA's OpenCL driver writes
// with -cl-nv-verbose (cl_nv_compiler_options: ptxas --verbose). OpenCL has no occupancy
// query; these counts bound the groups a compute unit keeps resident (geometry.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace vrb::opencl {

// Kernel name -> registers a work-item, for every kernel the log names with a count.
// Empty for a log in another form (any other driver's).
std::map<std::string, uint32_t> ptxas_registers(std::string_view log);

} // namespace vrb::opencl
