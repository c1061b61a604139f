// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wandscope::test {

struct ProcessResult {
  int exitCode = -1;  // -1 if it did not exit normally (signal)
  int signal = 0;
  std::string out;
  std::string err;
  bool signalSent = false;  // runProcessAndSignal: whether the signal went out
};

// Runs a program with arguments (no shell), capturing stdout and stderr. `extraEnv` entries
// ("NAME=value") are added to the inherited environment, replacing a variable of the same name.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnv = {});

// Runs a program as runProcess does, and sends it `signal` (once) as soon as `ready()` returns
// true and the program has a handler installed for it (or 10 s after `ready`, if it never
// installs one); `ready` is asked every 10 ms while the program runs (e.g. "its temporary file
// has appeared"). If the program ends first, no signal is sent (signalSent stays false).
ProcessResult runProcessAndSignal(const std::string& program, const std::vector<std::string>& args, int signal,
                                  const std::function<bool()>& ready);

// Runs `body` in a forked child under the resource limit `resource` (setrlimit) of `limit`:
// RLIMIT_FSIZE makes a write past `limit` bytes fail with EFBIG part-way, as a full disk fails one
// (SIGXFSZ is ignored); RLIMIT_AS bounds the memory the child can map.
// exitCode 0: body returned; 1: it threw engine::Error, and `out` is "<kind>: <message>";
// 2: it threw something else (std::bad_alloc under RLIMIT_AS, say). A child that crashed has
// exitCode -1 and its signal.
ProcessResult runWithResourceLimit(int resource, std::uint64_t limit, const std::function<void()>& body);

}  // namespace wandscope::test
