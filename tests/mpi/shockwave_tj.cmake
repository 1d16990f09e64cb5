# Shockwave+TunedJobs on Pollux workloads (docs/sia.md §11), included by tests/CMakeLists.txt: the
# small sweep tests/mpi/shockwave_tj_small.toml with 1 and 3 ranks gives the same results (rank-count
# independence; the rerun with 3 ranks also shows that a task's result is deterministic). Skipped
# (exit 77) without the reference data.
set(_shockwave_tj_spec ${CMAKE_CURRENT_LIST_DIR}/shockwave_tj_small.toml)
set(_shockwave_tj_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                      OMPI_MCA_rmaps_base_oversubscribe=1)
set(_shockwave_tj_files)
foreach(_ranks 1 3)
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/mpi_shockwave_tj_${_ranks}.h5)
  list(APPEND _shockwave_tj_files ${_out})
  add_test(NAME mpi_shockwave_tj_${_ranks}ranks
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} ${_ranks}
                   ${_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim> ${_shockwave_tj_spec})
  set_tests_properties(mpi_shockwave_tj_${_ranks}ranks PROPERTIES
    ENVIRONMENT "${_shockwave_tj_env}" SKIP_RETURN_CODE 77 TIMEOUT 600
    FIXTURES_SETUP mpi_shockwave_tj_files PROCESSORS ${_ranks} RESOURCE_LOCK mpi_ranks)
endforeach()

add_test(NAME mpi_shockwave_tj_rank_count_independent
         COMMAND adaptsim_compare_results ${_shockwave_tj_files})
set_tests_properties(mpi_shockwave_tj_rank_count_independent PROPERTIES
  SKIP_RETURN_CODE 77 FIXTURES_REQUIRED mpi_shockwave_tj_files)
