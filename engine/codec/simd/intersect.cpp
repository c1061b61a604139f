// SPDX-License-Identifier: GPL-3.0-or-later
// Intersection kernels: per-target tables with runtime dispatch; "scalar" is merge_kernels.h.
#include "engine/codec/simd/intersect.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/codec/simd/intersect.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/codec/simd/intersect-inl.h"

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

const IntersectKernels* intersectTable() {
  static constexpr IntersectKernels kTable{&intersect2Impl, &intersect3Impl, &intersectNImpl,
                                           &intersectRunsImpl, thisTarget()};
  return &kTable;
}

// avx3_vp2: the AVX3 kernels with the VP2INTERSECT long runs (the other targets have no such
// table; a forced avx3_vp2 always dispatches to AVX3).
const IntersectKernels* intersectTableVp2() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3  // AVX3 and any later AVX-512 target Highway may pick
  static constexpr IntersectKernels kTable{&intersect2Impl, &intersect3Impl, &intersectNImpl,
                                           &intersectRunsVp2Impl, Target::Avx3Vp2};
  return &kTable;
#else
  return intersectTable();
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace wandscope::engine::simd {

HWY_EXPORT(intersectTable);
HWY_EXPORT(intersectTableVp2);

namespace {
constexpr IntersectKernels kScalarKernels{&engine::intersect2, &engine::intersect3,
                                          &engine::intersectN, &engine::intersectRuns, Target::Scalar};
}  // namespace

const IntersectKernels& intersectKernels() {
  const Target target = currentTarget();
  if (target == Target::Scalar) return kScalarKernels;
  if (target == Target::Avx3Vp2) return *HWY_DYNAMIC_DISPATCH(intersectTableVp2)();
  return *HWY_DYNAMIC_DISPATCH(intersectTable)();
}

std::size_t intersect2(const MergeSlice& a, const MergeSlice& b, DocId* out, std::uint8_t* offsets) {
  return intersectKernels().intersect2(a, b, out, offsets);
}

std::size_t intersect3(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c, DocId* out,
                       std::uint8_t* offsets) {
  return intersectKernels().intersect3(a, b, c, out, offsets);
}

std::size_t intersectN(const MergeSlice* slices, std::size_t n, DocId* out, std::uint8_t* offsets) {
  return intersectKernels().intersectN(slices, n, out, offsets);
}

}  // namespace wandscope::engine::simd
#endif  // HWY_ONCE
