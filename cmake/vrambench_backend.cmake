# vrambench_add_backend(NAME SOURCES ... [LIBRARIES ...] [OUTPUT_DIRECTORY DIR] [NO_INSTALL])
#   Builds the module vrambench-NAME.so with the properties every module needs: no
#   "lib" prefix, hidden visibility (only the entry symbol is exported), and no
#   undefined symbol left for dlopen to find missing on a user's machine. It is
#   installed under lib/vrambench/, where the CLI looks for modules, as the install
#   component NAME.
#   The module lands in OUTPUT_DIRECTORY, else VRAMBENCH_OUTPUT_DIR (inside this
#   repository: beside the executable), else CMAKE_LIBRARY_OUTPUT_DIRECTORY, else the
#   current binary folder. NO_INSTALL builds a module only for tests: not installed,
#   not in configure's summary of backends. Without a CMAKE_BUILD_TYPE the module is
#   compiled with -O2, never at the compiler's default -O0. The same file is installed with the SDK, so a module built
#   out of the tree after find_package(vrambench) gets the same properties.
# vrambench_skip_backend(NAME REASON)
#   Records that a backend is not built and why; configure prints the summary.

set(VRAMBENCH_MODULE_INSTALL_DIR lib/vrambench)

function(vrambench_add_backend name)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "vrambench_add_backend(${name}): no SOURCES given")
  endif()
  if(NOT name MATCHES "^[a-z0-9_-]+$")
    message(FATAL_ERROR "vrambench_add_backend(${name}): a backend name is lower case [a-z0-9_-]")
  endif()
  if(NOT TARGET vrambench::plugin_sdk)
    message(FATAL_ERROR "vrambench_add_backend(${name}): the target vrambench::plugin_sdk is missing; "
                        "call find_package(vrambench REQUIRED) first")
  endif()
  set(output_dir ${ARG_OUTPUT_DIRECTORY})
  if(NOT output_dir AND VRAMBENCH_OUTPUT_DIR)
    set(output_dir ${VRAMBENCH_OUTPUT_DIR})
  endif()
  if(NOT output_dir AND CMAKE_LIBRARY_OUTPUT_DIRECTORY)
    set(output_dir ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
  endif()
  if(NOT output_dir)
    set(output_dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()

  set(target vrambench-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE vrambench::plugin_sdk ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME vrambench-${name}
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # A module built without optimisation times its own loops, not the memory (a tenth of
  # the figure is usual). A project that chose no build type gets an optimised module;
  # one that chose Debug gets what it asked for, and the module's build note says so.
  if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    target_compile_options(${target} PRIVATE -O2)
    message(STATUS "vrambench_add_backend(${name}): no CMAKE_BUILD_TYPE; the module is built with -O2 "
                   "(set -DCMAKE_BUILD_TYPE=Release to choose it)")
  endif()
  # plugin_support.hpp is C++20; a project that chose its own standard keeps it.
  if(NOT CMAKE_CXX_STANDARD)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
  endif()
  # A module must carry everything it needs: an unresolved symbol is a link error
  # here, not a dlopen failure on a user's machine. Sanitized builds are the exception:
  # clang's runtime lives in the executable that loads the module.
  if(NOT VRAMBENCH_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION ${VRAMBENCH_MODULE_INSTALL_DIR} COMPONENT ${name})
    set_property(GLOBAL APPEND PROPERTY VRAMBENCH_BUILT_BACKENDS ${name})
  endif()
endfunction()

function(vrambench_skip_backend name reason)
  set_property(GLOBAL APPEND PROPERTY VRAMBENCH_SKIPPED_BACKENDS "${name}: ${reason}")
endfunction()

function(vrambench_print_backend_summary)
  get_property(built GLOBAL PROPERTY VRAMBENCH_BUILT_BACKENDS)
  get_property(skipped GLOBAL PROPERTY VRAMBENCH_SKIPPED_BACKENDS)
  message(STATUS "vrambench backends built: ${built}")
  foreach(line IN LISTS skipped)
    message(STATUS "vrambench backend skipped: ${line}")
  endforeach()
endfunction()
