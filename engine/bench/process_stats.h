// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <ctime>

namespace wandscope::engine {

// What the operating system says the whole process has used so far (getrusage RUSAGE_SELF and
// CLOCK_PROCESS_CPUTIME_ID). Reports use differences of two snapshots taken at the two ends of one
// window, never totals since process start.
struct ProcessSnapshot {
  std::int64_t cpuNs = 0;        // process CPU time, all threads
  std::uint64_t minflt = 0;      // minor page faults
  std::uint64_t majflt = 0;      // major page faults (a read from disk)
  std::uint64_t nvcsw = 0;       // voluntary context switches (blocked: I/O, locks, sleeps)
  std::uint64_t nivcsw = 0;      // involuntary context switches (preempted: too few cores)

  static ProcessSnapshot take() noexcept;
  ProcessSnapshot operator-(const ProcessSnapshot& earlier) const noexcept;
};

// Resident set size from /proc/self/statm (0 when unavailable). Cheap enough for 10 Hz sampling.
std::uint64_t residentBytes() noexcept;

// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in ns.
std::int64_t threadCpuNs() noexcept;

// A handle on one thread's CPU clock that other threads can read (pthread_getcpuclockid): the
// runner reads the dispatcher's and the monitor's CPU at the two ends of a window so their cost
// can be reported apart from the queries'. Default-constructed handles read 0.
class ThreadCpuClock {
 public:
  ThreadCpuClock() = default;
  // The calling thread's clock.
  static ThreadCpuClock ofCurrentThread() noexcept;
  std::int64_t nowNs() const noexcept;
  bool valid() const noexcept { return m_valid; }

 private:
  clockid_t m_clock{};
  bool m_valid = false;
};

}  // namespace wandscope::engine
