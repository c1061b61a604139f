// SPDX-License-Identifier: GPL-3.0-or-later
// The rank floor (engine/query/rank_floor.h, docs/ALGORITHMS.md "Rank floor"): the r-th largest
// weights the bounds writer stores, the floor they give an OR query, and what the pruning paths
// do with it. Exactness under it is in parity_test.cpp (every path with rank_floor on and off).
#include "engine/query/rank_floor.h"

#include "engine/core/wording.h"
#include "engine/index/index.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_reader.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "engine/text/analyzer.h"
#include "tests/support/brute_force.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Operator;
namespace format = engine::format;

const Algorithm kOrPruningPaths[] = {Algorithm::Wand, Algorithm::Bmw, Algorithm::MaxScore, Algorithm::Bmm,
                                     Algorithm::Taat};

engine::SearchResult run(const engine::Index& index, const std::string& q, std::size_t k, Algorithm algo,
                         bool rankFloor, Operator op = Operator::Or, engine::TraceRecorder* trace = nullptr) {
  engine::SearchRequest r;
  r.text = q;
  r.op = op;
  r.k = k;
  r.algorithm = algo;
  r.options.rankFloor = rankFloor;
  r.trace = trace;
  return engine::search(index, r);
}

// Each segment's stored weights are its lists' r-th largest W(tf, dl), recomputed here from the
// decoded postings: bit for bit, 0 where a list is shorter than r.
TEST(RankFloor, StoredWeightsAreEachListsRthLargestWeight) {
  const auto docs = randomCorpus(31, {.docs = 6000, .vocabulary = 400, .maxLength = 40, .duplicateFraction = 0.1});
  engine::IndexBuildOptions options;
  options.segmentDocs = 2500;  // three segments
  const auto t = buildTestIndex(docs, options);
  const engine::Index& index = *t->index;
  const float* norms = index.lengthNorms();
  std::size_t checked = 0;
  std::array<std::size_t, format::kRankWeightCount> present{};
  for (const auto& segment : index.segments()) {
    for (std::uint32_t term = 0; term < segment->termCount(); ++term) {
      const engine::PostingList list = segment->postingList(term);
      ASSERT_EQ(list.rankWeights.size(), format::kRankWeightCount);
      std::vector<float> weights;
      std::array<engine::DocId, engine::kBlockSize> ids{};
      std::array<std::uint32_t, engine::kBlockSize> freqs{};
      for (std::uint32_t b = 0; b < list.blockCount(); ++b) {
        bool tail = false;
        const std::uint32_t n = engine::decodeBlockDocs(list, b, ids.data(), freqs.data(), tail);
        if (!tail) engine::decodeBlockFreqs(list, b, freqs.data());
        for (std::uint32_t i = 0; i < n; ++i) weights.push_back(index.bm25().weight(freqs[i], norms[ids[i]]));
      }
      std::sort(weights.begin(), weights.end(), std::greater<float>());
      for (std::uint32_t i = 0; i < format::kRankWeightCount; ++i) {
        const std::size_t rank = format::kRankWeightRanks[i];
        const float expected = weights.size() >= rank ? weights[rank - 1] : 0.0f;
        ASSERT_EQ(list.rankWeights[i], expected) << "segment " << segment->id() << " term " << term << " rank " << rank;
        present[i] += weights.size() >= rank;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
  for (std::size_t n : present) EXPECT_GT(n, 0u);  // every rank is stored for some list
}

// Thirty identical documents tie at exactly the 10th-largest weight: the floor must stay strictly
// below it or every one of them would be refused (and the answer be empty).
TEST(RankFloor, DocumentsScoringExactlyTheFloorStillEnter) {
  std::string dsl;
  for (int i = 0; i < 30; ++i) dsl += "t" + std::to_string(i) + ": apple pie / ";
  for (int i = 0; i < 30; ++i) dsl += "o" + std::to_string(i) + ": pie crust crust / ";
  dsl += "last: apple";
  const auto docs = corpusFromDsl(dsl);
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
  engine::Analyzer analyzer(t->index->analyzerKind());
  const auto floor = engine::rankFloor(*t->index, engine::parseQuery(*t->index, "apple", analyzer), 10);
  ASSERT_TRUE(floor);
  const auto expected = oracle.search("apple", Operator::Or, 10);
  ASSERT_EQ(expected.size(), 10u);
  ASSERT_EQ(expected.back().score, floor->score);  // the floor is tight: the tie case itself
  EXPECT_EQ(floor->rank, 10u);
  for (const Algorithm a : kOrPruningPaths) {
    for (const std::string q : {"apple", "apple pie", "pie apple crust"}) {
      EXPECT_TRUE(sameHits(oracle.search(q, Operator::Or, 10), run(*t->index, q, 10, a, true).hits))
          << engine::algorithmName(a) << " '" << q << "'";
    }
  }
}

// With the floor preset the pruning paths score fewer documents from the start; the trace shows
// the preset right after QueryStart; the oracle and AND queries never get one.
TEST(RankFloor, OrPruningPathsScoreFewerDocumentsFromTheStart) {
  const auto docs = randomCorpus(47, {.docs = 20000, .vocabulary = 300, .maxLength = 30, .duplicateFraction = 0.05});
  const auto t = buildTestIndex(docs);
  const engine::Index& index = *t->index;
  std::mt19937_64 rng(47);
  std::vector<std::string> queries;
  for (int i = 0; i < 12; ++i) queries.push_back(randomQuery(rng, {.docs = 20000, .vocabulary = 60}, 4));
  for (const Algorithm a : kOrPruningPaths) {
    SCOPED_TRACE(engine::algorithmName(a));
    std::uint64_t scoredOn = 0, scoredOff = 0;
    for (const auto& q : queries) {
      const auto on = run(index, q, 10, a, true);
      const auto off = run(index, q, 10, a, false);
      ASSERT_TRUE(sameHits(off.hits, on.hits)) << q;
      EXPECT_LE(on.counters.fullScores, off.counters.fullScores) << q;
      scoredOn += on.counters.fullScores;
      scoredOff += off.counters.fullScores;
    }
    // taat scores the documents of two or more lists first and then its blocks by descending
    // maximum: the floor those give is mostly above the rank floor already (never more work).
    if (a != Algorithm::Taat) {
      EXPECT_LT(scoredOn, scoredOff);
    }
  }
  const std::string q = queries.front();
  engine::TraceRecorder trace;
  const auto traced = run(index, q, 10, Algorithm::Bmm, true, Operator::Or, &trace);
  engine::Analyzer analyzer(index.analyzerKind());
  const auto floor = engine::rankFloor(index, engine::parseQuery(index, q, analyzer), 10);
  ASSERT_TRUE(floor);
  ASSERT_GE(trace.events().size(), 2u);
  const auto& preset = trace.events()[1];
  EXPECT_EQ(preset.kind, engine::TraceEventKind::ThresholdRaised);
  EXPECT_EQ(preset.floor, std::nextafter(floor->score, -INFINITY));
  EXPECT_EQ(preset.term, static_cast<std::int32_t>(floor->term));
  EXPECT_EQ(preset.score, floor->score);
  EXPECT_EQ(preset.docEnd, floor->rank);
  EXPECT_NE(traced.reason.find("floor preset"), std::string::npos) << traced.reason;
  // Not the oracle, not AND: their threshold raises are those of the documents alone.
  for (const auto& [algo, op] : {std::pair{Algorithm::Exhaustive, Operator::Or}, std::pair{Algorithm::BulkAnd, Operator::And},
                                 std::pair{Algorithm::BlockMaxAnd, Operator::And}}) {
    const auto on = run(index, q, 10, algo, true, op);
    const auto off = run(index, q, 10, algo, false, op);
    EXPECT_EQ(on.counters.thresholdRaises, off.counters.thresholdRaises) << engine::algorithmName(algo);
    EXPECT_EQ(on.counters.fullScores, off.counters.fullScores) << engine::algorithmName(algo);
  }
}

// The planner's reason names the preset floor as Explore and `search --explain` print scores: a
// term in every one of 20,000 documents has idf about 0.000025, which the reason printed as
// "5.3453594e-05" (stop 33's review of the default dataset's 'fe').
TEST(RankFloor, ThePlannersReasonNamesTheFloorWithoutAnExponent) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 20000; ++i) docs.push_back({"d" + std::to_string(i), "", i % 7 == 0 ? "a a b" : "a b"});
  const auto t = buildTestIndex(docs);
  const auto result = run(*t->index, "a", 10, Algorithm::Bmw, true);
  engine::Analyzer analyzer(t->index->analyzerKind());
  const auto floor = engine::rankFloor(*t->index, engine::parseQuery(*t->index, "a", analyzer), 10);
  ASSERT_TRUE(floor);
  ASSERT_LT(floor->score, 1e-4f);  // where fmt's shortest form turns to an exponent
  const std::string expected = "; floor preset below " + engine::exactFigure(floor->score) + " ('a' has " +
                               engine::counted(floor->rank, "document", "documents") + " scoring at least that)";
  EXPECT_NE(result.reason.find(expected), std::string::npos) << result.reason << "\nexpected: " << expected;
  EXPECT_EQ(result.reason.find("e-"), std::string::npos) << result.reason;
}

// An AND of one known term (written once or repeated) is the OR of it: its pruning paths start
// from the rank floor too, return the oracle's hits, and score fewer documents; an AND whose
// second term is unknown matches nothing and gets no floor.
TEST(RankFloor, AOneTermAndStartsFromItAsItsOrDoes) {
  const auto docs = randomCorpus(53, {.docs = 20000, .vocabulary = 300, .maxLength = 30, .duplicateFraction = 0.05});
  const auto t = buildTestIndex(docs);
  const engine::Index& index = *t->index;
  std::uint64_t scoredOn = 0, scoredOff = 0;
  std::size_t withFloor = 0;
  for (const std::string q : {"w3", "w10", "w25 w25", "w40", "w80", "w150"}) {
    const auto oracle = run(index, q, 10, Algorithm::Exhaustive, true, Operator::And);
    const auto asOr = run(index, q, 10, Algorithm::Auto, true, Operator::Or);
    ASSERT_TRUE(sameHits(oracle.hits, asOr.hits)) << q;
    for (const Algorithm a : {Algorithm::Auto, Algorithm::BulkAnd, Algorithm::BlockMaxAnd}) {
      SCOPED_TRACE(std::string(engine::algorithmName(a)) + " '" + q + "'");
      const auto on = run(index, q, 10, a, true, Operator::And);
      const auto off = run(index, q, 10, a, false, Operator::And);
      ASSERT_TRUE(sameHits(oracle.hits, on.hits));
      ASSERT_TRUE(sameHits(oracle.hits, off.hits));
      EXPECT_LE(on.counters.fullScores, off.counters.fullScores);
      scoredOn += on.counters.fullScores;
      scoredOff += off.counters.fullScores;
      engine::Analyzer analyzer(index.analyzerKind());
      if (engine::rankFloor(index, engine::parseQuery(index, q, analyzer), 10)) {
        ++withFloor;
        EXPECT_NE(on.reason.find("floor preset"), std::string::npos) << on.reason;
      }
    }
  }
  EXPECT_GT(withFloor, 0u);
  EXPECT_LT(scoredOn, scoredOff);
  // The trace shows the preset right after QueryStart, as for OR.
  engine::TraceRecorder trace;
  (void)run(index, "w10", 10, Algorithm::BulkAnd, true, Operator::And, &trace);
  ASSERT_GE(trace.events().size(), 2u);
  EXPECT_EQ(trace.events()[1].kind, engine::TraceEventKind::ThresholdRaised);
  EXPECT_GE(trace.events()[1].term, 0);
  // A second, unknown term: nothing matches, nothing is preset.
  const auto none = run(index, "w10 nosuchword", 10, Algorithm::BulkAnd, true, Operator::And);
  EXPECT_TRUE(none.hits.empty());
  EXPECT_EQ(none.counters.thresholdRaises, 0u);
  EXPECT_EQ(none.reason.find("floor preset"), std::string::npos) << none.reason;
}

// k above the largest stored rank, or lists shorter than the rank k needs: no floor.
TEST(RankFloor, NoneWhenKIsAboveTheStoredRanksOrTheListsAreShorter) {
  const auto docs = corpusFromDsl("a: x y / b: x / c: y z / d: x z");
  const auto t = buildTestIndex(docs);
  engine::Analyzer analyzer(t->index->analyzerKind());
  const auto query = engine::parseQuery(*t->index, "x y z", analyzer);
  EXPECT_FALSE(engine::rankFloor(*t->index, query, 1));  // every list is shorter than 10
  EXPECT_FALSE(engine::rankFloor(*t->index, query, 0));
  std::string dsl;
  for (int i = 0; i < 120; ++i) dsl += (i == 0 ? "d" : " / d") + std::to_string(i) + ": common" + (i % 3 == 0 ? " rare" : "");
  const auto t2 = buildTestIndex(corpusFromDsl(dsl));
  const auto query2 = engine::parseQuery(*t2->index, "common rare", analyzer);
  const auto at10 = engine::rankFloor(*t2->index, query2, 10);
  ASSERT_TRUE(at10);
  EXPECT_EQ(at10->rank, 10u);
  const auto at11 = engine::rankFloor(*t2->index, query2, 11);  // uses rank 100: only "common" has 100
  ASSERT_TRUE(at11);
  EXPECT_EQ(at11->rank, 100u);
  EXPECT_EQ(query2.terms[at11->term].text, "common");
  EXPECT_FALSE(engine::rankFloor(*t2->index, query2, 101));  // rank 1000: no list that long
  EXPECT_FALSE(engine::rankFloor(*t2->index, query2, 1001));  // above every stored rank
}

}  // namespace
}  // namespace wandscope::test
