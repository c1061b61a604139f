// SPDX-License-Identifier: GPL-3.0-or-later
// BP128 unpack: one kernel table per Highway target (foreach_target), runtime dispatch, and the
// scalar reference's table for the "scalar" target.
#include "engine/codec/simd/bp128_simd.h"

#include "engine/codec/bp128.h"

#include <cstddef>
#include <utility>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/codec/simd/bp128_unpack.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/codec/simd/bp128-inl.h"

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

template <std::size_t... W>
constexpr Bp128Kernels makeBp128Kernels(std::index_sequence<W...>) {
  return Bp128Kernels{{&unpackKernel<static_cast<std::uint32_t>(W)>...},
                      {&unpackPlusOneKernel<static_cast<std::uint32_t>(W)>...},
                      {&unpackDeltaKernel<static_cast<std::uint32_t>(W)>...},
                      thisTarget()};
}

const Bp128Kernels* bp128KernelTable() {
  static constexpr Bp128Kernels kTable = makeBp128Kernels(std::make_index_sequence<33>{});
  return &kTable;
}

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace wandscope::engine::simd {
namespace {

template <std::uint32_t W>
void scalarUnpack(const std::uint32_t* in, std::uint32_t* out) {
  codec::unpackBp128(in, W, out);
}
template <std::uint32_t W>
void scalarUnpackPlusOne(const std::uint32_t* in, std::uint32_t* out) {
  codec::unpackBp128PlusOne(in, W, out);
}
template <std::uint32_t W>
void scalarUnpackDelta(const std::uint32_t* in, std::uint32_t base, std::uint32_t* out) {
  codec::unpackBp128Delta(in, W, base, out);
}
template <std::size_t... W>
constexpr Bp128Kernels makeScalarKernels(std::index_sequence<W...>) {
  return Bp128Kernels{{&scalarUnpack<static_cast<std::uint32_t>(W)>...},
                      {&scalarUnpackPlusOne<static_cast<std::uint32_t>(W)>...},
                      {&scalarUnpackDelta<static_cast<std::uint32_t>(W)>...},
                      Target::Scalar};
}
constexpr Bp128Kernels kScalarKernels = makeScalarKernels(std::make_index_sequence<33>{});

}  // namespace

HWY_EXPORT(bp128KernelTable);

const Bp128Kernels& bp128Kernels() {
  if (currentTarget() == Target::Scalar) return kScalarKernels;
  return *HWY_DYNAMIC_DISPATCH(bp128KernelTable)();
}

void unpackBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) {
  bp128Kernels().unpack[width](in, out);
}

void unpackBp128Delta(const std::uint32_t* in, std::uint32_t width, std::uint32_t base,
                      std::uint32_t* out) {
  bp128Kernels().unpackDelta[width](in, base, out);
}

}  // namespace wandscope::engine::simd
#endif  // HWY_ONCE
