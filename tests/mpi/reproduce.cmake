# `adaptsim reproduce` end to end on reduced sweeps (tests/reproduce/*.toml; the longest task,
# Pollux on the 160-job realistic workload, takes 1-2 min): each paper under mpiexec -n 2, then
# tests/mpi/reproduce_check.py checks the figures (each one's CSV equals the results files, no
# text element with '{' or over 40 characters), the report's numbers against the results files,
# and that a rerun resumes (runs no task) and redraws.
foreach(_paper shockwave pollux gavel)
  set(_rout ${CMAKE_CURRENT_BINARY_DIR}/reproduce_quick/${_paper})
  add_test(NAME reproduce_quick_${_paper}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/reproduce_quick.sh ${ADAPTSIM_DEFAULT_DATA_DIR}
                   ${ADAPTSIM_MPIEXEC} $<TARGET_FILE:adaptsim> ${_paper} ${_rout}
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(reproduce_quick_${_paper} PROPERTIES
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
    SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 2 RESOURCE_LOCK mpi_ranks)
endforeach()
