// SPDX-License-Identifier: GPL-3.0-or-later
// Block BM25 scoring and the prune-table filter: per-target kernels with runtime dispatch, and
// the scalar references.
#include "engine/codec/simd/block_score.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/codec/simd/block_score.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/codec/simd/block_score-inl.h"

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

const BlockScoreKernels* blockScoreTable() {
  static constexpr BlockScoreKernels kTable{&scoreBlockImpl, &pruneSurvivorsImpl, thisTarget()};
  return &kTable;
}

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace wandscope::engine::simd {

HWY_EXPORT(blockScoreTable);

void scalar::scoreBlock(const std::uint32_t* tf, const float* norm, std::size_t n, float idf,
                        float k1p1, float* out) noexcept {
  // Bm25::contribution(idf, Bm25::weight(tf, norm)), operation for operation.
  for (std::size_t i = 0; i < n; ++i) {
    const float f = static_cast<float>(tf[i]);
    const float w = (k1p1 * f) / (f + norm[i]);
    out[i] = idf * w;
  }
}

std::size_t scalar::pruneSurvivors(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                                   std::uint8_t* out) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t bucket = tf[i] < 63u ? tf[i] : 63u;
    if (((tableBits >> bucket) & 1u) == 0) out[count++] = static_cast<std::uint8_t>(i);
  }
  return count;
}

std::uint64_t pruneTableBits(const bool* table) noexcept {
  std::uint64_t bits = 0;
  for (std::size_t b = 0; b < kPruneBuckets; ++b) {
    if (table[b]) bits |= std::uint64_t{1} << b;
  }
  return bits;
}

namespace {
constexpr BlockScoreKernels kScalarKernels{&scalar::scoreBlock, &scalar::pruneSurvivors, Target::Scalar};
}  // namespace

const BlockScoreKernels& blockScoreKernels() {
  if (currentTarget() == Target::Scalar) return kScalarKernels;
  return *HWY_DYNAMIC_DISPATCH(blockScoreTable)();
}

void scoreBlock(const std::uint32_t* tf, const float* norm, std::size_t n, float idf, float k1p1,
                float* out) {
  blockScoreKernels().scoreBlock(tf, norm, n, idf, k1p1, out);
}

std::size_t pruneSurvivors(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                           std::uint8_t* out) {
  return blockScoreKernels().pruneSurvivors(tf, n, tableBits, out);
}

}  // namespace wandscope::engine::simd
#endif  // HWY_ONCE
