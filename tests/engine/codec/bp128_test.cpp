// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/codec/bp128.h"

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <random>
#include <vector>

namespace wandscope::test {
namespace {

using engine::codec::bp128Words;
using engine::codec::packBp128;
using engine::codec::requiredWidth;
using engine::codec::unpackBp128;
using engine::codec::unpackBp128Delta;

std::array<std::uint32_t, 128> randomValues(std::mt19937_64& rng, std::uint32_t width) {
  std::array<std::uint32_t, 128> v{};
  const std::uint64_t max = width == 32 ? 0xFFFFFFFFull : (1ull << width) - 1;
  std::uniform_int_distribution<std::uint64_t> dist(0, max);
  for (auto& x : v) x = static_cast<std::uint32_t>(dist(rng));
  return v;
}

TEST(Bp128, RoundTripsEveryWidthWithRandomAndExtremeValues) {
  const std::uint64_t seed = 20261130;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::uint32_t width = 0; width <= 32; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    for (int trial = 0; trial < 20; ++trial) {
      auto in = randomValues(rng, width);
      if (trial == 0 && width > 0) in.fill(width == 32 ? 0xFFFFFFFFu : (1u << width) - 1);  // all max
      if (trial == 1) in.fill(0);
      std::vector<std::uint32_t> packed(bp128Words(width) + 1, 0xDEADBEEFu);
      packBp128(in.data(), width, packed.data());
      EXPECT_EQ(packed[bp128Words(width)], 0xDEADBEEFu) << "wrote past the block";
      std::array<std::uint32_t, 128> out{};
      out.fill(0x55555555u);
      unpackBp128(packed.data(), width, out.data());
      ASSERT_EQ(in, out);
    }
  }
}

TEST(Bp128, LayoutIsFourInterleavedLanes) {
  // Width 1: value i is bit (i / 4) of word (i % 4): the SIMD-BP128 layout.
  std::array<std::uint32_t, 128> in{};
  in[5] = 1;  // lane 1, row 1
  std::array<std::uint32_t, 4> packed{};
  packBp128(in.data(), 1, packed.data());
  EXPECT_EQ(packed[0], 0u);
  EXPECT_EQ(packed[1], 2u);
  EXPECT_EQ(packed[2], 0u);
  EXPECT_EQ(packed[3], 0u);
}

TEST(Bp128, RequiredWidth) {
  std::array<std::uint32_t, 128> v{};
  EXPECT_EQ(requiredWidth(v.data(), v.size()), 0u);
  v[77] = 1;
  EXPECT_EQ(requiredWidth(v.data(), v.size()), 1u);
  v[3] = 255;
  EXPECT_EQ(requiredWidth(v.data(), v.size()), 8u);
  v[127] = 0x80000000u;
  EXPECT_EQ(requiredWidth(v.data(), v.size()), 32u);
  EXPECT_EQ(requiredWidth(v.data(), 0), 0u);
}

TEST(Bp128, DeltaDecodingAddsGapsPlusOneAndWrapsFromTheBase) {
  std::mt19937_64 rng(7);
  for (std::uint32_t width : {0u, 1u, 5u, 17u, 24u}) {
    auto gaps = randomValues(rng, width);
    std::vector<std::uint32_t> packed(bp128Words(width) + 1);
    packBp128(gaps.data(), width, packed.data());
    for (std::uint32_t base : {0xFFFFFFFFu, 0u, 1000u}) {
      std::array<std::uint32_t, 128> out{};
      unpackBp128Delta(packed.data(), width, base, out.data());
      std::uint32_t expected = base;
      for (std::size_t i = 0; i < 128; ++i) {
        expected += gaps[i] + 1u;
        ASSERT_EQ(out[i], expected) << "width " << width << " base " << base << " i " << i;
      }
    }
  }
  // A list starting at doc 0 uses base 0xFFFFFFFF (docBase - 1): gaps of 0 decode to 0, 1, 2, ...
  std::array<std::uint32_t, 128> zeros{};
  std::array<std::uint32_t, 128> out{};
  unpackBp128Delta(zeros.data(), 0, 0xFFFFFFFFu, out.data());
  for (std::uint32_t i = 0; i < 128; ++i) ASSERT_EQ(out[i], i);
}

}  // namespace
}  // namespace wandscope::test
