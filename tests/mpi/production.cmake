# Production-log sweep (included by tests/CMakeLists.txt): tests/mpi/production_small.toml (a
# Philly day of one virtual cluster and an ITP week, 4 policies, 2 model seeds) through
# `adaptsim sweep` on 3 ranks, then tests/mpi/production_check.py reads the results file.
set(_prod_out ${CMAKE_CURRENT_BINARY_DIR}/production_small.h5)
add_test(NAME production_small_sweep
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} 3
                 ${_prod_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim>
                 ${CMAKE_CURRENT_LIST_DIR}/production_small.toml)
set_tests_properties(production_small_sweep PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  SKIP_RETURN_CODE 77 TIMEOUT 300 FIXTURES_SETUP production_small_file PROCESSORS 3
  RESOURCE_LOCK mpi_ranks LABELS production)
add_test(NAME production_small_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/production_check.py ${_prod_out} 16)
set_tests_properties(production_small_results PROPERTIES
  FIXTURES_REQUIRED production_small_file SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS production)
# The production figure from the small production sweep next to the small synthetic sweep of
# tests/mpi/figures.cmake (FIFO, present in both, is the baseline): every plotted number must equal
# the results files.
add_test(NAME production_figure_matches_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/production_figure_check.py
                 ${PROJECT_SOURCE_DIR}/analysis/production_figure.py
                 ${CMAKE_CURRENT_BINARY_DIR}/production_figure fifo ${_prod_out}
                 ${CMAKE_CURRENT_BINARY_DIR}/figures_small.h5)
set_tests_properties(production_figure_matches_results PROPERTIES
  FIXTURES_REQUIRED "production_small_file;figures_small_file" SKIP_RETURN_CODE 77 TIMEOUT 120
  LABELS production)
