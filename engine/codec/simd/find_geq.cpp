// SPDX-License-Identifier: GPL-3.0-or-later
// find_next_geq: per-target kernels with runtime dispatch, and the scalar reference.
#include "engine/codec/simd/find_geq.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/codec/simd/find_geq.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/codec/simd/find_geq-inl.h"

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

FindNextGeqFn findNextGeqTable() { return &findNextGeqImpl; }
CountBelowFn countBelowTable() { return &countBelowImpl; }

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace wandscope::engine::simd {

HWY_EXPORT(findNextGeqTable);
HWY_EXPORT(countBelowTable);

std::size_t scalar::findNextGeq(const std::uint32_t* values, std::size_t n, std::uint32_t target) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    if (values[i] >= target) return i;
  }
  return n;
}

std::size_t scalar::countBelow(const std::uint32_t* values, std::size_t n, std::uint32_t target) noexcept {
  std::size_t below = 0;
  for (std::size_t i = 0; i < n; ++i) below += values[i] < target ? 1 : 0;
  return below;
}

CountBelowFn countBelowKernel() {
  if (currentTarget() == Target::Scalar) return &scalar::countBelow;
  return HWY_DYNAMIC_DISPATCH(countBelowTable)();
}

FindNextGeqFn findNextGeqKernel() {
  if (currentTarget() == Target::Scalar) return &scalar::findNextGeq;
  return HWY_DYNAMIC_DISPATCH(findNextGeqTable)();
}

std::size_t findNextGeq(const std::uint32_t* values, std::size_t n, std::uint32_t target) {
  return findNextGeqKernel()(values, n, target);
}

}  // namespace wandscope::engine::simd
#endif  // HWY_ONCE
