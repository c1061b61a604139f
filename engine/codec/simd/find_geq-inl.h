// SPDX-License-Identifier: GPL-3.0-or-later
// find_next_geq kernels for one Highway target; re-included once per target by find_geq.cpp.
#include "engine/codec/simd/find_geq.h"

#include <cstddef>
#include <cstdint>

#if defined(WANDSCOPE_CODEC_SIMD_FIND_GEQ_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_FIND_GEQ_INL_H_
#undef WANDSCOPE_CODEC_SIMD_FIND_GEQ_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_FIND_GEQ_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128

inline std::size_t findNextGeqImpl(const std::uint32_t* values, std::size_t n, std::uint32_t target) {
  return scalar::findNextGeq(values, n, target);
}
inline std::size_t countBelowImpl(const std::uint32_t* values, std::size_t n, std::uint32_t target) {
  return scalar::countBelow(values, n, target);
}

#else

// v >= t for unsigned lanes. AVX-512 compares unsigned into a mask register natively; below it,
// max(v, t) == v costs the same two instructions as biasing both sides by the sign bit for a
// signed compare, and needs no constant.
template <class D, class V>
HWY_INLINE hn::Mask<D> geqU32(D /*d*/, V v, V t) {
#if HWY_TARGET <= HWY_AVX3
  return hn::Not(hn::Lt(v, t));
#else
  return hn::Eq(hn::Max(v, t), v);
#endif
}

template <class D>
HWY_INLINE std::size_t findNextGeqIn(D d, const std::uint32_t* HWY_RESTRICT values, std::size_t n,
                                     std::uint32_t target) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  const auto t = hn::Set(d, target);
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const auto ge = geqU32(d, hn::LoadU(d, values + i), t);
    if (!hn::AllFalse(d, ge)) return i + hn::FindKnownFirstTrue(d, ge);
  }
  if (i == n) return n;
  if (n >= kLanes) {
    // The last vector, overlapping lanes already rejected (which stay rejected).
    const std::size_t start = n - kLanes;
    const auto ge = geqU32(d, hn::LoadU(d, values + start), t);
    const auto fresh = hn::Not(hn::FirstN(d, i - start));
    const auto m = hn::And(ge, fresh);
    return hn::AllFalse(d, m) ? n : start + hn::FindKnownFirstTrue(d, m);
  }
#if HWY_TARGET <= HWY_AVX2
  // Shorter than one vector: a masked load (AVX2 and AVX-512 suppress faults in masked-off lanes).
  const auto valid = hn::FirstN(d, n);
  const auto m = hn::And(geqU32(d, hn::MaskedLoad(valid, d, values), t), valid);
  return hn::AllFalse(d, m) ? n : hn::FindKnownFirstTrue(d, m);
#else
  for (; i < n; ++i) {
    if (values[i] >= target) return i;
  }
  return n;
#endif
}

inline std::size_t findNextGeqImpl(const std::uint32_t* HWY_RESTRICT values, std::size_t n,
                                   std::uint32_t target) {
  const hn::ScalableTag<std::uint32_t> d;
  return findNextGeqIn(d, values, n, target);
}

// Every vector compared and its lanes below the target counted: no branch depends on the values.
inline std::size_t countBelowImpl(const std::uint32_t* HWY_RESTRICT values, std::size_t n, std::uint32_t target) {
  const hn::ScalableTag<std::uint32_t> d;
  constexpr std::size_t kLanes = hn::MaxLanes(decltype(d)());
  const auto t = hn::Set(d, target);
  std::size_t below = 0;
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) below += hn::CountTrue(d, hn::Not(geqU32(d, hn::LoadU(d, values + i), t)));
  if (i == n) return below;
#if HWY_TARGET <= HWY_AVX2
  // The rest: a masked load (AVX2 and AVX-512 suppress faults in masked-off lanes).
  const auto valid = hn::FirstN(d, n - i);
  below += hn::CountTrue(d, hn::AndNot(geqU32(d, hn::MaskedLoad(valid, d, values + i), t), valid));
#else
  for (; i < n; ++i) below += values[i] < target ? 1 : 0;
#endif
  return below;
}

#endif  // HWY_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
