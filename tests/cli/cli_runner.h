// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tests/support/process.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::test {

// Runs this build's wandscope-cli (WANDSCOPE_CLI) with `args` and extra environment entries.
inline ProcessResult cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  return runProcess(WANDSCOPE_CLI, args, env);
}

// The commit the source tree is at (`git rev-parse HEAD`), or nothing when the sources are not a
// git checkout or git is missing (a tarball): what a fresh build must report as its revision.
inline std::optional<std::string> sourceHead() {
  const std::string source = WANDSCOPE_SOURCE_DIR;
  if (!std::filesystem::exists(source + "/.git") || !std::filesystem::exists("/usr/bin/git")) return std::nullopt;
  const auto r = runProcess("/usr/bin/git", {"-C", source, "rev-parse", "HEAD"});
  if (r.exitCode != 0 || r.out.size() < 41) return std::nullopt;
  return r.out.substr(0, r.out.find('\n'));
}

inline std::size_t countLines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace wandscope::test
