// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wandscope::test {

struct ProcessResult {
  int exitCode = -1;  // -1 if it did not exit normally (signal)
  int signal = 0;
  std::string out;
  std::string err;
};

// Runs a program with arguments (no shell), capturing stdout and stderr.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnv = {});

}  // namespace wandscope::test
