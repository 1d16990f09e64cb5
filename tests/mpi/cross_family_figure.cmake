# Cross-family figure test (included by tests/CMakeLists.txt): a small 2-rank sweep with one
# policy of each family on the canonical trace (tests/mpi/cross_family_small.toml), then
# analysis/cross_family_figure.py must draw it (PNG, PDF, CSV) with the numbers of the results
# file, and refuse a missing results file with an error naming it.
set(_xfig_out ${CMAKE_CURRENT_BINARY_DIR}/cross_family_small.h5)
add_test(NAME cross_family_small_sweep
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} 2
                 ${_xfig_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim>
                 ${CMAKE_CURRENT_LIST_DIR}/cross_family_small.toml)
set_tests_properties(cross_family_small_sweep PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  SKIP_RETURN_CODE 77 TIMEOUT 300 FIXTURES_SETUP cross_family_small_file PROCESSORS 2
  RESOURCE_LOCK mpi_ranks)
add_test(NAME cross_family_figure_matches_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/cross_family_figure_check.py ${_xfig_out}
                 ${PROJECT_SOURCE_DIR}/analysis/cross_family_figure.py
                 ${CMAKE_CURRENT_BINARY_DIR}/cross_family_small)
set_tests_properties(cross_family_figure_matches_results PROPERTIES
  FIXTURES_REQUIRED cross_family_small_file SKIP_RETURN_CODE 77 TIMEOUT 300)
