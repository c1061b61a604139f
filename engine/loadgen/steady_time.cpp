// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/steady_time.h"

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace wandscope::engine {
namespace {

constexpr std::int64_t kSliceNs = 50'000'000;

inline void cpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void sleepUntilAbsolute(std::int64_t deadline) noexcept {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(deadline / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(deadline % 1'000'000'000);
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

std::int64_t steadyNowNs() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(ts.tv_nsec);
}

bool waitUntilNs(std::int64_t deadline, std::int64_t spinNs, std::stop_token stop) {
  const std::int64_t wake = deadline - std::max<std::int64_t>(spinNs, 0);
  for (std::int64_t now = steadyNowNs(); now < wake; now = steadyNowNs()) {
    if (stop.stop_requested()) return false;
    sleepUntilAbsolute(std::min(wake, now + kSliceNs));
  }
  std::uint32_t spins = 0;
  while (steadyNowNs() < deadline) {
    cpuRelax();
    if ((++spins & 1023u) == 0 && stop.stop_requested()) return false;
  }
  return !stop.stop_requested();
}

}  // namespace wandscope::engine
