// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/arrival_schedule.h"

#include "engine/core/error.h"

#include <cmath>
#include <limits>
#include <string>

namespace wandscope::engine {
namespace {

__extension__ using Uint128 = unsigned __int128;

constexpr std::uint64_t kNsPerSecondTimesMilli = 1'000'000'000ull * 1000ull;

}  // namespace

ArrivalProcess parseArrivalProcess(std::string_view name) {
  if (name == "uniform") return ArrivalProcess::Uniform;
  if (name == "poisson") return ArrivalProcess::Poisson;
  throwUsage("unknown arrival process '" + std::string(name) + "' (expected uniform or poisson)");
}

const char* arrivalProcessName(ArrivalProcess process) noexcept {
  return process == ArrivalProcess::Uniform ? "uniform" : "poisson";
}

double unitInterval(std::uint64_t bits) noexcept {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

ArrivalSchedule::ArrivalSchedule(ArrivalProcess process, double rate, std::uint64_t seed)
    : m_process(process), m_milliRate(0), m_seed(seed) {
  if (!std::isfinite(rate) || rate < kMinRate || rate > kMaxRate) {
    throwUsage("arrival rate must be between 0.001/s and 1e7/s, got " + std::to_string(rate));
  }
  m_milliRate = static_cast<std::uint64_t>(std::llround(rate * 1000.0));
}

std::int64_t ArrivalSchedule::uniformOffsetNs(std::uint64_t i) const noexcept {
  const Uint128 num = static_cast<Uint128>(i) * kNsPerSecondTimesMilli;
  const Uint128 q = num / m_milliRate;
  return q > static_cast<Uint128>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(q);
}

std::vector<std::int64_t> ArrivalSchedule::generate(std::int64_t endNs, std::size_t limit) const {
  std::vector<std::int64_t> out;
  if (m_process == ArrivalProcess::Uniform) {
    for (std::uint64_t i = 0; out.size() < limit; ++i) {
      const std::int64_t t = uniformOffsetNs(i);
      if (t >= endNs) break;
      out.push_back(t);
    }
    return out;
  }
  std::uint64_t state = m_seed;
  const double meanGapNs = 1e12 / static_cast<double>(m_milliRate);
  double t = 0;
  while (out.size() < limit) {
    const auto rounded = static_cast<std::int64_t>(std::llround(t));
    if (rounded >= endNs) break;
    out.push_back(rounded);
    t += -std::log1p(-unitInterval(splitMix64(state))) * meanGapNs;
  }
  return out;
}

std::vector<std::int64_t> ArrivalSchedule::offsetsBefore(std::int64_t endNs, std::size_t limit) const {
  return generate(endNs, limit);
}

std::vector<std::int64_t> ArrivalSchedule::firstOffsets(std::size_t n) const {
  return generate(std::numeric_limits<std::int64_t>::max(), n);
}

}  // namespace wandscope::engine
