// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tests/support/process.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace wandscope::test {

// Runs this build's wandscope-cli (WANDSCOPE_CLI) with `args` and extra environment entries.
inline ProcessResult cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  return runProcess(WANDSCOPE_CLI, args, env);
}

inline std::size_t countLines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace wandscope::test
