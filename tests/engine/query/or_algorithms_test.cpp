// SPDX-License-Identifier: GPL-3.0-or-later
// The OR pruning paths (wand, bmw, maxscore, bmm, taat): they prune (work counters), they stay exact
// where f32 bound arithmetic would not (an adversarial rounding case and near-tie property runs
// against the brute-force oracle, bit for bit) and their traces are consistent.
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "engine/score/score_bounds.h"
#include "tests/engine/query/or_search.h"
#include "tests/support/brute_force.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Hit;
using engine::Operator;
using engine::TraceEventKind;

const std::vector<Algorithm> kOrPaths = {Algorithm::Wand, Algorithm::Bmw, Algorithm::MaxScore, Algorithm::Bmm,
                                         Algorithm::Taat};

// 6000 documents: "common" in ~95 % of them (low idf, many blocks), "mid" in ~10 %, "rare" in
// 1 %, with varied lengths so block maxima differ from list maxima; "heavy" in half of them, with
// a high tf only in documents 3000-3399 (a topical cluster), so most of its blocks have low maxima.
std::vector<engine::Document> skewedCorpus() {
  std::mt19937_64 rng(77);
  std::vector<engine::Document> docs;
  for (int d = 0; d < 6000; ++d) {
    std::string text;
    const int length = 5 + static_cast<int>(rng() % 60);
    for (int i = 0; i < length; ++i) text += "f" + std::to_string(rng() % 500) + " ";
    if (rng() % 100 < 95) {
      for (std::uint64_t i = 0, tf = 1 + rng() % 3; i < tf; ++i) text += "common ";
    }
    if (rng() % 100 < 10) text += "mid ";
    if (rng() % 100 < 50) {
      const std::uint64_t tf = d >= 3000 && d < 3400 ? 4 + rng() % 4 : 1;
      for (std::uint64_t i = 0; i < tf; ++i) text += "heavy ";
    }
    if (rng() % 100 < 1) text += "rare rare ";
    docs.push_back({"d" + std::to_string(d), "", text});
  }
  return docs;
}

class OrAlgorithms : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_docs = new std::vector<engine::Document>(skewedCorpus());
    s_index = buildTestIndex(*s_docs).release();
    s_oracle = new BruteForce(*s_docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
  }
  static void TearDownTestSuite() {
    delete s_oracle;
    delete s_index;
    delete s_docs;
  }
  static std::vector<engine::Document>* s_docs;
  static TestIndex* s_index;
  static BruteForce* s_oracle;
};
std::vector<engine::Document>* OrAlgorithms::s_docs = nullptr;
TestIndex* OrAlgorithms::s_index = nullptr;
BruteForce* OrAlgorithms::s_oracle = nullptr;

TEST_F(OrAlgorithms, PruningPathsDoFarLessWorkThanExhaustive) {
  const engine::Index& index = *s_index->index;
  for (const std::string q : {"common rare", "rare common mid"}) {
    for (std::size_t k = 1; k <= 10; ++k) {
      SCOPED_TRACE("query '" + q + "' k " + std::to_string(k));
      const auto expected = s_oracle->search(q, Operator::Or, k);
      const auto ex = runOr(index, q, k, Algorithm::Exhaustive);
      const auto wand = runOr(index, q, k, Algorithm::Wand);
      const auto bmw = runOr(index, q, k, Algorithm::Bmw);
      const auto ms = runOr(index, q, k, Algorithm::MaxScore);
      const auto bmm = runOr(index, q, k, Algorithm::Bmm);
      const auto bmmDaat = runOr(index, q, k, Algorithm::Bmm, nullptr, false, "bulk_or=off");
      for (const auto* r : {&ex, &wand, &bmw, &ms, &bmm, &bmmDaat}) {
        EXPECT_TRUE(sameHits(expected, r->hits)) << engine::algorithmName(r->algorithm);
      }
      EXPECT_GT(ex.counters.fullScores, 5000u);
      EXPECT_LT(wand.counters.fullScores, ex.counters.fullScores);
      EXPECT_GT(wand.counters.wandPivots, 0u);
      // "far fewer": at least 10x fewer full scores than exhaustive.
      EXPECT_LT(bmw.counters.fullScores * 10, ex.counters.fullScores);
      EXPECT_LT(ms.counters.fullScores * 10, ex.counters.fullScores);
      EXPECT_LT(bmm.counters.fullScores * 10, ex.counters.fullScores);
      EXPECT_GT(bmw.counters.blocksSkipped, 0u);
      EXPECT_GT(bmw.counters.shallowAdvances, 0u);
      EXPECT_LT(bmw.counters.docBlocksDecoded, ex.counters.docBlocksDecoded);
      EXPECT_GT(ms.counters.blocksSkipped, 0u);
      EXPECT_LT(ms.counters.docBlocksDecoded, ex.counters.docBlocksDecoded);
      EXPECT_GT(ms.counters.maxscoreEssential, 0u);
      EXPECT_GT(ms.counters.maxscoreNonEssential, 0u);
      EXPECT_TRUE(bmmDaat.counters.candidatesPrunedLimit > 0 ||
                  bmmDaat.counters.docBlocksDecoded < ms.counters.docBlocksDecoded);
      // The document-at-a-time bmm is MaxScore plus block-maximum checks: never more decoding.
      // The windowed one (the default) splits per window with the floor it had at the window's
      // start and cuts candidates per 128-document chunk, so on this small index it may decode
      // more than MaxScore, but fewer than exhaustive.
      EXPECT_LE(bmmDaat.counters.docBlocksDecoded, ms.counters.docBlocksDecoded);
      EXPECT_LT(bmm.counters.docBlocksDecoded, ex.counters.docBlocksDecoded);
      EXPECT_GT(bmm.counters.maxscoreNonEssential, 0u);
      EXPECT_EQ(ex.counters.blocksSkipped, 0u);
    }
  }
}

TEST_F(OrAlgorithms, SingleTermQueriesSkipBlocks) {
  const engine::Index& index = *s_index->index;
  for (const std::string q : {"common", "heavy", "mid", "rare", "nosuchword common"}) {
    for (std::size_t k : {1, 2, 10, 100}) {
      SCOPED_TRACE("query '" + q + "' k " + std::to_string(k));
      const auto expected = s_oracle->search(q, Operator::Or, k);
      for (Algorithm a : kOrPaths) {
        EXPECT_TRUE(sameHits(expected, runOr(index, q, k, a).hits)) << engine::algorithmName(a);
      }
    }
  }
  // One long list with varied block maxima, small k: BMW degenerates to a block-max scan that
  // skips most blocks.
  const auto ex = runOr(index, "heavy", 10, Algorithm::Exhaustive);
  const auto bmw = runOr(index, "heavy", 10, Algorithm::Bmw);
  EXPECT_GT(bmw.counters.blocksSkipped, 0u);
  EXPECT_LT(bmw.counters.docBlocksDecoded * 2, ex.counters.docBlocksDecoded);
  EXPECT_LT(bmw.counters.fullScores * 10, ex.counters.fullScores);
}

TEST_F(OrAlgorithms, TracesAreConsistentAndFree) {
  const engine::Index& index = *s_index->index;
  for (Algorithm a : kOrPaths) {
    std::size_t pivots = 0;
    std::size_t skips = 0;
    std::size_t splits = 0;
    std::size_t pruned = 0;
    std::uint64_t countedPivots = 0;
    std::uint64_t countedPruned = 0;
    for (const std::string q : {"heavy rare mid", "heavy", "rare common"}) {
      SCOPED_TRACE(std::string(engine::algorithmName(a)) + " '" + q + "'");
      engine::TraceRecorder trace;
      // Without the rank floor, so the floor rises from -inf and MaxScore's split moves with it.
      const auto traced = runOr(index, q, 5, a, &trace, false, "rank_floor=off");
      const auto plain = runOr(index, q, 5, a, nullptr, false, "rank_floor=off");
      EXPECT_TRUE(sameHits(plain.hits, traced.hits));
      EXPECT_EQ(plain.counters.fullScores, traced.counters.fullScores);
      EXPECT_FALSE(trace.truncated());
      countedPivots += traced.counters.wandPivots;
      countedPruned += traced.counters.candidatesPrunedLimit;
      const auto& events = trace.events();
      ASSERT_NO_FATAL_FAILURE(expectFramedWithRisingFloor(events));
      const std::size_t splitsBefore = splits;
      for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& ev = events[i];
        switch (ev.kind) {
          case TraceEventKind::PivotSelected:
            ++pivots;
            EXPECT_GT(ev.bound, ev.floor) << "event " << i;
            EXPECT_GE(ev.term, 0);
            EXPECT_LT(ev.term, 3);
            break;
          case TraceEventKind::BlockSkipped:
            ++skips;
            EXPECT_LE(ev.bound, ev.floor) << "event " << i;
            EXPECT_GT(ev.docEnd, ev.doc) << "event " << i;
            break;
          case TraceEventKind::EssentialSplit:
            ++splits;
            EXPECT_GE(ev.score, 0.0f);
            EXPECT_LE(ev.score, 3.0f);
            break;
          case TraceEventKind::CandidatePruned:
            ++pruned;
            EXPECT_LE(ev.bound, ev.floor) << "event " << i;
            EXPECT_EQ(ev.reason, engine::TraceReason::Bound);
            break;
          default:
            break;
        }
      }
      if (a == Algorithm::MaxScore || a == Algorithm::Bmm) {
        EXPECT_GE(splits - splitsBefore, 1u);  // at least the initial split
      }
    }
    SCOPED_TRACE(engine::algorithmName(a));
    EXPECT_EQ(pivots, countedPivots);
    EXPECT_EQ(pruned, countedPruned);
    if (a == Algorithm::Wand || a == Algorithm::Bmw) {
      EXPECT_GT(pivots, 0u);
      EXPECT_EQ(splits, 0u);
    }
    if (a == Algorithm::Bmw) {
      EXPECT_GT(skips, 0u);
    }
    if (a == Algorithm::MaxScore || a == Algorithm::Bmm) {
      EXPECT_GE(splits, 4u);  // the initial splits and at least one more as a floor rose
      EXPECT_EQ(pivots, 0u);
    }
  }
}

// bmm run document at a time skips block ranges on their bounds as block-max-and does, and counts
// each in windows_skipped_bound, one per block_skipped event (a review found it counting none).
TEST_F(OrAlgorithms, BmmDocumentAtATimeCountsItsBoundSkips) {
  const engine::Index& index = *s_index->index;
  std::uint64_t skipped = 0;
  for (const std::string q : {"heavy rare mid", "heavy", "heavy common", "rare common"}) {
    SCOPED_TRACE(q);
    engine::TraceRecorder trace;
    const auto r = runOr(index, q, 5, Algorithm::Bmm, &trace, false, "bulk_or=off");
    std::uint64_t events = 0;
    for (const auto& e : trace.events()) events += e.kind == TraceEventKind::BlockSkipped ? 1 : 0;
    EXPECT_EQ(r.counters.windowsSkippedBound, events);
    EXPECT_EQ(r.counters.windowsTotal, 0u) << "no windows document at a time";
    skipped += events;
  }
  EXPECT_GT(skipped, 0u);
}

// A document whose true score beats the floor by one ULP while an f32 sum of the very same
// bounds, added in another order, rounds down onto the floor.
//
// d1 = "a b c" holds the maximum of each of its lists; d0 = "a2 b2 c2" mirrors it (same length,
// same document frequencies, so the same contributions), but the query lists the mirrors in
// the order a2 c2 b2. So d0 scores fl(fl(ca + cc) + cb), which for these frequencies is one ULP
// below d1's fl(fl(ca + cb) + cc). With k = 1, d0 sets the floor before d1 is reached; a path
// that summed list maxima in f32 in the order a, c, b would find a bound <= floor and lose d1.
// (Frequencies found by a search over filler counts: b and b2 in one 4-token filler each, c and
// c2 in three.)
TEST(OrAlgorithmsExactness, F32SumOfBoundsWouldRoundOntoTheFloor) {
  std::string dsl = "e: a2 b2 c2 / d: a b c";
  int filler = 0;
  for (const char* term : {"b", "b2", "c", "c", "c", "c2", "c2", "c2"}) {
    dsl += " / f" + std::to_string(filler++) + ": " + term + " zz zz zz";
  }
  const auto docs = corpusFromDsl(dsl);
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
  const std::string q = "a b c a2 c2 b2";

  // The premise, checked on the engine's own numbers.
  const auto full = runOr(*t->index, q, 2, Algorithm::Exhaustive, nullptr, true);
  ASSERT_EQ(full.hits.size(), 2u);
  ASSERT_EQ(full.hits[0].doc, 1u);
  ASSERT_EQ(full.hits[1].doc, 0u);
  const auto& c = full.explain[0].contribution;  // d1: a, b, c, a2, c2, b2
  ASSERT_EQ(c.size(), 6u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(c[i], full.query.terms[i].maxScore) << "term " << i;
  const float floor = full.hits[1].score;
  const float truth = full.hits[0].score;
  const float otherOrder = (c[0] + c[2]) + c[1];
  EXPECT_EQ(std::bit_cast<std::uint32_t>(truth), std::bit_cast<std::uint32_t>((c[0] + c[1]) + c[2]));
  ASSERT_LT(floor, truth);
  ASSERT_LE(otherOrder, floor) << "the f32 sum of the same bounds in another order must not beat the floor";
  EXPECT_EQ(std::nextafter(floor, 100.0f), truth);

  for (std::size_t k : {1, 2, 3}) {
    const auto expected = oracle.search(q, Operator::Or, k);
    ASSERT_EQ(expected[0].doc, 1u);
    for (Algorithm a : kOrPaths) {
      EXPECT_TRUE(sameHits(expected, runOr(*t->index, q, k, a).hits)) << engine::algorithmName(a) << " k " << k;
    }
    // Subsets of the query where the mirrored pair still decides the top document.
    for (const std::string sub : {"a b c a2 c2", "c2 a b c a2 b2", "b2 c2 a2 c b a"}) {
      const auto e2 = oracle.search(sub, Operator::Or, k);
      for (Algorithm a : kOrPaths) {
        EXPECT_TRUE(sameHits(e2, runOr(*t->index, sub, k, a).hits))
            << engine::algorithmName(a) << " '" << sub << "' k " << k;
      }
    }
  }
}

// The paths decide "conservativeBound(x, factor) > floor" as !(x * factor <= floor) in f64 (no
// nextafter in the hot loops). The two agree because the smallest f32 >= y is > an f32 floor
// exactly when y > floor, and a NaN bound means "cannot prune" in both. Checked here around the
// rounding boundaries, where it matters.
TEST(OrAlgorithmsExactness, F64FloorTestEqualsTheOutwardRoundedBound) {
  const std::uint64_t seed = 4242;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> mag(1e-4f, 64.0f);
  auto fast = [](double x, double factor, float floor) { return !(x * factor <= static_cast<double>(floor)); };
  for (int i = 0; i < 200000; ++i) {
    const float floor = mag(rng);
    const double factor = engine::sumUpperBoundFactor(1 + rng() % 12);
    // x * factor lands within a few f32 ULPs of the floor, on f64 values in between as well.
    double x = static_cast<double>(floor) / factor;
    const int steps = static_cast<int>(rng() % 9) - 4;
    for (int s = 0; s < std::abs(steps); ++s) {
      x = static_cast<double>(std::nextafter(static_cast<float>(x), steps < 0 ? 0.0f : 1e30f));
    }
    x = std::nextafter(x, (rng() & 1) != 0 ? 0.0 : 1e300);
    if ((rng() & 3) == 0) x = std::nextafter(x, (rng() & 1) != 0 ? 0.0 : 1e300);
    ASSERT_EQ(engine::conservativeBound(x, factor) > floor, fast(x, factor, floor))
        << std::hexfloat << "x " << x << " factor " << factor << " floor " << floor;
    // scoreSumCannotCompete is the negation, with x split into an f32 partial and a remainder.
    const float partial = static_cast<float>(x / 2);
    const double remaining = x - static_cast<double>(partial);
    ASSERT_EQ(engine::scoreSumCannotCompete(partial, remaining, floor, factor),
              !fast(static_cast<double>(partial) + remaining, factor, floor))
        << std::hexfloat << "partial " << partial << " remaining " << remaining << " floor " << floor;
  }
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (float floor : {-kInf, 0.0f, 1.0f, kInf}) {
    for (double x : {0.0, 1.0, 3.5, nan, static_cast<double>(kInf)}) {
      // The one difference: a NaN bound against a +inf floor (k = 0, which never reaches a path)
      // is "cannot prune" for the f64 test; it never prunes where the library would not.
      if (std::isnan(x) && floor == kInf) {
        EXPECT_TRUE(fast(x, 1.0, floor));
        continue;
      }
      EXPECT_EQ(engine::conservativeBound(x, 1.0) > floor, fast(x, 1.0, floor)) << x << " vs " << floor;
    }
  }
}

// Near ties at the k-th place: corpora full of duplicates and short documents, k chosen where the
// k-th and (k+1)-th scores are equal or a few ULPs apart, every OR path against the oracle.
TEST(OrAlgorithmsExactness, NearTiesAtTheKthPlaceMatchTheOracle) {
  for (std::uint64_t seed : {11u, 12u, 13u, 14u}) {
    RandomCorpusParams params{.docs = 700, .vocabulary = 25, .maxLength = 8, .duplicateFraction = 0.5};
    const auto docs = randomCorpus(seed, params);
    engine::IndexBuildOptions options;
    options.segmentDocs = seed % 2 == 0 ? 65536 : 200;
    const auto t = buildTestIndex(docs, options);
    const BruteForce oracle(docs, engine::AnalyzerKind::Plain, options.bm25);
    std::mt19937_64 rng(seed);
    std::size_t tieCases = 0;
    for (int qi = 0; qi < 30; ++qi) {
      const std::string q = randomQuery(rng, params, 6);
      const auto all = oracle.search(q, Operator::Or, docs.size());
      std::vector<std::size_t> ks;
      for (std::size_t i = 1; i < all.size() && ks.size() < 6; ++i) {
        const auto a = std::bit_cast<std::int32_t>(all[i - 1].score);
        const auto b = std::bit_cast<std::int32_t>(all[i].score);
        if (a - b <= 4) ks.push_back(i);  // k = i: the k-th and (k+1)-th scores are within 4 ULPs
      }
      tieCases += ks.size();
      for (std::size_t k : ks) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " query '" + q + "' k " + std::to_string(k));
        const auto expected = oracle.search(q, Operator::Or, k);
        for (Algorithm a : kOrPaths) {
          ASSERT_TRUE(sameHits(expected, runOr(*t->index, q, k, a).hits)) << engine::algorithmName(a);
        }
      }
    }
    EXPECT_GT(tieCases, 20u) << "seed " << seed << ": the corpus should produce near ties";
  }
}

// Every path with candidate_prune off and on (the one switch the OR paths read) against the
// oracle on a multi-segment corpus with long lists.
TEST(OrAlgorithmsExactness, CandidatePruneSwitchKeepsResults) {
  const std::uint64_t seed = 5150;
  SCOPED_TRACE("seed " + std::to_string(seed));
  RandomCorpusParams params{.docs = 3000, .vocabulary = 80, .maxLength = 40, .duplicateFraction = 0.1};
  const auto docs = randomCorpus(seed, params);
  engine::IndexBuildOptions options;
  options.segmentDocs = 1000;
  const auto t = buildTestIndex(docs, options);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, options.bm25);
  std::mt19937_64 rng(seed);
  for (int qi = 0; qi < 20; ++qi) {
    const std::string q = randomQuery(rng, params, 8);
    for (std::size_t k : {1, 10, 50}) {
      const auto expected = oracle.search(q, Operator::Or, k);
      for (Algorithm a : kOrPaths) {
        for (bool prune : {false, true}) {
          engine::SearchRequest r;
          r.text = q;
          r.k = k;
          r.algorithm = a;
          r.options.candidatePrune = prune;
          ASSERT_TRUE(sameHits(expected, engine::search(*t->index, r).hits))
              << engine::algorithmName(a) << " '" << q << "' k " << k << " candidate_prune " << prune;
        }
      }
    }
  }
}

}  // namespace
}  // namespace wandscope::test
