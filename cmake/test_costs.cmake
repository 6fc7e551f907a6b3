# Included by CTest after the discovered gtest tests (TEST_INCLUDE_FILES): the unit tests that take a minute or more
# start first, with the other long tests (CMakeLists.txt, COST), instead of last, where they were the tail of a
# parallel run (HPC2N's and CEA-Curie's invariant runs, 95 and 60 s, ended `make test` alone on one core). A name
# absent from this build (the shared logs missing) is ignored by CTest.
set(_schedlab_logs SimLogs/SimRealLogTest.EverySchedulerKeepsTheInvariants)
set_tests_properties(${_schedlab_logs}/HPC2N_2002_2_2_cln PROPERTIES COST 450)
set_tests_properties(${_schedlab_logs}/CEA_Curie_2011_2_1_cln PROPERTIES COST 350)
set_tests_properties(SwfRoundTrip.EveryRealLogKeepsEveryValueExactly PROPERTIES COST 150)
set_tests_properties(${_schedlab_logs}/CTC_SP2_1996_3_1_cln ${_schedlab_logs}/LANL_CM5_1994_4_1_cln
                     PROPERTIES COST 100)
