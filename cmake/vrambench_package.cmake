# Debian packages from the install components (`cpack -G DEB` in the build folder):
#   vrambench          the executable and the host backend: needs no GPU stack
#   vrambench-vulkan   the Vulkan backend; depends on the Vulkan loader it opens
#   vrambench-cuda     the CUDA backend; the CUDA runtime is linked in, the driver's
#                      libcuda.so.1 is recommended (it lives in Debian's non-free)
#   vrambench-hip      the HIP backend; depends on the HIP runtime it links
#   vrambench-opencl   the OpenCL backend; depends on the ICD loader it links, PoCL
#                      recommended (a CPU driver, so it measures something anywhere)
#   vrambench-dev      the plugin SDK: headers and the CMake package
# Each backend package depends on vrambench of the same version. Library dependencies
# are found by dpkg-shlibdeps from what each module links.
set(CPACK_PACKAGE_NAME vrambench)
set(CPACK_PACKAGE_VENDOR "vrambench")
set(CPACK_PACKAGE_CONTACT "vrambench maintainers <vrambench@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU memory measured the same way on every vendor's card")
set(CPACK_PACKAGE_INSTALL_DIRECTORY vrambench)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/vrambench/vrambench")

# The executable and the host backend make one package: a machine without any GPU
# stack installs it and measures its own memory.
set(CPACK_COMPONENT_CORE_GROUP runtime)
set(CPACK_COMPONENT_HOST_GROUP runtime)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME vrambench)
set(CPACK_COMPONENT_GROUP_RUNTIME_DESCRIPTION
    "GPU memory benchmark: the vrambench executable and the host CPU backend")

set(core_dependency "vrambench (= ${PROJECT_VERSION})")

set(CPACK_DEBIAN_VULKAN_PACKAGE_NAME vrambench-vulkan)
# The module opens the loader at run time (volk), so dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_VULKAN_PACKAGE_DEPENDS "${core_dependency}, libvulkan1")
set(CPACK_DEBIAN_VULKAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
set(CPACK_COMPONENT_VULKAN_DESCRIPTION "vrambench backend for Vulkan compute devices")

set(CPACK_DEBIAN_CUDA_PACKAGE_NAME vrambench-cuda)
set(CPACK_DEBIAN_CUDA_PACKAGE_DEPENDS "${core_dependency}")
set(CPACK_DEBIAN_CUDA_PACKAGE_RECOMMENDS "libcuda1")
set(CPACK_COMPONENT_CUDA_DESCRIPTION "vrambench backend for NVIDIA GPUs through the CUDA runtime")

set(CPACK_DEBIAN_HIP_PACKAGE_NAME vrambench-hip)
set(CPACK_DEBIAN_HIP_PACKAGE_DEPENDS "${core_dependency}")
set(CPACK_COMPONENT_HIP_DESCRIPTION "vrambench backend for AMD GPUs through HIP")

set(CPACK_DEBIAN_OPENCL_PACKAGE_NAME vrambench-opencl)
set(CPACK_DEBIAN_OPENCL_PACKAGE_DEPENDS "${core_dependency}, ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_OPENCL_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_COMPONENT_OPENCL_DESCRIPTION "vrambench backend for OpenCL devices of every platform")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME vrambench-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_ARCHITECTURE all) # headers and CMake files
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "cmake, g++")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "vrambench")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "vrambench plugin SDK: the C ABI headers, the C++ help and the CMake package for writing a backend")

# Only what was built and installed becomes a package; a backend skipped at configure
# time (no toolkit) has no component.
get_property(built_backends GLOBAL PROPERTY VRAMBENCH_BUILT_BACKENDS)
set(CPACK_COMPONENTS_ALL core dev ${built_backends})
include(CPack)
