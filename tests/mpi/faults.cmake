# Fault injection into real sweeps (label faults; tests/mpi/fault_checks.py, docs/reliability.md
# "Faults"): corrupt shards, a full disk (tmpfs and file-size limit), a second sweep on the same
# --out, a worker rank killed with SIGKILL, an --out folder that cannot be written, and hostile
# text in inputs. They run the test build of the command line (`fail_after` makes tasks slow).
# A mode whose mechanism the machine lacks (mount permission for the tmpfs and read-only mount)
# exits 77 with the reason. (adaptsim_compare_results: tests/mpi/sweep.cmake.)
set(_faults_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                OMPI_MCA_rmaps_base_oversubscribe=1)
foreach(_mode checksum enospc_tmpfs enospc_fsize lock worker_kill unwritable hostile)
  add_test(NAME faults.${_mode}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/fault_checks.py ${_mode}
                   ${ADAPTSIM_DEFAULT_DATA_DIR} ${ADAPTSIM_MPIEXEC}
                   $<TARGET_FILE:adaptsim_test_cli> $<TARGET_FILE:adaptsim_compare_results>
                   ${CMAKE_CURRENT_BINARY_DIR}/faults_${_mode})
  set_tests_properties(faults.${_mode} PROPERTIES
    LABELS faults ENVIRONMENT "${_faults_env}" SKIP_RETURN_CODE 77 TIMEOUT 300 PROCESSORS 2
    RESOURCE_LOCK mpi_ranks)
endforeach()
