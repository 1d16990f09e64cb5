# adaptsim_write_if_changed(FILE TEXT): writes TEXT to FILE unless FILE already holds it, so a
# generated source that did not change recompiles and relinks nothing. Included by the build-time
# generators cmake/git_revision.cmake and cmake/labels_text.cmake.
function(adaptsim_write_if_changed file text)
  if(EXISTS ${file})
    file(READ ${file} old)
  else()
    set(old "")
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${file} "${text}")
  endif()
endfunction()
