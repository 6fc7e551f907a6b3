# Included by CTest after the discovered gtest tests (TEST_INCLUDE_FILES): the unit tests that take a minute or more
# start first, with the other long tests (CMakeLists.txt, COST), instead of last, where they were the tail of a
# parallel run (HPC2N's and CEA-Curie's invariant runs, 95 and 60 s, ended `make test` alone on one core).
# The names come from the discovery's list: CMake appends '  # GetParam() = "..."' to a parameterised test's name.
set(_schedlab_costs "SimLogs/SimRealLogTest[.]EverySchedulerKeepsTheInvariants/HPC2N_=450"
                    "SimLogs/SimRealLogTest[.]EverySchedulerKeepsTheInvariants/CEA_Curie_=350"
                    "SwfRoundTrip[.]EveryRealLogKeepsEveryValueExactly=150"
                    "SimLogs/SimRealLogTest[.]EverySchedulerKeepsTheInvariants/(CTC|LANL)_=100")
foreach(_schedlab_test IN LISTS schedlab_tests_TESTS)
  foreach(_schedlab_cost IN LISTS _schedlab_costs)
    string(REGEX MATCH "^(.*)=([0-9]+)$" _ "${_schedlab_cost}")
    set(_schedlab_pattern "${CMAKE_MATCH_1}")
    set(_schedlab_value "${CMAKE_MATCH_2}")  # (saved: the MATCHES below sets CMAKE_MATCH_n again)
    if(_schedlab_test MATCHES "^${_schedlab_pattern}")
      set_tests_properties("${_schedlab_test}" PROPERTIES COST ${_schedlab_value})
    endif()
  endforeach()
endforeach()
