// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/split_mix64.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace wandscope::engine {

enum class ArrivalProcess { Uniform, Poisson };
ArrivalProcess parseArrivalProcess(std::string_view name);  // "uniform" | "poisson"; throws Usage
const char* arrivalProcessName(ArrivalProcess process) noexcept;

// The open loop's one global schedule: when request i is due, as an offset in steady-clock ns
// from the rung's t0, decided before the rung starts and independent of what any earlier request
// is doing (a single schedule for the whole rate, never split per thread: wrk2 #147).
//
// Uniform: due_i = floor(i * 1e9 / rate), computed from i alone in 128-bit integer arithmetic with
// the rate held exactly as milli-requests per second, so there is no accumulated error at any i
// (at 1e6/s request 1e6 is due at exactly 1 s). Rates are rounded to 0.001/s; rate() is the rate
// actually scheduled.
//
// Poisson: exponential gaps of mean 1/rate drawn from a seeded SplitMix64 stream with an explicit
// transform (-ln(1 - u), u from the top 53 bits), so the same seed gives the same schedule on
// every compiler and standard library. Request 0 is due at 0; due_i is the sum of i gaps, kept
// in double (exact in ns to 2^53 ns = 104 days) and rounded once per request.
class ArrivalSchedule {
 public:
  static constexpr double kMinRate = 0.001;
  static constexpr double kMaxRate = 10'000'000;

  // Throws Usage for a rate outside [kMinRate, kMaxRate] or not finite.
  ArrivalSchedule(ArrivalProcess process, double rate, std::uint64_t seed = 0);

  ArrivalProcess process() const noexcept { return m_process; }
  double rate() const noexcept { return static_cast<double>(m_milliRate) / 1000.0; }
  std::uint64_t seed() const noexcept { return m_seed; }

  // Uniform only: the offset of request i.
  std::int64_t uniformOffsetNs(std::uint64_t i) const noexcept;

  // The offsets of every request due before `endNs` (offsets < endNs), at most `limit` of them.
  std::vector<std::int64_t> offsetsBefore(std::int64_t endNs, std::size_t limit) const;
  // The offsets of the first n requests.
  std::vector<std::int64_t> firstOffsets(std::size_t n) const;

 private:
  std::vector<std::int64_t> generate(std::int64_t endNs, std::size_t limit) const;

  ArrivalProcess m_process;
  std::uint64_t m_milliRate;
  std::uint64_t m_seed;
};

// The load generator draws every random number from engine/core/split_mix64.h's seeded stream.
// A uniform double in [0, 1) from the top 53 bits of `bits`.
double unitInterval(std::uint64_t bits) noexcept;

}  // namespace wandscope::engine
