// SPDX-License-Identifier: GPL-3.0-or-later
// The intersection kernels on every supported target against the scalar references
// (engine/query/algorithms/merge_kernels.h): the same matches and the same per-clause offsets.
#include "engine/codec/simd/intersect.h"
#include "engine/query/algorithms/merge_kernels.h"
#include "tests/engine/codec/simd_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

namespace simd = engine::simd;
using engine::DocId;
using engine::MergeSlice;

// A decoded block of `size` strictly increasing doc ids in [lo, lo + span), as a cursor holds it.
struct DocBlock {
  std::vector<DocId> docs;
};

DocBlock randomBlock(std::mt19937_64& rng, std::size_t size, std::uint64_t lo, std::uint64_t span) {
  std::set<DocId> s;
  std::uniform_int_distribution<std::uint64_t> dist(lo, lo + span - 1);
  while (s.size() < size) s.insert(static_cast<DocId>(dist(rng)));
  return DocBlock{{s.begin(), s.end()}};
}

struct Result {
  std::vector<DocId> docs;
  std::vector<std::vector<std::uint8_t>> offsets;  // per clause
};

Result take(std::size_t m, std::size_t clauses, const std::array<DocId, 128>& out,
            const std::vector<std::uint8_t>& offsets) {
  Result r;
  r.docs.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m));
  for (std::size_t c = 0; c < clauses; ++c) {
    const auto row = offsets.begin() + static_cast<std::ptrdiff_t>(c * 128);
    r.offsets.emplace_back(row, row + static_cast<std::ptrdiff_t>(m));
  }
  return r;
}

// Runs reference and kernel (table and one-call forms) on the same slices and compares.
void check(const std::vector<MergeSlice>& slices) {
  const std::size_t n = slices.size();
  std::array<DocId, 128> out{};
  std::vector<std::uint8_t> offsets(n * 128);
  std::size_t m = 0;
  if (n == 2) {
    m = engine::intersect2(slices[0], slices[1], out.data(), offsets.data());
  } else if (n == 3) {
    m = engine::intersect3(slices[0], slices[1], slices[2], out.data(), offsets.data());
  } else {
    m = engine::intersectN(slices.data(), n, out.data(), offsets.data());
  }
  const Result expected = take(m, n, out, offsets);
  const simd::IntersectKernels& k = simd::intersectKernels();
  auto run = [&](int form) {
    out.fill(0xABABABABu);
    std::fill(offsets.begin(), offsets.end(), std::uint8_t{0xCD});
    std::size_t got = 0;
    if (form == 0) {
      got = k.intersectN(slices.data(), n, out.data(), offsets.data());
    } else if (n == 2) {
      got = form == 1 ? k.intersect2(slices[0], slices[1], out.data(), offsets.data())
                      : simd::intersect2(slices[0], slices[1], out.data(), offsets.data());
    } else if (n == 3) {
      got = form == 1 ? k.intersect3(slices[0], slices[1], slices[2], out.data(), offsets.data())
                      : simd::intersect3(slices[0], slices[1], slices[2], out.data(), offsets.data());
    } else {
      got = simd::intersectN(slices.data(), n, out.data(), offsets.data());
    }
    return take(got, n, out, offsets);
  };
  for (int form = 0; form < 3; ++form) {
    const Result actual = run(form);
    ASSERT_EQ(actual.docs, expected.docs) << "form " << form << ", " << n << " clauses";
    ASSERT_EQ(actual.offsets, expected.offsets) << "form " << form << ", " << n << " clauses";
  }
}

// Slices of whole blocks, or of a random [begin, end) inside a 128-entry block.
MergeSlice sliceOf(const DocBlock& b, std::mt19937_64& rng, bool partial) {
  const auto size = static_cast<std::uint32_t>(b.docs.size());
  if (!partial || size == 0) return MergeSlice{b.docs.data(), 0, size};
  std::uniform_int_distribution<std::uint32_t> pos(0, size);
  std::uint32_t x = pos(rng);
  std::uint32_t y = pos(rng);
  if (x > y) std::swap(x, y);
  return MergeSlice{b.docs.data(), x, y};
}

const std::size_t kSizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128};

TEST(IntersectSimd, KernelTableMatchesTheForcedTarget) {
  forEachSimdTarget([](simd::Target target) { EXPECT_EQ(simd::intersectKernels().target, target); });
}

TEST(IntersectSimd, TwoWayMatchesReferenceOverSizesAndOverlaps) {
  const std::uint64_t seed = 0x5EED0201;
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Value ranges: near 0, around 2^31 and up to UINT32_MAX; spans from dense (most values
  // shared) to sparse (almost nothing shared).
  const std::uint64_t bases[] = {0, 0x7FFFFF00ull, 0xFFFFFFFFull - 1024};
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    for (const std::uint64_t base : bases) {
      for (const std::size_t na : kSizes) {
        for (const std::size_t nb : kSizes) {
          for (const std::uint64_t span : {std::uint64_t{130}, std::uint64_t{260}, std::uint64_t{1024}}) {
            SCOPED_TRACE("base " + std::to_string(base) + " sizes " + std::to_string(na) + "x" +
                         std::to_string(nb) + " span " + std::to_string(span));
            const DocBlock a = randomBlock(rng, na, base, span);
            const DocBlock b = randomBlock(rng, nb, base, span);
            check({sliceOf(a, rng, false), sliceOf(b, rng, false)});
            check({sliceOf(a, rng, true), sliceOf(b, rng, true)});
          }
        }
      }
    }
  });
}

TEST(IntersectSimd, IdenticalDisjointAndInterleavedLists) {
  forEachSimdTarget([&](simd::Target) {
    for (const std::size_t n : kSizes) {
      SCOPED_TRACE("size " + std::to_string(n));
      DocBlock same;
      DocBlock evens;
      DocBlock odds;
      DocBlock top;
      for (std::size_t i = 0; i < n; ++i) {
        same.docs.push_back(static_cast<DocId>(3 * i + 1));
        evens.docs.push_back(static_cast<DocId>(2 * i));
        odds.docs.push_back(static_cast<DocId>(2 * i + 1));
        top.docs.push_back(static_cast<DocId>(0xFFFFFFFFull - (n - 1 - i)));
      }
      const auto whole = [](const DocBlock& b) { return MergeSlice{b.docs.data(), 0, static_cast<std::uint32_t>(b.docs.size())}; };
      check({whole(same), whole(same)});                 // every value matches
      check({whole(evens), whole(odds)});                // nothing matches, fully interleaved
      check({whole(top), whole(top)});                   // ends at UINT32_MAX
      check({whole(same), whole(same), whole(same)});
      check({whole(evens), whole(same), whole(evens)});
      check({whole(top), whole(top), whole(top), whole(top)});
    }
  });
}

TEST(IntersectSimd, ThreeAndNWayMatchReference) {
  const std::uint64_t seed = 0x5EED0202;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> sizeDist(0, 128);
    for (int trial = 0; trial < 600; ++trial) {
      const std::size_t n = 1 + static_cast<std::size_t>(trial % 6);
      const std::uint64_t span = trial % 4 == 0 ? 140 : trial % 4 == 1 ? 300 : trial % 4 == 2 ? 2000 : 100000;
      const std::uint64_t base = trial % 5 == 0 ? 0xFFFFFFFFull - span : trial % 5 == 1 ? 0x7FFFFFC0ull : 0;
      SCOPED_TRACE("trial " + std::to_string(trial));
      std::vector<DocBlock> blocks;
      for (std::size_t c = 0; c < n; ++c) {
        std::size_t size = trial % 7 == 0 ? 128 : sizeDist(rng);
        size = static_cast<std::size_t>(std::min<std::uint64_t>(size, span));
        blocks.push_back(randomBlock(rng, size, base, span));
      }
      std::vector<MergeSlice> slices;
      for (const DocBlock& b : blocks) slices.push_back(sliceOf(b, rng, trial % 3 == 0));
      check(slices);
    }
  });
}

TEST(IntersectSimd, SkewedPairs) {
  // One short slice against a long one (the V1 path), both orders.
  const std::uint64_t seed = 0x5EED0203;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < 400; ++trial) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      const std::size_t shortSize = 1 + static_cast<std::size_t>(rng() % 12);
      const std::size_t longSize = 96 + static_cast<std::size_t>(rng() % 33);
      const std::uint64_t base = trial % 3 == 0 ? 0xFFFFFFFFull - 400 : trial % 3 == 1 ? 0x7FFFFF00ull : 0;
      const DocBlock l = randomBlock(rng, longSize, base, 400);
      // The short list takes some values of the long one and some others.
      std::set<DocId> s;
      while (s.size() < shortSize) {
        s.insert(rng() % 2 == 0 ? l.docs[rng() % l.docs.size()] : static_cast<DocId>(base + rng() % 400));
      }
      const DocBlock sh{{s.begin(), s.end()}};
      const MergeSlice ls{l.docs.data(), 0, static_cast<std::uint32_t>(l.docs.size())};
      const MergeSlice ss{sh.docs.data(), 0, static_cast<std::uint32_t>(sh.docs.size())};
      check({ss, ls});
      check({ls, ss});
      check({ss, ls, ls});
    }
  });
}

// The long-run kernel (the bulk AND's long windows) against its scalar reference: the same
// indices on both sides, nothing written past min(la, lb) + kIntersectRunsSlack entries, on runs cut into parts at
// every size around the vector widths and the part boundaries, similar and skewed lengths, dense
// and sparse overlaps, values up to UINT32_MAX.
void checkRuns(const std::vector<DocId>& a, const std::vector<DocId>& b) {
  const auto la = static_cast<std::uint32_t>(a.size());
  const auto lb = static_cast<std::uint32_t>(b.size());
  const std::size_t room = std::min(a.size(), b.size()) + engine::kIntersectRunsSlack;
  constexpr std::uint32_t kGuard = 0xC0FFEE00u;
  std::vector<std::uint32_t> wantA(room + 1, kGuard);
  std::vector<std::uint32_t> wantB(room + 1, kGuard);
  const std::size_t want = engine::intersectRuns(a.data(), la, b.data(), lb, wantA.data(), wantB.data());
  std::vector<std::uint32_t> gotA(room + 1, kGuard);
  std::vector<std::uint32_t> gotB(room + 1, kGuard);
  const std::size_t got = simd::intersectKernels().intersectRuns(a.data(), la, b.data(), lb, gotA.data(), gotB.data());
  ASSERT_EQ(got, want) << la << " x " << lb;
  wantA.resize(want);
  wantB.resize(want);
  EXPECT_EQ(gotA[room], kGuard) << "wrote past min(la, lb) + kIntersectRunsSlack entries";
  EXPECT_EQ(gotB[room], kGuard) << "wrote past min(la, lb) + kIntersectRunsSlack entries";
  gotA.resize(got);
  gotB.resize(got);
  ASSERT_EQ(gotA, wantA) << la << " x " << lb;
  ASSERT_EQ(gotB, wantB) << la << " x " << lb;
  for (std::size_t m = 0; m < want; ++m) ASSERT_EQ(a[wantA[m]], b[wantB[m]]) << "the reference itself";
}

TEST(IntersectSimd, LongRunsMatchReference) {
  const std::uint64_t seed = 0x5EED0204;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::size_t sizes[] = {0, 1, 3, 7, 8, 9, 31, 32, 33, 35, 36, 37, 100, 129, 1000, 4099};
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    for (const std::size_t na : sizes) {
      for (const std::size_t nb : sizes) {
        for (const std::uint64_t density : {2, 8, 64}) {  // span per value: dense to sparse overlap
          const std::uint64_t span = density * std::max<std::size_t>({na, nb, 1});
          const std::uint64_t base = (na + nb) % 3 == 0 ? 0xFFFFFFFFull - span : 0;
          SCOPED_TRACE("sizes " + std::to_string(na) + "x" + std::to_string(nb) + " span " + std::to_string(span));
          checkRuns(randomBlock(rng, na, base, span).docs, randomBlock(rng, nb, base, span).docs);
        }
      }
    }
    // Identical, disjoint and interleaved runs, longer than every part's vectors.
    std::vector<DocId> evens;
    std::vector<DocId> odds;
    for (DocId d = 0; d < 5000; ++d) (d % 2 == 0 ? evens : odds).push_back(d);
    checkRuns(evens, evens);
    checkRuns(evens, odds);
    checkRuns(odds, evens);
    // The shorter run (almost) wholly inside the longer, in steps that match some lanes but not
    // all: every part's matches fill its room to within a vector, where a kernel that stores
    // whole vectors would overwrite the next part's first matches without its own margin.
    std::vector<DocId> all(5000);
    std::iota(all.begin(), all.end(), DocId{0});
    checkRuns(evens, all);
    checkRuns(all, evens);
    std::mt19937_64 pick(seed);
    std::vector<DocId> most;
    for (const DocId d : all) {
      if (pick() % 10 != 0) most.push_back(d);
    }
    checkRuns(most, all);
    checkRuns(all, most);
    // Sparse runs sharing every 40th value of one of them: far fewer than one expected match
    // per 50 steps, so avx3_vp2 takes its branch on "any match" (intersect_vp2.cpp), and the
    // shared values must still be found at their indices.
    const std::vector<DocId> sparse = randomBlock(rng, 4099, 0, 4099ull * 4096).docs;
    std::set<DocId> withShared;
    for (const DocId d : randomBlock(rng, 4099, 0, 4099ull * 4096).docs) withShared.insert(d);
    for (std::size_t i = 0; i < sparse.size(); i += 40) withShared.insert(sparse[i]);
    const std::vector<DocId> other(withShared.begin(), withShared.end());
    checkRuns(sparse, other);
    checkRuns(other, sparse);
    // Identical sparse runs (every value matches, yet the densities predict almost no match, so
    // avx3_vp2 takes its branch): each part fills its room, and moving the parts' matches down
    // overlaps by less than a vector. Then with one value dropped from each quarter.
    std::vector<DocId> strided;
    for (DocId d = 0; d < 2000; ++d) strided.push_back(d << 20);
    checkRuns(strided, strided);
    std::vector<DocId> holes;
    for (std::size_t i = 0; i < strided.size(); ++i) {
      if (i % 500 != 17) holes.push_back(strided[i]);
    }
    checkRuns(strided, holes);
    checkRuns(holes, strided);
  });
}

}  // namespace
}  // namespace wandscope::test
