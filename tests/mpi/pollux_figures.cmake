# Pollux figures test (included by tests/CMakeLists.txt): a small 2-rank sweep of the Pollux
# workloads with a profile FOLDER as `throughputs` (tests/mpi/pollux_figures_small.toml), then
# analysis/pollux_figures.py must draw both figures and its numbers must equal the results file.
set(_pfig_out ${CMAKE_CURRENT_BINARY_DIR}/pollux_figures_small.h5)
add_test(NAME pollux_figures_small_sweep
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} 2
                 ${_pfig_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim>
                 ${CMAKE_CURRENT_LIST_DIR}/pollux_figures_small.toml)
set_tests_properties(pollux_figures_small_sweep PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  SKIP_RETURN_CODE 77 TIMEOUT 300 FIXTURES_SETUP pollux_figures_small_file PROCESSORS 2
  RESOURCE_LOCK mpi_ranks)
add_test(NAME pollux_figures_match_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/pollux_figures_check.py ${_pfig_out}
                 ${PROJECT_SOURCE_DIR}/analysis/pollux_figures.py
                 ${CMAKE_CURRENT_BINARY_DIR}/pollux_figures_small)
set_tests_properties(pollux_figures_match_results PROPERTIES
  FIXTURES_REQUIRED pollux_figures_small_file SKIP_RETURN_CODE 77 TIMEOUT 300)
