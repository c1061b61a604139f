// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/process.h"

#include "engine/core/error.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

extern char** environ;

namespace wandscope::test {

namespace {

// Whether process `pid` has installed a handler for `signal` (SigCgt in /proc/<pid>/status).
bool catchesSignal(pid_t pid, int signal) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("SigCgt:", 0) == 0) return ((std::stoull(line.substr(7), nullptr, 16) >> (signal - 1)) & 1u) != 0;
  }
  return false;
}

// runProcess with a hook: `tick(pid)`, when given, is called every 10 ms or so while the child's
// output is read.
ProcessResult spawnAndCollect(const std::string& program, const std::vector<std::string>& args,
                              const std::vector<std::string>& extraEnv, const std::function<void(pid_t)>& tick) {
  int outPipe[2];
  int errPipe[2];
  if (::pipe(outPipe) != 0 || ::pipe(errPipe) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  posix_spawn_file_actions_addclose(&actions, outPipe[0]);
  posix_spawn_file_actions_addclose(&actions, errPipe[0]);
  std::vector<std::string> argStore = {program};
  argStore.insert(argStore.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argStore) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The extra variables replace the inherited ones of the same name: appended after them, getenv
  // would still find the inherited value first (QT_QPA_PLATFORM=offscreen of the test process).
  const auto nameOf = [](const std::string& entry) { return entry.substr(0, entry.find('=') + 1); };
  std::vector<std::string> envStore;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const bool replaced = std::any_of(extraEnv.begin(), extraEnv.end(),
                                      [&](const std::string& x) { return nameOf(x) == nameOf(entry); });
    if (!replaced) envStore.push_back(entry);
  }
  envStore.insert(envStore.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char*> envp;
  for (auto& e : envStore) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  if (rc != 0) {
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    throw std::runtime_error("cannot start " + program + ": " + std::strerror(rc));
  }
  ProcessResult result;
  std::array<pollfd, 2> fds{{{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}}};
  int open = 2;
  std::array<char, 65536> buf{};
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), tick ? 10 : -1) < 0) break;
    if (tick) tick(pid);
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP)) == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf.data(), buf.size());
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      } else {
        (i == 0 ? result.out : result.err).append(buf.data(), static_cast<std::size_t>(n));
      }
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnv) {
  return spawnAndCollect(program, args, extraEnv, {});
}

ProcessResult runProcessAndSignal(const std::string& program, const std::vector<std::string>& args, int signal,
                                  const std::function<bool()>& ready) {
  bool sent = false;
  std::optional<std::chrono::steady_clock::time_point> readyAt;
  ProcessResult result = spawnAndCollect(program, args, {}, [&](pid_t pid) {
    if (sent) return;
    const auto now = std::chrono::steady_clock::now();
    if (!readyAt) {
      if (!ready()) return;
      readyAt = now;
    }
    // Once the program has installed its handler: a sanitizer build or a loaded machine can take
    // longer to get there than `ready` assumes, and the default action then killed it (ASan,
    // stop 34: queries gen signalled 150 ms after its start). A program that never installs one
    // gets the signal 10 s after `ready`, and the test sees it killed.
    if (catchesSignal(pid, signal) || now - *readyAt > std::chrono::seconds(10)) sent = ::kill(pid, signal) == 0;
  });
  result.signalSent = sent;
  return result;
}

ProcessResult runWithResourceLimit(int resource, std::uint64_t limit, const std::function<void()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit value{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
    ::setrlimit(static_cast<__rlimit_resource_t>(resource), &value);
    std::string message;
    int code = 0;
    try {
      body();
    } catch (const engine::Error& e) {
      message = std::string(engine::errorKindName(e.kind())) + ": " + e.what();
      code = 1;
    } catch (...) {
      message = "not an engine::Error";
      code = 2;
    }
    (void)!::write(fds[1], message.data(), message.size());
    ::_exit(code);
  }
  ::close(fds[1]);
  ProcessResult result;
  std::array<char, 512> buf{};
  for (ssize_t n; (n = ::read(fds[0], buf.data(), buf.size())) > 0;) result.out.append(buf.data(), static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace wandscope::test
