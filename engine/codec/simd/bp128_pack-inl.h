// SPDX-License-Identifier: GPL-3.0-or-later
// BP128 pack kernels (the index builder's side) for one Highway target; re-included once per
// target by bp128_pack.cpp. Layout: engine/codec/bp128.h.
#include "engine/codec/bp128.h"

#include <cstddef>
#include <cstdint>
#include <utility>

#if defined(WANDSCOPE_CODEC_SIMD_BP128_PACK_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_BP128_PACK_INL_H_
#undef WANDSCOPE_CODEC_SIMD_BP128_PACK_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_BP128_PACK_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128

template <std::uint32_t W>
void packKernel(const std::uint32_t* in, std::uint32_t* out) {
  codec::packBp128(in, W, out);
}

#else

using PackD = hn::Full128<std::uint32_t>;
using PackV = hn::Vec<PackD>;

// Row r (values 4r..4r+3) is ORed into the current output word of each lane at bit r*W % 32;
// a word is stored when it is full, and a straddling row starts the next word with its high
// bits. Identical to the reference for every input, including values wider than W (whose excess
// bits land where the reference puts them).
template <std::uint32_t W, std::uint32_t R>
HWY_INLINE void packRow(PackD d, const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out,
                        PackV& acc) {
  constexpr std::uint32_t kBit = R * W;
  constexpr std::uint32_t kWord = kBit / 32;
  constexpr int kShift = static_cast<int>(kBit % 32);
  const PackV v = hn::LoadU(d, in + 4 * R);
  if constexpr (kShift == 0) {
    acc = v;
  } else {
    acc = hn::Or(acc, hn::ShiftLeft<kShift>(v));
  }
  if constexpr (kShift + W >= 32) {
    hn::StoreU(acc, d, out + 4 * kWord);
    if constexpr (kShift + W > 32) acc = hn::ShiftRight<32 - kShift>(v);
  }
}

template <std::uint32_t W, std::size_t... R>
HWY_INLINE void packRows(const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out,
                         std::index_sequence<R...>) {
  const PackD d;
  PackV acc = hn::Zero(d);
  (packRow<W, R>(d, in, out, acc), ...);
}

template <std::uint32_t W>
void packKernel(const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out) {
  if constexpr (W != 0) packRows<W>(in, out, std::make_index_sequence<32>{});
}

#endif  // HWY_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
