// SPDX-License-Identifier: GPL-3.0-or-later
// find_next_geq on every supported target against the scalar reference.
#include "engine/codec/simd/find_geq.h"
#include "tests/engine/codec/simd_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <vector>

namespace wandscope::test {
namespace {

namespace simd = engine::simd;

const std::size_t kLengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200};

// Sorted, duplicate-free values drawn around `centre` (the interesting parts of the u32 range).
std::vector<std::uint32_t> sortedValues(std::mt19937_64& rng, std::size_t n, std::uint64_t lo, std::uint64_t hi) {
  std::set<std::uint32_t> s;
  std::uniform_int_distribution<std::uint64_t> dist(lo, hi);
  while (s.size() < n) s.insert(static_cast<std::uint32_t>(dist(rng)));
  return {s.begin(), s.end()};
}

// The value sets of one length both kernels are checked on: the whole u32 range, dense near 0,
// around 2^31, at the top (ascending), and the whole range shuffled (check(values, false)).
template <class Check>
void forEachValueSet(std::mt19937_64& rng, std::size_t n, Check check) {
  check(sortedValues(rng, n, 0, 0xFFFFFFFFull), true);
  check(sortedValues(rng, n, 0, 4 * n + 4), true);
  check(sortedValues(rng, n, 0x7FFFFF00ull, 0x800000FFull + n), true);
  check(sortedValues(rng, n, 0xFFFFFFFFull - 3 * n - 3, 0xFFFFFFFFull), true);
  std::vector<std::uint32_t> shuffled = sortedValues(rng, n, 0, 0xFFFFFFFFull);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  check(shuffled, false);
}

std::vector<std::uint32_t> targetsFor(const std::vector<std::uint32_t>& v) {
  std::vector<std::uint32_t> t = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  for (const std::uint32_t x : v) {
    t.push_back(x);
    t.push_back(x - 1u);
    t.push_back(x + 1u);
  }
  return t;
}

void checkAll(simd::FindNextGeqFn kernel, const std::vector<std::uint32_t>& v) {
  // An exactly sized heap copy, so a sanitizer build catches any read past the end.
  const std::unique_ptr<std::uint32_t[]> copy(new std::uint32_t[std::max<std::size_t>(v.size(), 1)]);
  std::copy(v.begin(), v.end(), copy.get());
  for (const std::uint32_t target : targetsFor(v)) {
    const std::size_t expected = simd::scalar::findNextGeq(copy.get(), v.size(), target);
    ASSERT_EQ(kernel(copy.get(), v.size(), target), expected) << "target " << target << " n " << v.size();
    ASSERT_EQ(simd::findNextGeq(copy.get(), v.size(), target), expected);
  }
}

TEST(FindNextGeqSimd, ReferenceIsTheFirstIndexNotBelowTarget) {
  const std::uint32_t v[] = {3, 0x80000000u, 0xFFFFFFFFu};
  EXPECT_EQ(simd::scalar::findNextGeq(v, 3, 0), 0u);
  EXPECT_EQ(simd::scalar::findNextGeq(v, 3, 4), 1u);
  EXPECT_EQ(simd::scalar::findNextGeq(v, 3, 0x80000001u), 2u);
  EXPECT_EQ(simd::scalar::findNextGeq(v, 3, 0xFFFFFFFFu), 2u);
  EXPECT_EQ(simd::scalar::findNextGeq(v, 2, 0xFFFFFFFFu), 2u);
  EXPECT_EQ(simd::scalar::findNextGeq(v, 0, 0), 0u);
}

TEST(FindNextGeqSimd, MatchesReferenceOverTheWholeRange) {
  const std::uint64_t seed = 0x5EED0101;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::FindNextGeqFn kernel = simd::findNextGeqKernel();
    for (const std::size_t n : kLengths) {
      SCOPED_TRACE("length " + std::to_string(n));
      // Unsorted input too: still the first index that qualifies.
      forEachValueSet(rng, n, [&](const std::vector<std::uint32_t>& v, bool) { checkAll(kernel, v); });
    }
  });
}

TEST(FindNextGeqSimd, EveryStartOfADecodedBlock) {
  // The cursor's use: a search from position p of a 128-value block.
  const std::uint64_t seed = 0x5EED0102;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::FindNextGeqFn kernel = simd::findNextGeqKernel();
    const std::vector<std::uint32_t> block = sortedValues(rng, 128, 0x7FFFF000ull, 0x80001000ull);
    for (std::size_t p = 0; p <= 128; ++p) {
      for (const std::uint32_t target : {block[std::min<std::size_t>(p, 127)], block[std::min<std::size_t>(p, 127)] + 1u,
                                         0xFFFFFFFFu, 0u}) {
        ASSERT_EQ(kernel(block.data() + p, 128 - p, target),
                  simd::scalar::findNextGeq(block.data() + p, 128 - p, target))
            << "start " << p << " target " << target;
      }
    }
  });
}

// count_below on every target: the reference's count on any input, and findNextGeq's answer on
// ascending input (the bulk AND's lookups rely on that).
void checkCounts(simd::CountBelowFn kernel, const std::vector<std::uint32_t>& v, bool ascending) {
  // An exactly sized heap copy, so a sanitizer build catches any read past the end.
  const auto copy = std::make_unique<std::uint32_t[]>(std::max<std::size_t>(v.size(), 1));
  std::copy(v.begin(), v.end(), copy.get());
  for (const std::uint32_t target : targetsFor(v)) {
    const std::size_t expected = simd::scalar::countBelow(copy.get(), v.size(), target);
    ASSERT_EQ(kernel(copy.get(), v.size(), target), expected) << "target " << target;
    if (ascending) {
      ASSERT_EQ(expected, simd::scalar::findNextGeq(copy.get(), v.size(), target)) << "target " << target;
    }
  }
}

TEST(CountBelowSimd, ReferenceCountsTheValuesBelowTarget) {
  const std::uint32_t v[] = {3, 0x80000000u, 0xFFFFFFFFu, 0, 7};
  EXPECT_EQ(simd::scalar::countBelow(v, 5, 0), 0u);
  EXPECT_EQ(simd::scalar::countBelow(v, 5, 4), 2u);           // 3 and 0
  EXPECT_EQ(simd::scalar::countBelow(v, 5, 0x80000001u), 4u);  // unsigned: 0x80000000 is below
  EXPECT_EQ(simd::scalar::countBelow(v, 5, 0xFFFFFFFFu), 4u);
  EXPECT_EQ(simd::scalar::countBelow(v, 0, 0xFFFFFFFFu), 0u);
}

TEST(CountBelowSimd, MatchesReferenceOverTheWholeRange) {
  const std::uint64_t seed = 0x5EED0103;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::CountBelowFn kernel = simd::countBelowKernel();
    for (const std::size_t n : kLengths) {
      SCOPED_TRACE("length " + std::to_string(n));
      forEachValueSet(rng, n, [&](const std::vector<std::uint32_t>& v, bool ascending) {
        checkCounts(kernel, v, ascending);
      });
    }
  });
}

TEST(CountBelowSimd, EveryLengthOfADecodedBlock) {
  // The bulk AND's use: a block's first `n` doc ids (a tail holds fewer than 128).
  const std::uint64_t seed = 0x5EED0104;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::CountBelowFn kernel = simd::countBelowKernel();
    const std::vector<std::uint32_t> block = sortedValues(rng, 128, 0x7FFFF000ull, 0x80001000ull);
    for (std::size_t n = 0; n <= 128; ++n) {
      for (std::size_t at = 0; at < 128; at += 7) {
        for (const std::uint32_t target : {block[at], block[at] + 1u, block[at] - 1u}) {
          ASSERT_EQ(kernel(block.data(), n, target), simd::scalar::countBelow(block.data(), n, target))
              << "length " << n << " target " << target;
        }
      }
    }
  });
}

}  // namespace
}  // namespace wandscope::test
