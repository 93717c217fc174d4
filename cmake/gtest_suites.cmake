# gtest_suite_tests(<target> [TEST_PREFIX <prefix>] [TEST_FILTER <gtest filter>] [LABELS <label>...])
#
# Registers the GoogleTest cases of <target> with ctest as one test per suite instance instead of
# one per case (docs/performance.md, "make test's ctest, twelfth round"): `Suite`, `Prefix/Suite`
# (a value-parameterized instantiation) or `Suite<Type>` (a typed suite, one per type), each
# running `<target> --gtest_filter=<its gtest suite>.*`. One process per case cost make test about
# 1,600 process starts (12-37 ms each, sim_tests' 1,763 registered cases are set up in each) and
# ctest's own bookkeeping per test.
#
# As CMake's gtest_discover_tests (POST_BUILD mode), the cases are listed after each link by a
# script (cmake/gtest_suites_discover.cmake, run with `cmake -P`), which writes the ctest file that
# an include file of this directory reads at ctest time (a binary not built yet shows as
# <target>_NOT_BUILT). TEST_FILTER selects the cases to register (a suite only part of which the
# filter selects runs exactly those cases); LABELS labels every test of this call. A suite whose
# cases all skip (GTEST_SKIP) is reported skipped; a suite of DISABLED_ cases only is registered
# disabled; DISABLED_ cases are not run.
#
# cmake/gtest_suite_costs.txt gives the long suites their ctest COST, so that a clean clone (no
# Testing/Temporary/CTestCostData.txt) starts them first, and splits a suite longer than about 15 s
# into parts (`Suite[1/2]` ...) that ctest -j 2 can run on both cores.
#
# One case: run the binary itself, from the build directory, with GoogleTest's own filter:
#   cd build && bin/sim_tests --gtest_filter='MemorySystem.L2HitsAreNotLimitedByDramBandwidth'
# (`ctest -N -V -R <suite>` prints a suite's command; docs/architecture.md, "Build").

set(GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gtest_suites_discover.cmake)
set(GTEST_SUITE_COSTS ${CMAKE_CURRENT_LIST_DIR}/gtest_suite_costs.txt)
# A changed cost list or discovery script changes every POST_BUILD command (their hashes are on
# it), so Ninja relinks the test binaries and lists their suites again.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${GTEST_SUITES_SCRIPT} ${GTEST_SUITE_COSTS})
file(SHA1 ${GTEST_SUITES_SCRIPT} _gtest_suites_script_sha1)
file(SHA1 ${GTEST_SUITE_COSTS} _gtest_suite_costs_sha1)
string(SUBSTRING "${_gtest_suites_script_sha1}${_gtest_suite_costs_sha1}" 0 16 GTEST_SUITES_INPUTS_SHA1)

function(gtest_suite_tests target)
  cmake_parse_arguments(G "" "TEST_PREFIX;TEST_FILTER" "LABELS" ${ARGN})
  # A target registered twice (two filters, two labels) writes two ctest files.
  get_property(calls TARGET ${target} PROPERTY GTEST_SUITE_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(TARGET ${target} PROPERTY GTEST_SUITE_CALLS ${calls})
  set(base ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites${calls})
  list(JOIN G_LABELS "," labels)
  add_custom_command(
    TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D BINARY=$<TARGET_FILE:${target}> -D TARGET=${target}
            -D OUT=${base}_tests.cmake -D WORKDIR=${CMAKE_CURRENT_BINARY_DIR}
            -D PREFIX=${G_TEST_PREFIX} -D FILTER=${G_TEST_FILTER} -D LABELS=${labels}
            -D COSTS=${GTEST_SUITE_COSTS} -D INPUTS_SHA1=${GTEST_SUITES_INPUTS_SHA1}
            -P ${GTEST_SUITES_SCRIPT}
    BYPRODUCTS ${base}_tests.cmake
    VERBATIM)
  file(WRITE ${base}_include.cmake
       "if(EXISTS \"${base}_tests.cmake\")\n"
       "  include(\"${base}_tests.cmake\")\n"
       "else()\n"
       "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${base}_include.cmake)
endfunction()
