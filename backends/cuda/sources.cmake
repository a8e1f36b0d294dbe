# The sources of the GPU backend, compiled as CUDA here and as HIP by backends/hip.
set(VRAMBENCH_GPU_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(VRAMBENCH_GPU_HOST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_info.cpp
  ${CMAKE_CURRENT_LIST_DIR}/driver_banner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/external_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/external_semaphore.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_resources.cpp
  ${CMAKE_CURRENT_LIST_DIR}/l1_caches.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch_geometry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/operations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/peer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plugin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/timing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transfer.cpp)
set(VRAMBENCH_GPU_KERNEL_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/kernels_access.cu
  ${CMAKE_CURRENT_LIST_DIR}/kernels_chase.cu
  ${CMAKE_CURRENT_LIST_DIR}/kernels_pattern.cu
  ${CMAKE_CURRENT_LIST_DIR}/kernels_stream.cu)
# GPU runtimes keep process-wide state (registered kernels, driver callbacks) that must
# not be unmapped by a dlclose; a statically linked runtime's symbols stay inside.
set(VRAMBENCH_GPU_MODULE_LINK_OPTIONS -Wl,-z,nodelete -Wl,--exclude-libs,ALL)
