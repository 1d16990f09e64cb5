# `adaptsim reproduce` end to end on reduced sweeps (tests/reproduce/*.toml; the longest task,
# Pollux on the 160-job realistic workload, takes 1-2 min): each paper under mpiexec -n 2, then
# tests/mpi/reproduce_check.py checks the figures (each one's CSV equals the results files, no
# text element with '{' or over 40 characters), the report's numbers against the results files,
# and that a rerun resumes (runs no task) and redraws.
foreach(_paper shockwave pollux gavel sia)
  set(_rout ${CMAKE_CURRENT_BINARY_DIR}/reproduce_quick/${_paper})
  add_test(NAME reproduce_quick_${_paper}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/reproduce_quick.sh ${ADAPTSIM_DEFAULT_DATA_DIR}
                   ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim> ${_paper} ${_rout}
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(reproduce_quick_${_paper} PROPERTIES
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
    SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 2 RESOURCE_LOCK mpi_ranks)
endforeach()

# A Sia sweep is rank-count independent and deterministic: the reduced Table 3 sweep that
# reproduce_quick_sia ran under mpiexec -n 2 (one worker) is run again under -n 3 (two workers)
# and the two results files must hold identical tasks (tests/mpi/compare_results.cpp: every
# result field; the measured policy runtimes, whose names hold "time", aside).
set_tests_properties(reproduce_quick_sia PROPERTIES FIXTURES_SETUP reproduce_sia_files)
set(_sia_n3 ${CMAKE_CURRENT_BINARY_DIR}/reproduce_quick/sia_table3_3ranks.h5)
add_test(NAME sia_sweep_3ranks
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} 3
                 ${_sia_n3} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim>
                 ${PROJECT_SOURCE_DIR}/tests/reproduce/sia_table3.toml)
set_tests_properties(sia_sweep_3ranks PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  SKIP_RETURN_CODE 77 TIMEOUT 600 PROCESSORS 3 RESOURCE_LOCK mpi_ranks
  FIXTURES_SETUP reproduce_sia_files)
add_test(NAME sia_sweep_rank_count_independent
         COMMAND adaptsim_compare_results
                 ${CMAKE_CURRENT_BINARY_DIR}/reproduce_quick/sia/sia_table3.h5 ${_sia_n3})
set_tests_properties(sia_sweep_rank_count_independent PROPERTIES
  SKIP_RETURN_CODE 77 FIXTURES_REQUIRED reproduce_sia_files)
