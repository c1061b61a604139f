# SPDX-License-Identifier: GPL-3.0-or-later
# The git commit and dirty flag at configure time, recorded in every report's environment.
find_package(Git QUIET)
set(WANDSCOPE_GIT_COMMIT "unknown")
set(WANDSCOPE_GIT_DIRTY "unknown")
if(GIT_FOUND AND EXISTS ${CMAKE_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    OUTPUT_VARIABLE WANDSCOPE_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE _dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_dirty)
    set(WANDSCOPE_GIT_DIRTY "dirty")
  else()
    set(WANDSCOPE_GIT_DIRTY "clean")
  endif()
  if(NOT WANDSCOPE_GIT_COMMIT)
    set(WANDSCOPE_GIT_COMMIT "unknown")
  endif()
endif()
