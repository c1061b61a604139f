// SPDX-License-Identifier: GPL-3.0-or-later
// The term-at-a-time OR over sparse lists (taat): on a rare-term corpus (one segment and several,
// BP128 blocks, packed and varint tails) it returns exactly the brute-force oracle's top-k, bit for bit,
// for every k, with repeated and unknown terms; it scores far fewer postings than exhaustive and
// skips blocks; a block whose maximum equals the floor is still scored (blocks are visited out of
// doc-id order, so a tie can enter by doc id); its trace agrees with its counters; beyond
// kTaatMaxTerms lists it falls back to maxscore; it refuses AND.
#include "engine/core/error.h"
#include "engine/query/algorithms/taat_or.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/engine/query/or_search.h"
#include "tests/support/brute_force.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Operator;
using engine::TraceEventKind;

// 30,000 documents of 20-60 filler words; rare terms r0..r19 each in about 2 % of them (about 600
// postings: several BP128 blocks and a tail in one segment, a block and a tail per segment in
// four), some documents holding two or three of them. Term t has tf 5-7 in a cluster of 1,000
// documents starting at 1,400 t and tf 1 elsewhere, so the blocks outside the cluster have lower
// maxima than the top documents.
std::vector<engine::Document> rareCorpus() {
  std::mt19937_64 rng(2718);
  std::vector<engine::Document> docs;
  for (int d = 0; d < 30000; ++d) {
    std::string text;
    const int length = 20 + static_cast<int>(rng() % 41);
    for (int i = 0; i < length; ++i) text += "f" + std::to_string(rng() % 2000) + " ";
    for (int t = 0; t < 20; ++t) {
      if (rng() % 1000 < 20) {
        const bool cluster = d >= 1400 * t && d < 1400 * t + 1000;
        for (std::uint64_t i = 0, tf = cluster ? 5 + rng() % 3 : 1; i < tf; ++i) text += "r" + std::to_string(t) + " ";
      }
    }
    docs.push_back({"d" + std::to_string(d), "", text});
  }
  return docs;
}

class TaatOr : public ::testing::TestWithParam<std::uint32_t> {
 protected:
  static void SetUpTestSuite() {
    s_docs = new std::vector<engine::Document>(rareCorpus());
    s_oracle = new BruteForce(*s_docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
  }
  static void TearDownTestSuite() {
    delete s_oracle;
    delete s_docs;
  }
  static std::vector<engine::Document>* s_docs;
  static BruteForce* s_oracle;
};
std::vector<engine::Document>* TaatOr::s_docs = nullptr;
BruteForce* TaatOr::s_oracle = nullptr;

const std::vector<std::string> kRareQueries = {"r0 r1",       "r0 r1 r2",    "r3 r4 r5 r6", "r7 r7 r8",
                                               "r9 nosuch r10", "r11",       "r12 r13 r14 r15 r16",
                                               "nosuch othernosuch"};

TEST_P(TaatOr, EqualsTheOracleForEveryK) {
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(*s_docs, options);
  for (const std::string& q : kRareQueries) {
    for (std::size_t k : {1, 3, 10, 100, 1000, 50000}) {
      SCOPED_TRACE("segment docs " + std::to_string(GetParam()) + " query '" + q + "' k " + std::to_string(k));
      const auto expected = s_oracle->search(q, Operator::Or, k);
      const auto taat = runOr(*t->index, q, k, Algorithm::Taat);
      ASSERT_TRUE(sameHits(expected, taat.hits));
      EXPECT_EQ(taat.algorithm, Algorithm::Taat);
      const auto ex = runOr(*t->index, q, k, Algorithm::Exhaustive);
      EXPECT_EQ(taat.tieAtK, ex.tieAtK);
      // Every doc-id block is decoded once (the cursors' first blocks are reused, not decoded twice).
      EXPECT_EQ(taat.counters.docBlocksDecoded, ex.counters.docBlocksDecoded);
      EXPECT_EQ(taat.counters.postingsDecoded, ex.counters.postingsDecoded);
      EXPECT_EQ(taat.counters.candidatesSeen, taat.counters.fullScores);
      EXPECT_LE(taat.counters.fullScores, ex.counters.fullScores);
      EXPECT_LE(taat.counters.freqBlocksDecoded, ex.counters.freqBlocksDecoded);
      if (ex.hits.size() < k) {
        // Fewer matches than k: the floor never forms, nothing can be skipped.
        EXPECT_EQ(taat.counters.blocksSkipped, 0u);
        EXPECT_EQ(taat.counters.fullScores, ex.counters.fullScores);
      }
    }
  }
}

TEST_P(TaatOr, ScoresFarFewerPostingsThanExhaustive) {
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(*s_docs, options);
  for (const std::string q : {"r0 r1", "r0 r1 r2", "r3 r4 r5 r6"}) {
    SCOPED_TRACE("segment docs " + std::to_string(GetParam()) + " query '" + q + "'");
    const auto ex = runOr(*t->index, q, 10, Algorithm::Exhaustive);
    const auto taat = runOr(*t->index, q, 10, Algorithm::Taat);
    ASSERT_TRUE(sameHits(ex.hits, taat.hits));
    EXPECT_GT(ex.counters.fullScores, 1000u);
    EXPECT_GT(taat.counters.blocksSkipped, 0u);
    // (1,196 / 1,796 / 2,287 full scores for exhaustive against 250-260 / 35 / 84 for taat.)
    EXPECT_LT(taat.counters.fullScores * 4, ex.counters.fullScores);
    // The shared documents' frequencies are needed wherever they are, so a skipped block may
    // still have had its frequencies decoded.
    EXPECT_LE(taat.counters.freqBlocksDecoded, ex.counters.freqBlocksDecoded);
    // Skipped blocks are among the decoded ones (their doc ids find the shared documents).
    EXPECT_LE(taat.counters.blocksSkipped, taat.counters.docBlocksDecoded);
    EXPECT_EQ(taat.counters.shallowAdvances, 0u);
  }
}

TEST_P(TaatOr, TraceAgreesWithTheCounters) {
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(*s_docs, options);
  for (const std::string q : {"r0 r1 r2", "r11", "r3 r4 r5 r6"}) {
    SCOPED_TRACE("query '" + q + "'");
    engine::TraceRecorder trace;
    const auto traced = runOr(*t->index, q, 10, Algorithm::Taat, &trace);
    EXPECT_FALSE(trace.cursorsWalked) << "taat reads whole lists; the recorded positions do not move";
    const auto plain = runOr(*t->index, q, 10, Algorithm::Taat);
    EXPECT_TRUE(sameHits(plain.hits, traced.hits));
    std::vector<std::uint64_t> plainCounts;
    std::vector<std::uint64_t> tracedCounts;
    plain.counters.forEach([&](const char*, std::uint64_t v) { plainCounts.push_back(v); });
    traced.counters.forEach([&](const char*, std::uint64_t v) { tracedCounts.push_back(v); });
    EXPECT_EQ(plainCounts, tracedCounts);
    EXPECT_EQ(trace.algorithm, "taat");
    EXPECT_FALSE(trace.truncated());
    std::uint64_t skipped = 0;
    std::uint64_t scored = 0;
    std::uint64_t inserts = 0;
    std::uint64_t raises = 0;
    const auto& events = trace.events();
    ASSERT_NO_FATAL_FAILURE(expectFramedWithRisingFloor(events));
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& ev = events[i];
      switch (ev.kind) {
        case TraceEventKind::BlockSkipped:
          ++skipped;
          EXPECT_LT(ev.bound, ev.floor) << "event " << i;  // strictly below: ties are scored
          EXPECT_GT(ev.docEnd, ev.doc) << "event " << i;
          EXPECT_GE(ev.term, 0);
          break;
        case TraceEventKind::CandidateScored:
          ++scored;
          break;
        case TraceEventKind::HeapInsert:
          ++inserts;
          break;
        case TraceEventKind::ThresholdRaised:
          ++raises;
          break;
        default:
          break;
      }
    }
    EXPECT_EQ(skipped, plain.counters.blocksSkipped);
    EXPECT_EQ(scored, plain.counters.fullScores);
    EXPECT_EQ(inserts, plain.counters.heapInserts);
    EXPECT_EQ(raises, plain.counters.thresholdRaises);
  }
}

INSTANTIATE_TEST_SUITE_P(Segments, TaatOr, ::testing::Values(262'144u, 7'500u),
                         [](const ::testing::TestParamInfo<std::uint32_t>& info) {
                           return info.param == 262'144u ? std::string("OneSegment") : std::string("FourSegments");
                         });

// Blocks are visited by descending block maximum, not by doc id, so the floor must be inclusive:
// "t" has two blocks, A (docs 0-127) with maximum S_mid at doc 5, and B (docs 128-255) with S_hi at
// doc 200 and S_mid at doc 201. With k = 3 (plus the one "u" document on top) B is scored first
// and leaves the floor at S_mid = A's maximum; A must still be scored, and doc 5 enters ahead of
// doc 201 by doc id. Skipping a block whose maximum equals the floor, or inserting only scores
// above it, loses doc 5.
TEST(TaatOrExactness, ABlockWhoseMaximumEqualsTheFloorIsScored) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 301; ++d) {
    std::string text;
    if (d < 256) {
      if (d == 5 || d == 201) {
        text = "t x";
      } else if (d == 200) {
        text = "t t t x";
      } else {
        text = "t";
        for (int i = 0; i < 19; ++i) text += " f" + std::to_string(i);
      }
    } else {
      text = d == 300 ? "u" : "g h";
    }
    docs.push_back({"d" + std::to_string(d), "", text});
  }
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});

  // The premise, on the engine's own numbers.
  const auto all = runOr(*t->index, "t u", 300, Algorithm::Exhaustive);
  ASSERT_GE(all.hits.size(), 5u);
  EXPECT_EQ(all.hits[0].doc, 300u);
  EXPECT_EQ(all.hits[1].doc, 200u);
  EXPECT_EQ(all.hits[2].doc, 5u);
  EXPECT_EQ(all.hits[3].doc, 201u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(all.hits[2].score), std::bit_cast<std::uint32_t>(all.hits[3].score));
  EXPECT_LT(all.hits[4].score, all.hits[3].score);

  for (std::size_t k : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE("k " + std::to_string(k));
    const auto expected = oracle.search("t u", Operator::Or, k);
    const auto taat = runOr(*t->index, "t u", k, Algorithm::Taat);
    EXPECT_TRUE(sameHits(expected, taat.hits));
    if (k <= 2) {
      EXPECT_GT(taat.counters.blocksSkipped, 0u);  // A's maximum is below S_hi
    } else if (k == 3) {
      EXPECT_EQ(taat.counters.blocksSkipped, 0u);  // A's maximum equals the floor
    }
  }
}

// More than kTaatMaxTerms lists: maxscore evaluates the query, still exactly.
TEST(TaatOrExactness, ManyTermsFallBackToMaxScore) {
  const auto docs = rareCorpus();
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
  std::string q;
  for (std::size_t i = 0; i <= engine::kTaatMaxTerms; ++i) q += "r" + std::to_string(i) + " ";
  for (std::size_t k : {1, 10, 100}) {
    const auto taat = runOr(*t->index, q, k, Algorithm::Taat);
    EXPECT_TRUE(sameHits(oracle.search(q, Operator::Or, k), taat.hits)) << "k " << k;
    EXPECT_GT(taat.counters.maxscoreEssential, 0u);  // maxscore's own counter: the fallback ran
  }
}

TEST(TaatOrExactness, AndIsAUsageError) {
  const auto t = buildTestIndex(corpusFromDsl("d0: a b / d1: a / d2: b c"));
  engine::SearchRequest r;
  r.text = "a b";
  r.op = Operator::And;
  r.algorithm = Algorithm::Taat;
  try {
    engine::search(*t->index, r);
    FAIL() << "expected a usage error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("taat"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wandscope::test
