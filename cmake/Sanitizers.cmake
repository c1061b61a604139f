# SPDX-License-Identifier: GPL-3.0-or-later
# WANDSCOPE_SANITIZE=address,undefined | thread applies to every target of the build.
if(WANDSCOPE_SANITIZE)
  add_compile_options(-fsanitize=${WANDSCOPE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${WANDSCOPE_SANITIZE})
endif()
