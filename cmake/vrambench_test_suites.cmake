# vrambench_add_test_suites(TARGET target [WORKING_DIRECTORY dir] [PROPERTIES name value ...])
#
# Registers a GoogleTest program with CTest one test suite at a time: a CTest test named
# "Suite.*" runs `target --gtest_filter=Suite.*`. GoogleTest's own discovery
# (gtest_discover_tests) makes a process of every test, and most of a test's time here is
# what its process sets up once: the modules loaded, a driver's device made, the device
# table and the schema parsed. A suite's tests share that, as they do when the program is
# run whole. A program whose tests each take seconds, or must be named one by one (the
# conformance kit's checks), keeps gtest_discover_tests.
#
# Each suite's COST is its number of tests, so that a first run (no timings kept yet)
# starts the large suites first. PROPERTIES are set on every test, generator expressions
# allowed. The tests are listed when the program is built, as gtest_discover_tests' default.
function(vrambench_add_test_suites)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;WORKING_DIRECTORY" "PROPERTIES")
  set(target ${arg_TARGET})
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(base ${CMAKE_CURRENT_BINARY_DIR}/${target})
  # The properties, written once at generation time so generator expressions and values
  # with semicolons (ENVIRONMENT) reach CTest whole.
  set(properties "macro(vrambench_suite_properties test)\n")
  list(LENGTH arg_PROPERTIES count)
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE 0 ${last} 2)
      math(EXPR j "${i} + 1")
      list(GET arg_PROPERTIES ${i} name)
      list(GET arg_PROPERTIES ${j} value)
      string(APPEND properties "  set_tests_properties(\"\${test}\" PROPERTIES ${name} [==[${value}]==])\n")
    endforeach()
  endif()
  string(APPEND properties "endmacro()\n")
  file(GENERATE OUTPUT ${base}_suite_properties.cmake CONTENT "${properties}")

  add_custom_command(
    TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>" -D "WORKING_DIRECTORY=${arg_WORKING_DIRECTORY}"
            -D "PROPERTIES_FILE=${base}_suite_properties.cmake"
            -D "CTEST_FILE=${base}_suites.cmake" -P ${PROJECT_SOURCE_DIR}/cmake/vrambench_list_test_suites.cmake
    BYPRODUCTS ${base}_suites.cmake
    VERBATIM)
  file(WRITE ${base}_suites_include.cmake
       "if(EXISTS \"${base}_suites.cmake\")\n"
       "  include(\"${base}_suites.cmake\")\n"
       "else()\n"
       "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${base}_suites_include.cmake)
endfunction()
