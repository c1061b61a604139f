// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer's entry point for one target; WANDSCOPE_FUZZ_FUNCTION names it (tests/fuzz/CMakeLists.txt).
#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wandscope::test::WANDSCOPE_FUZZ_FUNCTION(data, size);
}
