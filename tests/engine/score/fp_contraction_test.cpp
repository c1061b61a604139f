// SPDX-License-Identifier: GPL-3.0-or-later
// Every f32 expression of the scoring is evaluated as written, never fused into an FMA: the
// top-level CMakeLists.txt passes -ffp-contract=off to every target. This file is compiled with
// -mfma on x86-64 (tests/engine/score/CMakeLists.txt), as a -march=native build would be, so that
// without that flag the compiler fuses the inline BM25 arithmetic it includes and these tests fail.
#include "engine/score/bm25.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace wandscope::engine {
namespace {

bool cpuHasFma() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("fma");
#else
  return true;  // aarch64, ppc64le, s390x: fused multiply-add is part of the base instruction set
#endif
}

// a * b + c with the product rounded to f32 first (what the source says).
// (The operands are read back from volatile copies, so the compiler cannot share this product with
// the one of the expression under test, which would keep that one from being fused.)
float mulThenAdd(float a, float b, float c) {
  volatile float va = a;
  volatile float vb = b;
  volatile float product = va * vb;
  return product + c;
}

TEST(FpContraction, LengthNormsAreEvaluatedAsWrittenWhereFmaIsAvailable) {
  if (!cpuHasFma()) GTEST_SKIP() << "this CPU has no FMA instruction: nothing could be fused";
  const Bm25 bm25({1.2f, 0.75f}, 1'000'000, 304'888'937);  // the 1M-document corpus's avgdl
  int differ = 0;
  int fusedWouldDiffer = 0;
  for (std::uint32_t dl = 0; dl <= 100'000; ++dl) {
    const float q = static_cast<float>(dl) / bm25.avgdl();
    const float asWritten = bm25.params().k1 * mulThenAdd(bm25.params().b, q, 1.0f - bm25.params().b);
    const float fused = bm25.params().k1 * std::fma(bm25.params().b, q, 1.0f - bm25.params().b);
    const float got = bm25.lengthNorm(dl);
    if (std::bit_cast<std::uint32_t>(got) != std::bit_cast<std::uint32_t>(asWritten)) {
      if (++differ <= 5) ADD_FAILURE() << "K(" << dl << ") = " << got << ", as written " << asWritten;
    }
    if (fused != asWritten) ++fusedWouldDiffer;
  }
  EXPECT_EQ(differ, 0);
  // The sweep can tell the two apart: a fused evaluation would have changed some K(dl).
  EXPECT_GT(fusedWouldDiffer, 0);
}

TEST(FpContraction, RunningSumsOfContributionsAreNotFused) {
  if (!cpuHasFma()) GTEST_SKIP() << "this CPU has no FMA instruction: nothing could be fused";
  // The oracle's `score += contribution(idf, W)`, against the pruning paths' sum of contributions
  // rounded first: the same bits only if the running sum is not fused with the product.
  const Bm25 bm25({1.2f, 0.75f}, 1'000'000, 304'888'937);
  const std::uint32_t seed = 20261202;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> idfs(0.01f, 12.0f);
  std::uniform_int_distribution<std::uint32_t> tfs(1, 40);
  std::uniform_int_distribution<std::uint32_t> lengths(1, 3000);
  int differ = 0;
  int fusedWouldDiffer = 0;
  for (int query = 0; query < 20'000; ++query) {
    float running = 0.0f;
    float rounded = 0.0f;
    float fused = 0.0f;
    for (int term = 0; term < 4; ++term) {
      const float idf = idfs(rng);
      const float w = bm25.weight(tfs(rng), bm25.lengthNorm(lengths(rng)));
      running += Bm25::contribution(idf, w);
      rounded = mulThenAdd(idf, w, rounded);
      fused = std::fma(idf, w, fused);
    }
    if (std::bit_cast<std::uint32_t>(running) != std::bit_cast<std::uint32_t>(rounded) && ++differ <= 5) {
      ADD_FAILURE() << "seed " << seed << " query " << query << ": running sum " << running << ", as written "
                    << rounded;
    }
    if (fused != rounded) ++fusedWouldDiffer;
  }
  EXPECT_EQ(differ, 0) << "seed " << seed;
  EXPECT_GT(fusedWouldDiffer, 100) << "seed " << seed;
}

}  // namespace
}  // namespace wandscope::engine
