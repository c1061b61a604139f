# SPDX-License-Identifier: GPL-3.0-or-later
# The git commit and dirty flag of the sources when a target is *built*, recorded in every
# report's environment, the plugin's build id and `--version`. Taken at every build, not at
# configure time: a build directory reused across commits would otherwise label a new build with
# the commit it was configured at. The header is rewritten only when its content changes, so an
# unchanged revision recompiles nothing.
#
#   wandscope_git_revision(target)  # makes `#include "wandscope_git_revision.h"` work in target
#                                   # (WANDSCOPE_GIT_COMMIT, WANDSCOPE_GIT_DIRTY: "clean", "dirty"
#                                   # or "unknown")
find_package(Git QUIET)
set(WANDSCOPE_GIT_REVISION_DIR ${CMAKE_BINARY_DIR}/generated/git_revision)
add_custom_target(wandscope_git_revision
  COMMAND ${CMAKE_COMMAND} -DGIT_EXECUTABLE=${GIT_EXECUTABLE} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DOUTPUT=${WANDSCOPE_GIT_REVISION_DIR}/wandscope_git_revision.h
          -P ${CMAKE_CURRENT_LIST_DIR}/GitRevisionWrite.cmake
  BYPRODUCTS ${WANDSCOPE_GIT_REVISION_DIR}/wandscope_git_revision.h
  VERBATIM)

function(wandscope_git_revision target)
  add_dependencies(${target} wandscope_git_revision)
  target_include_directories(${target} PRIVATE ${WANDSCOPE_GIT_REVISION_DIR})
endfunction()
