# SPDX-License-Identifier: GPL-3.0-or-later
# Per-target warning sets. Engine code is held to the strictest set (Highway's); -Werror only in CI.
function(wandscope_engine_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion
    -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
  if(WANDSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(wandscope_app_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_USE_QSTRINGBUILDER QT_NO_FOREACH)
  if(WANDSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(wandscope_test_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(WANDSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
