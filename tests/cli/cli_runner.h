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

// An open-loop profile of a synthetic target whose every rung's generator is "behind" its
// schedule: a late-dispatch limit of 1 ns with no late dispatch allowed. Two rungs of 40 requests.
inline constexpr const char* kGeneratorBehindProfile = R"({"name": "cli-behind", "dataset": "none",
    "targets": ["synthetic:service_us=100"], "mode": "open",
    "ladder": {"rates": [100, 200], "settle_s": 0.05, "requests": 40, "workers": 2, "in_flight_cap": 256},
    "rule": {"late_dispatch_us": 0.001, "max_late_dispatch_fraction": 0}})";

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
