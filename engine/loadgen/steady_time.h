// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stop_token>

namespace wandscope::engine {

// All load-generator times are steady-clock (CLOCK_MONOTONIC) nanoseconds held in a signed 64-bit
// integer: exact, cheap to subtract, and good for 292 years.
std::int64_t steadyNowNs() noexcept;

// Waits until steadyNowNs() >= deadline: sleeps (absolute clock_nanosleep, in slices of at most
// 50 ms so a stop request is noticed) until `spinNs` before the deadline, then spins. Sleeping
// alone is good to ~0.1-1 ms (wrk2's +-1 ms); the spin makes the wake-up exact at the cost of up to
// `spinNs` of CPU per wait. Returns false (early) when `stop` is requested.
bool waitUntilNs(std::int64_t deadline, std::int64_t spinNs, std::stop_token stop = {});

}  // namespace wandscope::engine
