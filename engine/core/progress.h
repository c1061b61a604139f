// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace wandscope::engine {

// Progress of a long operation (index build, corpus generation). `total` is 0 when unknown.
struct Progress {
  std::string stage;
  std::uint64_t done = 0;
  std::uint64_t total = 0;
};

// Called from the working thread, at most a few times a second; must be cheap and thread-safe.
using ProgressFn = std::function<void(const Progress&)>;

}  // namespace wandscope::engine
