// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/simd_target.h"

#include <cstddef>
#include <cstdint>

namespace wandscope::engine::simd {

// Vectorised BM25 over a block of candidates (engine/score/bm25.h):
//
//   out[i] = idf * ((k1p1 * f32(tf[i])) / (f32(tf[i]) + norm[i]))
//
// bit-identical to Bm25::contribution(idf, Bm25::weight(tf[i], norm[i])) with k1p1 = k1 + 1 on
// every target: the same f32 operations in the same order, a correctly rounded u32 -> f32
// conversion over the whole u32 range, a true division (never a reciprocal estimate) and no fused
// multiply-add. n may be anything; out may not alias the inputs.
using ScoreBlockFn = void (*)(const std::uint32_t* tf, const float* norm, std::size_t n, float idf,
                              float k1p1, float* out);

// The frequency prune table of the bulk AND: bucket b (tf clamped to 63) is true when a candidate
// with that frequency cannot beat the current floor. The kernels take it as 64 bits (bit b =
// bucket b), see pruneTableBits().
inline constexpr std::size_t kPruneBuckets = 64;

// Writes, ascending, the indices i < n whose bucket table[min(tf[i], 63)] is false (the
// candidates that survive the table) to out and returns how many. n <= 256 (indices are bytes);
// out needs room for n bytes.
using SurvivorsFn = std::size_t (*)(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                                    std::uint8_t* out);

struct BlockScoreKernels {
  ScoreBlockFn scoreBlock;
  SurvivorsFn pruneSurvivors;
  Target target;
};

// The kernels of the current target; fetch once per query, outside per-block loops.
const BlockScoreKernels& blockScoreKernels();

// One-call forms (fetch the kernels on every call).
void scoreBlock(const std::uint32_t* tf, const float* norm, std::size_t n, float idf, float k1p1,
                float* out);
std::size_t pruneSurvivors(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                           std::uint8_t* out);

// Bit b set <=> table[b] (64 buckets).
std::uint64_t pruneTableBits(const bool* table) noexcept;

namespace scalar {
// The scalar references: the test oracles and the "scalar" target.
void scoreBlock(const std::uint32_t* tf, const float* norm, std::size_t n, float idf, float k1p1,
                float* out) noexcept;
std::size_t pruneSurvivors(const std::uint32_t* tf, std::size_t n, std::uint64_t tableBits,
                           std::uint8_t* out) noexcept;
}  // namespace scalar

}  // namespace wandscope::engine::simd
