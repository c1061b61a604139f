// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <span>

namespace wandscope::engine {

// Bound arithmetic that never under-estimates a document's f32 score (docs/SCORING.md, "Bounds").
//
// A document's score is an f32 sum, in query order, of per-term contributions. A pruning decision
// compares an upper bound of that sum with the floor (the k-th score). Summing bounds in f32 can
// round down and reject a document that scores above the floor, so bounds are summed in f64,
// widened by sumUpperBoundFactor(n) to cover the rounding of an n-term f32 sum in any order, and
// rounded outward to f32 before the comparison. The floor is exclusive: a document is rejected
// when its bound is <= the floor (see TopKCollector).

// 1 for n <= 2 (an f32 sum of two values rounds to nearest, which the outward-rounded f64 sum
// bounds); otherwise 1 + 2 (n - 1) eps_f32.
inline double sumUpperBoundFactor(std::size_t n) noexcept {
  if (n <= 2) return 1.0;
  return 1.0 + 2.0 * static_cast<double>(n - 1) * static_cast<double>(std::numeric_limits<float>::epsilon());
}

// The smallest f32 >= x (x in f64). NaN stays NaN, +inf stays +inf.
inline float outwardF32(double x) noexcept {
  const float f = static_cast<float>(x);
  if (static_cast<double>(f) < x) return std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// The f32 bound of (partial + remaining) over an n-term sum: f64 sum, widened, rounded outward.
// NaN inputs give +inf (no pruning on poisoned values).
inline float conservativeBound(double partialPlusRemaining, double factor) noexcept {
  const double b = partialPlusRemaining * factor;
  if (std::isnan(b)) return std::numeric_limits<float>::infinity();
  return outwardF32(b);
}

// Whether a document whose exact partial score so far is `partial` (f32) and whose remaining terms
// contribute at most `remaining` (f64) cannot beat the exclusive `floor`.
inline bool scoreSumCannotCompete(float partial, double remaining, float floor, double factor) noexcept {
  return conservativeBound(static_cast<double>(partial) + remaining, factor) <= floor;
}

// Whether conservativeBound(sum, factor) > floor, decided in f64: the smallest f32 >= x is > an
// f32 floor exactly when x > floor, and a NaN bound counts as +inf. The same decisions as
// scoreSumCannotCompete (which is !beatsFloor(partial + remaining, ...)) without the nextafter, for
// the pruning paths' hot loops (checked by or_algorithms_test and score_bounds_test).
inline bool beatsFloor(double sum, double factor, double floor) noexcept { return !(sum * factor <= floor); }

// f32 bound of a sum of f32 bounds (f64 sum, widened by the factor for `bounds.size()` terms).
float conservativeSum(std::span<const float> bounds) noexcept;

// The largest f32 partial score p >= 0 that scoreSumCannotCompete(p, remaining, floor, factor)
// rejects. Because the predicate is monotone in p, "p <= limit" is then exactly "rejected": one f32
// comparison replaces the f64 bound arithmetic for every candidate and every prune-table bucket,
// with bit-identical decisions. Returns -inf when even p = 0 can compete (nothing is rejected) and
// +inf when every finite p is rejected (e.g. floor = +inf).
float exclusivePartialScoreLimit(float floor, double remaining, double factor) noexcept;

}  // namespace wandscope::engine
