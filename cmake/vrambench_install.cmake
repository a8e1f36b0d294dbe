# What `cmake --install build --prefix P` puts in P:
#   bin/vrambench                      the executable (component core)
#   lib/vrambench/vrambench-NAME.so    the modules (component NAME; host goes with core)
#   include/vrambench/*.h, *.hpp       the plugin SDK's headers (component dev)
#   lib/cmake/vrambench/               the CMake package: find_package(vrambench) gives
#                                      vrambench::plugin_sdk, vrambench_add_backend(),
#                                      vrambench_VERSION and vrambench_ABI_VERSION (dev)
#   share/vrambench/template/          the backend template to copy, a project of its own
#                                      that builds against this SDK (dev)
#   share/vrambench/results/           the published result sets (each folder's standard.json
#                                      and provenance) and their schemas: `health`'s references
#                                      (core)
# The executable finds the modules at ../lib/vrambench beside it (core/src/modules/registry.cpp).
include(CMakePackageConfigHelpers)

install(TARGETS vrambench RUNTIME DESTINATION bin COMPONENT core)

install(FILES
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/plugin.h
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/pattern.h
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/plugin_support.hpp
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/plugin_table.hpp
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/segments.hpp
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/external_handle.hpp
  ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/operation.hpp
  DESTINATION include/vrambench COMPONENT dev)

# The published sets `health` judges a card against, found at ../share/vrambench/results
# beside the executable (core/src/health/reference_sets.cpp). Each set travels with the
# provenance that says how it was measured; INDEX.md and README.md tell what they are.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/results/ DESTINATION share/vrambench/results COMPONENT core
        FILES_MATCHING PATTERN "*.json" PATTERN "provenance.txt" PATTERN "*.md")

# The template the plugin guide tells a vendor to copy, as plugins/template holds it.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/template/ DESTINATION share/vrambench/template COMPONENT dev)

install(TARGETS vrambench_plugin_sdk EXPORT vrambenchTargets COMPONENT dev)
set(config_dir lib/cmake/vrambench)
install(EXPORT vrambenchTargets NAMESPACE vrambench:: DESTINATION ${config_dir} COMPONENT dev)

# The ABI version is read from plugin.h, its one source, not written again here.
file(STRINGS ${PROJECT_SOURCE_DIR}/plugins/include/vrambench/plugin.h abi_lines
     REGEX "^#define VRB_ABI_VERSION_(MAJOR|MINOR) ")
foreach(line IN LISTS abi_lines)
  if(line MATCHES "VRB_ABI_VERSION_(MAJOR|MINOR) ([0-9]+)")
    set(VRAMBENCH_ABI_VERSION_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endif()
endforeach()
if(NOT DEFINED VRAMBENCH_ABI_VERSION_MAJOR OR NOT DEFINED VRAMBENCH_ABI_VERSION_MINOR)
  message(FATAL_ERROR "cannot read VRB_ABI_VERSION_MAJOR and _MINOR from plugins/include/vrambench/plugin.h")
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vrambenchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/vrambenchConfig.cmake
  INSTALL_DESTINATION ${config_dir})
# 0.x releases may change the SDK between minors; from 1.0 a major says it.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(compatibility SameMinorVersion)
else()
  set(compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/vrambenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/vrambenchConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/vrambenchConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/vrambench_backend.cmake
  DESTINATION ${config_dir} COMPONENT dev)
