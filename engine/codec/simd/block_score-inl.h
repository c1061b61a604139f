// SPDX-License-Identifier: GPL-3.0-or-later
// Block BM25 scoring and prune-table kernels for one Highway target; re-included once per target
// by block_score.cpp.
#include "engine/codec/simd/block_score.h"

#include <cstddef>
#include <cstdint>

#if defined(WANDSCOPE_CODEC_SIMD_BLOCK_SCORE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_BLOCK_SCORE_INL_H_
#undef WANDSCOPE_CODEC_SIMD_BLOCK_SCORE_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_BLOCK_SCORE_INL_H_
#endif

#include "engine/codec/simd/simd_common-inl.h"

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128

inline void scoreBlockImpl(const std::uint32_t* tf, const float* norm, std::size_t n, float idf,
                           float k1p1, float* out) {
  scalar::scoreBlock(tf, norm, n, idf, k1p1, out);
}
inline std::size_t pruneSurvivorsImpl(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                                      std::uint8_t* out) {
  return scalar::pruneSurvivors(tf, n, tableBits, out);
}

#else

// Bit-identity with Bm25::weight: ConvertTo(u32 -> f32) rounds correctly on every target (native
// on AVX-512; below it 65536 * hi + lo with one rounding), Mul/Add/Div are the IEEE operations and
// the order is the scalar one. MulAdd would round once instead of twice, so it is never used.
inline void scoreBlockImpl(const std::uint32_t* HWY_RESTRICT tf, const float* HWY_RESTRICT norm,
                           std::size_t n, float idf, float k1p1, float* HWY_RESTRICT out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  constexpr std::size_t kLanes = hn::MaxLanes(decltype(df)());
  const auto vk = hn::Set(df, k1p1);
  const auto vidf = hn::Set(df, idf);
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const auto f = hn::ConvertTo(df, hn::LoadU(du, tf + i));
    const auto w = hn::Div(hn::Mul(vk, f), hn::Add(f, hn::LoadU(df, norm + i)));
    hn::StoreU(hn::Mul(vidf, w), df, out + i);
  }
  if (i < n) scalar::scoreBlock(tf + i, norm + i, n - i, idf, k1p1, out + i);
}

// Bucket lookup without a gather: the 64-entry table is one 64-bit word, split into two u32
// halves; each lane picks its half by bucket >= 32 and shifts its bit down by a per-lane count.
inline std::size_t pruneSurvivorsImpl(const std::uint32_t* HWY_RESTRICT tf, std::size_t n,
                                      std::uint64_t tableBits, std::uint8_t* HWY_RESTRICT out) {
  const hn::ScalableTag<std::uint32_t> d;
  constexpr std::size_t kLanes = hn::MaxLanes(decltype(d)());
  const auto lo = hn::Set(d, static_cast<std::uint32_t>(tableBits));
  const auto hi = hn::Set(d, static_cast<std::uint32_t>(tableBits >> 32));
  const auto maxBucket = hn::Set(d, 63u);
  const auto low5 = hn::Set(d, 31u);
  const auto one = hn::Set(d, 1u);
  std::size_t count = 0;
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const auto bucket = hn::Min(hn::LoadU(d, tf + i), maxBucket);
    const auto word = hn::IfThenElse(hn::Gt(bucket, low5), hi, lo);
    const auto bit = hn::And(hn::Shr(word, hn::And(bucket, low5)), one);
    const auto keep = hn::Eq(bit, hn::Zero(d));
    // A bit loop rather than a compress: below AVX-512 Highway's is table-driven (see
    // maskBits), and AVX-512's vpcompressd measured slower than the loop on Zen 5.
    for (std::uint64_t bits = maskBits(d, keep); bits != 0; bits &= bits - 1) {
      out[count++] = static_cast<std::uint8_t>(i + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
    }
  }
  for (; i < n; ++i) {
    const std::uint32_t bucket = tf[i] < 63u ? tf[i] : 63u;
    out[count] = static_cast<std::uint8_t>(i);
    count += ((tableBits >> bucket) & 1u) == 0 ? 1u : 0u;
  }
  return count;
}

#endif  // HWY_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
