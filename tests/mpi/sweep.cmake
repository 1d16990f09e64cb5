# MPI sweep tests (included by tests/CMakeLists.txt): the smoke sweep with 1, 2 and 3 ranks must
# produce the same data. They need the reference data folder and skip (exit 77) without it.
add_executable(adaptsim_compare_results ${CMAKE_CURRENT_LIST_DIR}/compare_results.cpp)
target_link_libraries(adaptsim_compare_results PRIVATE adaptsim_store adaptsim_warnings)

set(_sweep_spec ${PROJECT_SOURCE_DIR}/experiments/smoke.toml)
set(_sweep_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
               OMPI_MCA_rmaps_base_oversubscribe=1)
set(_sweep_files)
foreach(_ranks 1 2 3)
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/mpi_sweep_smoke_${_ranks}.h5)
  list(APPEND _sweep_files ${_out})
  add_test(NAME mpi_sweep_smoke_${_ranks}ranks
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sweep.sh ${ADAPTSIM_DEFAULT_DATA_DIR} ${_ranks}
                   ${_out} ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim> ${_sweep_spec})
  set_tests_properties(mpi_sweep_smoke_${_ranks}ranks PROPERTIES
    ENVIRONMENT "${_sweep_env}" SKIP_RETURN_CODE 77 TIMEOUT 600
    FIXTURES_SETUP mpi_sweep_smoke_files PROCESSORS ${_ranks} RESOURCE_LOCK mpi_ranks)
endforeach()

add_test(NAME mpi_sweep_smoke_rank_count_independent
         COMMAND adaptsim_compare_results ${_sweep_files})
set_tests_properties(mpi_sweep_smoke_rank_count_independent PROPERTIES
  SKIP_RETURN_CODE 77 FIXTURES_REQUIRED mpi_sweep_smoke_files)

# The farm with queued tasks: failure injection, and SIGUSR1 then resume (tests/mpi/farm_checks.sh).
# They use the test-aid policy `fail_after`, so they run the test build of the command line.
foreach(_mode failure signal)
  add_test(NAME mpi_farm_${_mode}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/farm_checks.sh ${_mode} ${ADAPTSIM_DEFAULT_DATA_DIR}
                   ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim_test_cli>
                   ${CMAKE_CURRENT_BINARY_DIR}/mpi_farm_${_mode})
  set_tests_properties(mpi_farm_${_mode} PROPERTIES
    ENVIRONMENT "${_sweep_env}" SKIP_RETURN_CODE 77 TIMEOUT 300 PROCESSORS 2
    RESOURCE_LOCK mpi_ranks)
endforeach()

# Large-sweep options (tests/mpi/sweep_scale_check.py): stored detail levels and shard removal
# after the verified merge; batches of sub-second tasks give the same results with 1, 2 and 3
# ranks; SIGUSR1 while workers hold batches, then resume, completes every task exactly once;
# workers that cannot see rank 0's folder (each in a mount namespace where it is a private tmpfs)
# give the same merged file as workers that share it (skipped, exit 77, only where a tmpfs in a
# private mount namespace is not permitted).
foreach(_mode detail batching signal local_disks)
  add_test(NAME mpi_sweep_scale_${_mode}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/sweep_scale_check.py ${_mode}
                   ${ADAPTSIM_DEFAULT_DATA_DIR} ${ADAPTSIM_MPIEXEC}
                   $<TARGET_FILE:adaptsim_test_cli> $<TARGET_FILE:adaptsim_compare_results>
                   ${CMAKE_CURRENT_BINARY_DIR}/mpi_sweep_scale_${_mode})
  set_tests_properties(mpi_sweep_scale_${_mode} PROPERTIES
    ENVIRONMENT "${_sweep_env}" SKIP_RETURN_CODE 77 TIMEOUT 300 PROCESSORS 2
    RESOURCE_LOCK mpi_ranks)
endforeach()
