// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace wandscope::engine {

float conservativeSum(std::span<const float> bounds) noexcept {
  double sum = 0.0;
  for (float b : bounds) sum += static_cast<double>(b);
  return conservativeBound(sum, sumUpperBoundFactor(bounds.size()));
}

float exclusivePartialScoreLimit(float floor, double remaining, double factor) noexcept {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (!scoreSumCannotCompete(0.0f, remaining, floor, factor)) return -kInf;
  const float maxFinite = std::numeric_limits<float>::max();
  if (scoreSumCannotCompete(maxFinite, remaining, floor, factor)) return kInf;
  // Non-negative f32 values are ordered like their bit patterns. Start next to the analytic
  // answer floor / factor - remaining and step ULP by ULP (a couple of steps in practice); fall
  // back to bisection over the bit patterns if that does not settle quickly.
  std::uint32_t lo = 0;                                        // rejected
  std::uint32_t hi = std::bit_cast<std::uint32_t>(maxFinite);  // accepted
  const double guess = static_cast<double>(floor) / factor - remaining;
  if (guess > 0.0 && guess < static_cast<double>(maxFinite)) {
    std::uint32_t g = std::bit_cast<std::uint32_t>(static_cast<float>(guess));
    for (int step = 0; step < 8; ++step) {
      if (scoreSumCannotCompete(std::bit_cast<float>(g), remaining, floor, factor)) {
        lo = std::max(lo, g);
        if (!scoreSumCannotCompete(std::bit_cast<float>(g + 1), remaining, floor, factor)) return std::bit_cast<float>(g);
        ++g;
      } else {
        hi = std::min(hi, g);
        if (g == 0) break;
        --g;
      }
    }
  }
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (scoreSumCannotCompete(std::bit_cast<float>(mid), remaining, floor, factor)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return std::bit_cast<float>(lo);
}

}  // namespace wandscope::engine
