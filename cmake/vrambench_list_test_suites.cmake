# Run by vrambench_add_test_suites (vrambench_test_suites.cmake) after a GoogleTest
# program is built: lists its tests and writes CTEST_FILE, a CTest test for each suite.
#   TEST_EXECUTABLE, WORKING_DIRECTORY, PROPERTIES_FILE, CTEST_FILE
execute_process(COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
                WORKING_DIRECTORY "${WORKING_DIRECTORY}"
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE status TIMEOUT 60)
if(NOT status EQUAL 0)
  file(REMOVE "${CTEST_FILE}")
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${status}):\n${listing}\n${errors}")
endif()

# The listing: "Suite." at the line's start (a typed one with "  # TypeParam = ..." after
# it), then "  Test" lines (a parameterised one with "  # GetParam() = ..." after it); anything else (gtest_main's banner) is not a suite.
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(suites)
set(suite "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    list(APPEND suites "${suite}")
    set(tests_${suite} 0)
  elseif(suite AND line MATCHES "^  ([^ ]+)")
    set(name "${CMAKE_MATCH_1}")
    if(name MATCHES "^DISABLED_" OR suite MATCHES "^DISABLED_")
      continue()
    endif()
    math(EXPR tests_${suite} "${tests_${suite}} + 1")
  endif()
endforeach()

set(out "include(\"${PROPERTIES_FILE}\")\n")
foreach(suite IN LISTS suites)
  if(tests_${suite} EQUAL 0)
    continue()
  endif()
  set(test "${suite}.*")
  string(APPEND out "add_test([==[${test}]==] \"${TEST_EXECUTABLE}\" [==[--gtest_filter=${test}]==])\n"
                    "set_tests_properties([==[${test}]==] PROPERTIES WORKING_DIRECTORY \"${WORKING_DIRECTORY}\" "
                    "COST ${tests_${suite}})\n"
                    "vrambench_suite_properties([==[${test}]==])\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${out}")
