// SPDX-License-Identifier: GPL-3.0-or-later
// BP128 pack: per-target kernels with runtime dispatch (the index builder's side).
#include "engine/codec/simd/bp128_simd.h"

#include "engine/codec/bp128.h"

#include <array>
#include <cstddef>
#include <utility>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/codec/simd/bp128_pack.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/codec/simd/bp128_pack-inl.h"

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

using PackFn = void (*)(const std::uint32_t*, std::uint32_t*);

template <std::size_t... W>
constexpr std::array<PackFn, 33> makePackKernels(std::index_sequence<W...>) {
  return {&packKernel<static_cast<std::uint32_t>(W)>...};
}

void packBlock(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) {
  static constexpr std::array<PackFn, 33> kKernels = makePackKernels(std::make_index_sequence<33>{});
  kKernels[width](in, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace wandscope::engine::simd {

HWY_EXPORT(packBlock);

void packBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) {
  if (currentTarget() == Target::Scalar) {
    codec::packBp128(in, width, out);
    return;
  }
  HWY_DYNAMIC_DISPATCH(packBlock)(in, width, out);
}

}  // namespace wandscope::engine::simd
#endif  // HWY_ONCE
