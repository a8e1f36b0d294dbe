# vrambench_add_backend(NAME SOURCES ... [LIBRARIES ...])
#   Builds backends/NAME as the module vrambench-NAME.so next to the executable.
# vrambench_skip_backend(NAME REASON)
#   Records that a backend is not built and why; configure prints the summary.

function(vrambench_add_backend name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target vrambench-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE vrambench::plugin_sdk ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    LIBRARY_OUTPUT_DIRECTORY ${VRAMBENCH_OUTPUT_DIR}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # A module must carry everything it needs: an unresolved symbol is a link error
  # here, not a dlopen failure on a user's machine. Sanitized builds are the exception:
  # clang's runtime lives in the executable that loads the module.
  if(NOT VRAMBENCH_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  set_property(GLOBAL APPEND PROPERTY VRAMBENCH_BUILT_BACKENDS ${name})
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
