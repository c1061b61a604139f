# SPDX-License-Identifier: GPL-3.0-or-later
# Every public engine header must compile on its own (pisa's self-containment check): one tiny
# translation unit per header, built into an object library that nothing links.
function(wandscope_header_check target)
  set(options)
  set(oneValueArgs ROOT)
  set(multiValueArgs HEADERS LINK)
  cmake_parse_arguments(ARG "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  set(sources)
  foreach(header IN LISTS ARG_HEADERS)
    string(MAKE_C_IDENTIFIER "${header}" id)
    set(tu ${CMAKE_CURRENT_BINARY_DIR}/header_check/${id}.cpp)
    file(CONFIGURE OUTPUT ${tu} CONTENT "#include \"${header}\"\n#include \"${header}\"\n")
    list(APPEND sources ${tu})
  endforeach()
  add_library(${target} OBJECT EXCLUDE_FROM_ALL ${sources})
  target_link_libraries(${target} PRIVATE ${ARG_LINK})
  wandscope_engine_warnings(${target})
endfunction()
