// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/process_stats.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>

namespace wandscope::engine {
namespace {

std::int64_t toNs(const timespec& ts) noexcept {
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(ts.tv_nsec);
}

std::uint64_t nonNegative(long v) noexcept { return v < 0 ? 0 : static_cast<std::uint64_t>(v); }

}  // namespace

ProcessSnapshot ProcessSnapshot::take() noexcept {
  ProcessSnapshot s;
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  s.cpuNs = toNs(ts);
  rusage ru{};
  if (::getrusage(RUSAGE_SELF, &ru) == 0) {
    s.minflt = nonNegative(ru.ru_minflt);
    s.majflt = nonNegative(ru.ru_majflt);
    s.nvcsw = nonNegative(ru.ru_nvcsw);
    s.nivcsw = nonNegative(ru.ru_nivcsw);
  }
  return s;
}

ProcessSnapshot ProcessSnapshot::operator-(const ProcessSnapshot& e) const noexcept {
  ProcessSnapshot d;
  d.cpuNs = cpuNs - e.cpuNs;
  d.minflt = minflt - e.minflt;
  d.majflt = majflt - e.majflt;
  d.nvcsw = nvcsw - e.nvcsw;
  d.nivcsw = nivcsw - e.nivcsw;
  return d;
}

std::uint64_t residentBytes() noexcept {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  // "size resident shared text lib data dt", in pages.
  char* end = nullptr;
  (void)std::strtoull(buf, &end, 10);
  const unsigned long long resident = std::strtoull(end, nullptr, 10);
  const long page = ::sysconf(_SC_PAGESIZE);
  return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

std::int64_t threadCpuNs() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return toNs(ts);
}

ThreadCpuClock ThreadCpuClock::ofCurrentThread() noexcept {
  ThreadCpuClock c;
  c.m_valid = ::pthread_getcpuclockid(::pthread_self(), &c.m_clock) == 0;
  return c;
}

std::int64_t ThreadCpuClock::nowNs() const noexcept {
  if (!m_valid) return 0;
  timespec ts{};
  if (::clock_gettime(m_clock, &ts) != 0) return 0;
  return toNs(ts);
}

}  // namespace wandscope::engine
