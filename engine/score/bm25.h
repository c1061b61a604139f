// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

// -ffast-math (or -Ofast) lets the compiler reassociate, fuse and approximate the f32 arithmetic
// below, and every score, bound and block maximum stops being exact (docs/SCORING.md); its part
// -ffinite-math-only alone lets it assume away the -inf floor and NaN checks the paths rely on.
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "wandscope scores are exact IEEE-754 f32 arithmetic: build without -ffast-math / -Ofast / -ffinite-math-only (docs/SCORING.md)"
#endif
// So does evaluating f32 expressions in a wider type (x87 arithmetic: -m32 without -msse2
// -mfpmath=sse, or -mfpmath=387): each operation must round to f32.
static_assert(FLT_EVAL_METHOD == 0,
              "wandscope scores are exact IEEE-754 f32 arithmetic: build with SSE2 floating point (-mfpmath=sse), "
              "not x87 (docs/SCORING.md)");

namespace wandscope::engine {

struct Bm25Params {
  float k1 = 1.2f;
  float b = 0.75f;
};

// The largest k1 accepted. Term frequencies and document lengths are below 2^32, and a document's
// length over avgdl is at most N < 2^32, so (k1 + 1) x tf and K(dl) stay below 4.3e37 and every f32
// step of W is finite (as is a sum of 1,024 terms' idf x W); beyond it a long document's weight
// could overflow to infinity, which the index would store as a list maximum it then refuses.
inline constexpr float kMaxBm25K1 = 1e28f;

// Throws Error(Usage) unless k1 is in [0, kMaxBm25K1] and b is in [0, 1].
void validateBm25Params(const Bm25Params& params);

// BM25 exactly as docs/SCORING.md defines it. Every evaluation is f32 in one fixed order, so a
// score computed anywhere (oracle, pruning path, block-max builder, explain) has the same bits:
//
//   avgdl = f32(f64(totalTokens) / f64(docs))
//   idf   = f32(ln(1 + (N - df + 0.5) / (df + 0.5)))             (computed in f64, rounded once)
//   K(dl) = k1 * ((1 - b) + b * (f32(dl) / avgdl))                (f32, in this order)
//   W     = ((k1 + 1) * f32(tf)) / (f32(tf) + K(dl))              (f32)
//   contribution = idf * W                                         (f32)
//
// Splitting the contribution into idf * W is what makes block maxima exact: f32 multiplication by
// a positive constant is monotone, so max_i(idf * W_i) == idf * max_i(W_i), bit for bit. Blocks
// store max W and the query multiplies by the (global) idf.
class Bm25 {
 public:
  Bm25() = default;
  Bm25(Bm25Params params, std::uint64_t docs, std::uint64_t totalTokens);

  const Bm25Params& params() const noexcept { return m_params; }
  std::uint64_t docs() const noexcept { return m_docs; }
  float avgdl() const noexcept { return m_avgdl; }

  float idf(std::uint64_t df) const noexcept;
  // K(dl): the length normaliser; indexes precompute it once per document.
  float lengthNorm(std::uint32_t dl) const noexcept {
    return m_params.k1 * (m_oneMinusB + m_params.b * (static_cast<float>(dl) / m_avgdl));
  }
  // W(tf, K): the saturating term-frequency part, in [0, k1 + 1] up to f32 rounding.
  float weight(std::uint32_t tf, float norm) const noexcept {
    const float f = static_cast<float>(tf);
    return (m_k1Plus1 * f) / (f + norm);
  }
  static float contribution(float idf, float weight) noexcept { return idf * weight; }
  // k1 + 1 as weight() uses it (f32), for the block scorer (engine/codec/simd/block_score.h).
  float k1Plus1() const noexcept { return m_k1Plus1; }

  // An upper bound of W over every (tf, dl): (k1 + 1) plus 2 ULPs, because the f32 evaluation
  // can land one ULP above the mathematical supremum (k1 + 1).
  float weightCeiling() const noexcept { return m_weightCeiling; }

 private:
  Bm25Params m_params;
  std::uint64_t m_docs = 0;
  float m_avgdl = 1.0f;
  float m_oneMinusB = 0.25f;
  float m_k1Plus1 = 2.2f;
  float m_weightCeiling = 2.2f;
};

}  // namespace wandscope::engine
