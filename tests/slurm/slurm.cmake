# Slurm tests (label `slurm`, included by tests/CMakeLists.txt): the slurm/*.sbatch scripts on the
# one-node Slurm of scripts/slurm-local, started by the fixture test slurm_start (as root; without
# root every slurm test skips) and stopped by slurm_stop when slurm_start started it.
set(_slurm_marker ${CMAKE_CURRENT_BINARY_DIR}/slurm_started_by_tests)
set(_slurm_dir ${CMAKE_CURRENT_BINARY_DIR}/slurm)
add_test(NAME slurm_start COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cluster.sh setup
                                 ${PROJECT_SOURCE_DIR} ${_slurm_marker})
add_test(NAME slurm_stop COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cluster.sh cleanup
                                ${PROJECT_SOURCE_DIR} ${_slurm_marker})
set_tests_properties(slurm_start PROPERTIES FIXTURES_SETUP slurm_cluster LABELS slurm
                     SKIP_RETURN_CODE 77 TIMEOUT 300)
set_tests_properties(slurm_stop PROPERTIES FIXTURES_CLEANUP slurm_cluster LABELS slurm
                     SKIP_RETURN_CODE 77 TIMEOUT 60)
foreach(_mode test-only smoke requeue)
  # The requeue test's slow tasks use the test-aid policy `fail_after` (tests/test_aids/), which
  # only the test build of the command line registers.
  set(_binary adaptsim)
  if(_mode STREQUAL "requeue")
    set(_binary adaptsim_test_cli)
  endif()
  add_test(NAME slurm_${_mode}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/slurm_checks.py ${_mode}
                   --source ${PROJECT_SOURCE_DIR} --adaptsim $<TARGET_FILE:${_binary}>
                   --workdir ${_slurm_dir}/${_mode} --data ${ADAPTSIM_DEFAULT_DATA_DIR})
  # mpirun (one of the launchers the smoke test submits) refuses root without these.
  set_tests_properties(slurm_${_mode} PROPERTIES
    FIXTURES_REQUIRED slurm_cluster LABELS slurm
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
    SKIP_RETURN_CODE 77 TIMEOUT 450)
endforeach()
