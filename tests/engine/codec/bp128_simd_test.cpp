// SPDX-License-Identifier: GPL-3.0-or-later
// The BP128 kernels on every supported target against the scalar reference (engine/codec/bp128.h).
#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"
#include "tests/engine/codec/simd_test_support.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::test {
namespace {

namespace codec = engine::codec;
namespace simd = engine::simd;
using Block = std::array<std::uint32_t, 128>;

std::uint32_t maxFor(std::uint32_t width) {
  return width == 32 ? 0xFFFFFFFFu : width == 0 ? 0u : (1u << width) - 1u;
}

// Random values of the width, with trials of all-zero, all-max and alternating extremes.
Block valuesFor(std::mt19937_64& rng, std::uint32_t width, int trial) {
  Block v{};
  std::uniform_int_distribution<std::uint64_t> dist(0, maxFor(width));
  for (auto& x : v) x = static_cast<std::uint32_t>(dist(rng));
  if (trial == 0) v.fill(0);
  if (trial == 1) v.fill(maxFor(width));
  if (trial == 2) {
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 2 == 0 ? maxFor(width) : 0u;
  }
  return v;
}

constexpr std::uint32_t kGuard = 0xDEADBEEFu;

TEST(Bp128Simd, KernelTableMatchesTheForcedTarget) {
  forEachSimdTarget([](simd::Target target) { EXPECT_EQ(simd::bp128Kernels().target, compiledFor(target)); });
}

TEST(Bp128Simd, UnpackAndUnpackPlusOneMatchReferenceForEveryWidth) {
  const std::uint64_t seed = 0x5EED0001;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::Bp128Kernels& kernels = simd::bp128Kernels();
    for (std::uint32_t width = 0; width <= 32; ++width) {
      SCOPED_TRACE("width " + std::to_string(width));
      for (int trial = 0; trial < 12; ++trial) {
        // Arbitrary words (not only packed blocks): every bit pattern has one meaning.
        std::vector<std::uint32_t> words(codec::bp128Words(width) + 1);
        for (auto& w : words) w = static_cast<std::uint32_t>(rng());
        if (trial == 0) std::fill(words.begin(), words.end(), 0u);
        if (trial == 1) std::fill(words.begin(), words.end(), 0xFFFFFFFFu);
        Block expected{};
        codec::unpackBp128(words.data(), width, expected.data());
        std::vector<std::uint32_t> out(129, kGuard);
        kernels.unpack[width](words.data(), out.data());
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin())) << "trial " << trial;
        EXPECT_EQ(out[128], kGuard) << "wrote past the block";
        std::vector<std::uint32_t> out2(128, kGuard);
        simd::unpackBp128(words.data(), width, out2.data());
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out2.begin()));
        // The frequency form: each value + 1, wrapping at 2^32 (trial 1 at width 32 wraps all).
        std::vector<std::uint32_t> plusOne(129, kGuard);
        kernels.unpackPlusOne[width](words.data(), plusOne.data());
        for (std::size_t i = 0; i < expected.size(); ++i) {
          ASSERT_EQ(plusOne[i], expected[i] + 1u) << "trial " << trial << " value " << i;
        }
        EXPECT_EQ(plusOne[128], kGuard) << "wrote past the block";
      }
    }
  });
}

TEST(Bp128Simd, UnpackDeltaMatchesReferenceWithWrapAround) {
  const std::uint64_t seed = 0x5EED0002;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::uint32_t bases[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu, 123456789u};
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::Bp128Kernels& kernels = simd::bp128Kernels();
    for (std::uint32_t width = 0; width <= 32; ++width) {
      SCOPED_TRACE("width " + std::to_string(width));
      for (int trial = 0; trial < 6; ++trial) {
        const Block gaps = valuesFor(rng, width, trial);
        std::vector<std::uint32_t> packed(codec::bp128Words(width) + 1, kGuard);
        codec::packBp128(gaps.data(), width, packed.data());
        for (const std::uint32_t base : bases) {
          SCOPED_TRACE("base " + std::to_string(base));
          Block expected{};
          codec::unpackBp128Delta(packed.data(), width, base, expected.data());
          std::vector<std::uint32_t> out(129, kGuard);
          kernels.unpackDelta[width](packed.data(), base, out.data());
          ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin())) << "trial " << trial;
          EXPECT_EQ(out[128], kGuard) << "wrote past the block";
          std::vector<std::uint32_t> out2(128, kGuard);
          simd::unpackBp128Delta(packed.data(), width, base, out2.data());
          ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out2.begin()));
        }
      }
    }
  });
}

TEST(Bp128Simd, PackMatchesReferenceAndRoundTrips) {
  const std::uint64_t seed = 0x5EED0003;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    for (std::uint32_t width = 0; width <= 32; ++width) {
      SCOPED_TRACE("width " + std::to_string(width));
      for (int trial = 0; trial < 12; ++trial) {
        const Block in = valuesFor(rng, width, trial);
        std::vector<std::uint32_t> expected(codec::bp128Words(width) + 1, kGuard);
        codec::packBp128(in.data(), width, expected.data());
        std::vector<std::uint32_t> packed(codec::bp128Words(width) + 1, kGuard);
        simd::packBp128(in.data(), width, packed.data());
        ASSERT_EQ(packed, expected) << "trial " << trial;  // includes the guard word
        Block back{};
        simd::unpackBp128(packed.data(), width, back.data());
        ASSERT_EQ(back, in);
      }
    }
  });
}

TEST(Bp128Simd, DocIdsRoundTripThroughGaps) {
  // Strictly increasing doc ids up to UINT32_MAX - 1, as the index stores them.
  const std::uint64_t seed = 0x5EED0004;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint32_t maxGap = 1u << (rng() % 25);
      std::uniform_int_distribution<std::uint32_t> gap(1, maxGap);
      Block docs{};
      std::uint64_t d = trial % 3 == 0 ? 0xFFFFFFFEull - 128ull * maxGap : rng() % 1000;
      for (auto& x : docs) {
        d += gap(rng);
        x = static_cast<std::uint32_t>(d);
      }
      const std::uint32_t base = static_cast<std::uint32_t>(docs[0] - gap(rng));  // may wrap
      Block gaps{};
      std::uint32_t prev = base;
      for (std::size_t i = 0; i < 128; ++i) {
        gaps[i] = docs[i] - prev - 1u;
        prev = docs[i];
      }
      const std::uint32_t width = codec::requiredWidth(gaps.data(), gaps.size());
      std::vector<std::uint32_t> packed(codec::bp128Words(width) + 1);
      simd::packBp128(gaps.data(), width, packed.data());
      Block out{};
      simd::bp128Kernels().unpackDelta[width](packed.data(), base, out.data());
      ASSERT_EQ(out, docs) << "trial " << trial << " width " << width;
    }
  });
}

}  // namespace
}  // namespace wandscope::test
