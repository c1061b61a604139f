# SPDX-License-Identifier: GPL-3.0-or-later
# WANDSCOPE_SANITIZE=address,undefined | thread applies to every target of the build.
if(WANDSCOPE_SANITIZE)
  add_compile_options(-fsanitize=${WANDSCOPE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${WANDSCOPE_SANITIZE})
endif()

# WANDSCOPE_FUZZ=ON (clang only) instruments everything for libFuzzer with ASan and UBSan and builds
# the fuzz_<target> executables of tests/fuzz (scripts/fuzz.sh: build/fuzz).
option(WANDSCOPE_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(WANDSCOPE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WANDSCOPE_FUZZ=ON needs clang (libFuzzer): CC=clang CXX=clang++")
  endif()
  if(WANDSCOPE_SANITIZE)
    message(FATAL_ERROR "WANDSCOPE_FUZZ=ON brings its own sanitizers; leave WANDSCOPE_SANITIZE empty")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

# clang links a sanitizer runtime into executables only: a shared object compiled with -fsanitize
# leaves the runtime's symbols (__tsan_*, __asan_*) for the executable to provide, so
# -Wl,--no-undefined cannot hold there (g++ links libasan.so into the shared object and can).
# Modules that want the check link with ${WANDSCOPE_LINK_NO_UNDEFINED}.
set(WANDSCOPE_LINK_NO_UNDEFINED -Wl,--no-undefined)
if((WANDSCOPE_SANITIZE OR WANDSCOPE_FUZZ) AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(WANDSCOPE_LINK_NO_UNDEFINED "")
endif()
