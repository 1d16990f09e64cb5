# Figures test (included by tests/CMakeLists.txt): a small 2-rank sweep, then analysis/figures.py
# must draw every figure from `adaptsim report --format json`, and its numbers must equal the
# report's CSV and the results file read with h5py.
set(_fig_out ${CMAKE_CURRENT_BINARY_DIR}/figures_small.h5)
add_test(NAME figures_small_sweep
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} 2
                 ${_fig_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim>
                 ${CMAKE_CURRENT_LIST_DIR}/figures_small.toml)
set_tests_properties(figures_small_sweep PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  SKIP_RETURN_CODE 77 TIMEOUT 300 FIXTURES_SETUP figures_small_file PROCESSORS 2
  RESOURCE_LOCK mpi_ranks)
add_test(NAME figures_match_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/figures_check.py $<TARGET_FILE:adaptsim>
                 ${_fig_out} ${PROJECT_SOURCE_DIR}/analysis/figures.py
                 ${CMAKE_CURRENT_BINARY_DIR}/figures_small)
set_tests_properties(figures_match_results PROPERTIES
  FIXTURES_REQUIRED figures_small_file SKIP_RETURN_CODE 77 TIMEOUT 300)
