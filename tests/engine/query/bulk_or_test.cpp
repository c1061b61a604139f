// SPDX-License-Identifier: GPL-3.0-or-later
// The windowed Block-Max MaxScore (bmm, bulk_or=on): on corpora spanning several windows of up
// to 8192 documents (so windows are skipped, lists lag behind windows and essential sets change
// between windows) it returns exactly the brute-force oracle's top-k, bit for bit, with every combination
// of its switches; it prunes (work counters); beyond 64 terms it falls back to the document-at-a-
// time bmm and stays exact.
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/support/oracle_corpus.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Operator;

engine::SearchResult runBmm(const engine::Index& index, const std::string& q, std::size_t k, bool bulkOr,
                            bool windowSkip = true, bool candidatePrune = true,
                            engine::TraceRecorder* trace = nullptr, bool boundFirst = true, bool rankFloor = true) {
  engine::SearchRequest r;
  r.text = q;
  r.op = Operator::Or;
  r.k = k;
  r.algorithm = Algorithm::Bmm;
  r.options.bulkOr = bulkOr;
  r.options.windowSkip = windowSkip;
  r.options.candidatePrune = candidatePrune;
  r.options.boundFirst = boundFirst;
  r.trace = trace;
  r.options.rankFloor = rankFloor;
  return engine::search(index, r);
}

using ManyWindows = CorpusCase;

class BulkOrParity : public ::testing::TestWithParam<ManyWindows> {};

TEST_P(BulkOrParity, EqualsTheOracleAcrossManyWindows) {
  const ManyWindows c = GetParam();
  SCOPED_TRACE("corpus seed " + std::to_string(c.seed));
  const auto [t, oracle] = buildOracleCorpus(c);
  std::mt19937_64 rng(c.seed * 7 + 1);
  std::uint64_t windows = 0;
  std::uint64_t skipped = 0;
  std::uint64_t boundFirst = 0;
  for (int q = 0; q < 24; ++q) {
    const std::string query = randomQuery(rng, c.params, 6);
    for (std::size_t k : {1, 10, 100, 1000}) {
      const auto expected = oracle.search(query, Operator::Or, k);
      for (int mask = 0; mask < 8; ++mask) {
        const auto r = runBmm(*t->index, query, k, true, (mask & 1) != 0, (mask & 2) != 0, nullptr, (mask & 4) != 0);
        ASSERT_TRUE(sameHits(expected, r.hits))
            << "query '" << query << "' k " << k << " window_skip " << (mask & 1) << " candidate_prune "
            << (mask >> 1 & 1) << " bound_first " << (mask >> 2);
        windows += r.counters.windowsTotal;
        skipped += r.counters.windowsSkippedBound;
        boundFirst += r.counters.windowsBoundFirst;
      }
    }
  }
  // The corpus really spans several windows, some were skipped whole and some bounded first.
  EXPECT_GT(windows, 24u * 4 * 8 * 2);
  EXPECT_GT(skipped, 0u);
  EXPECT_GT(boundFirst, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Corpora, BulkOrParity,
    ::testing::Values(
        // Long lists over several windows, many ties from duplicates, one segment.
        ManyWindows{7001, {.docs = 20000, .vocabulary = 400, .maxLength = 30, .duplicateFraction = 0.3}, 65536},
        // Larger vocabulary (rare lists that are absent from most windows), several segments whose
        // boundaries do not fall on window boundaries.
        ManyWindows{7002, {.docs = 30000, .vocabulary = 5000, .maxLength = 80, .duplicateFraction = 0.05}, 7000},
        // Tiny documents: scores bunch up, near-ties around the floor.
        ManyWindows{7003, {.docs = 13000, .vocabulary = 60, .maxLength = 4, .duplicateFraction = 0.5}, 4096},
        // Segments of 37 documents: a window reads each list in dozens of slices (one per segment's
        // block), each with its own block maximum, so a document's bound takes its lists' maxima
        // from different slices.
        ManyWindows{7004, {.docs = 12000, .vocabulary = 300, .maxLength = 20, .duplicateFraction = 0.1}, 37}));

// 30k documents over 3000 words: lists from most documents (w0) to a few (w2500); 9 windows for
// sparse queries, 12 when the lists are dense enough to stop at 4096 ("w0 w40 w2500").
const RandomCorpusParams kThirtyThousand{.docs = 30000, .vocabulary = 3000, .maxLength = 60, .duplicateFraction = 0.05};

TEST(BulkOr, PrunesWhereTheDocumentAtATimeBmmDoes) {
  const auto docs = randomCorpus(42, kThirtyThousand);
  const auto t = buildTestIndex(docs);
  // w0 is in most documents, w2500 in a few: once the floor rises above w0's maximum, w0 is
  // non-essential and only probed for the documents of the rarer lists.
  const std::string q = "w0 w40 w2500";
  const auto bulk = runBmm(*t->index, q, 10, true);
  const auto ex = [&] {
    engine::SearchRequest r;
    r.text = q;
    r.k = 10;
    r.algorithm = Algorithm::Exhaustive;
    return engine::search(*t->index, r);
  }();
  ASSERT_TRUE(sameHits(ex.hits, bulk.hits));
  EXPECT_GT(bulk.counters.maxscoreNonEssential, 0u);
  EXPECT_GT(bulk.counters.candidatesPrunedLimit + bulk.counters.windowsSkippedBound, 0u);
  EXPECT_LT(bulk.counters.fullScores * 4, ex.counters.fullScores);
  EXPECT_LT(bulk.counters.maxscoreEssential * 2, ex.counters.postingsDecoded);
  // Switched off, the same query runs the document-at-a-time bmm (no windows).
  const auto daat = runBmm(*t->index, q, 10, false);
  ASSERT_TRUE(sameHits(ex.hits, daat.hits));
  EXPECT_EQ(daat.counters.windowsTotal, 0u);
  EXPECT_GT(bulk.counters.windowsTotal, 0u);
}

// Three lists of similar length: once the floor is above every list's maximum, a document needs
// two of them, and bounding each by its lists' block maxima leaves only those to score. (60k
// documents: 13 windows, the first six of them 128 doc ids and doubling while the floor forms; 8
// of the 13 are bound-first.)
TEST(BulkOr, BoundFirstScoresOnlyDocumentsWhoseBlockMaximaBeatTheFloor) {
  RandomCorpusParams params = kThirtyThousand;
  params.docs = 60000;
  const auto docs = randomCorpus(43, params);
  const auto t = buildTestIndex(docs);
  const std::string q = "w30 w31 w32";
  const auto on = runBmm(*t->index, q, 10, true);
  const auto off = runBmm(*t->index, q, 10, true, true, true, nullptr, false);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, {});
  ASSERT_TRUE(sameHits(oracle.search(q, Operator::Or, 10), on.hits));
  ASSERT_TRUE(sameHits(on.hits, off.hits));
  EXPECT_GT(on.counters.windowsBoundFirst, on.counters.windowsTotal / 2)
      << on.counters.windowsBoundFirst << " of " << on.counters.windowsTotal;
  EXPECT_EQ(off.counters.windowsBoundFirst, 0u);
  // Score-first, every document of an essential list is a candidate; bound-first only those whose
  // bound beat the floor.
  EXPECT_LT(on.counters.candidatesSeen * 2, off.counters.candidatesSeen)
      << on.counters.candidatesSeen << " vs " << off.counters.candidatesSeen;
}

// Every document has 3 tokens and every term occurs once, so all postings of a list score the
// same and a document's block-maximum bound equals its score: no slack. The first 50 documents
// hold "a b" (the floor at k = 10 becomes s_a + s_b, above any single list's maximum, so windows
// are bounded first); one late document holds "a c", and c is in one document fewer than b, so
// s_a + s_c beats the floor by a hair (0.02 % of s_c): a bound under-estimated by more loses the
// top hit.
TEST(BulkOr, BoundFirstKeepsADocumentWhoseScoreEqualsItsBound) {
  constexpr int kDocs = 40000;  // each list in 5 % of the documents (bound-first reads sparse lists)
  constexpr int kLate = 30013;
  std::vector<engine::Document> docs;
  for (int i = 0; i < kDocs; ++i) {
    std::vector<std::string> words;
    if (i < 50) words = {"a", "b"};
    if (i >= 50 && i % 20 == 0) words.push_back("a");
    if (i >= 50 && i % 20 == 5) words.push_back("b");
    if (i >= 50 && (i % 20 == 13 || (i % 20 == 17 && i < 1017))) words.push_back("c");  // df(b) - 1
    if (i == kLate) words.insert(words.begin(), "a");
    std::string text;
    for (const auto& w : words) text += w + " ";
    for (std::size_t f = words.size(); f < 3; ++f) text += "f" + std::to_string(i) + "x" + std::to_string(f) + " ";
    docs.push_back({"d" + std::to_string(i), "", text});
  }
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, {});
  const auto expected = oracle.search("a b c", Operator::Or, 10);
  ASSERT_EQ(expected.size(), 10u);
  ASSERT_EQ(expected[0].doc, static_cast<engine::DocId>(kLate));  // the late "a c" document leads
  const auto r = runBmm(*t->index, "a b c", 10, true);
  EXPECT_TRUE(sameHits(expected, r.hits));
  EXPECT_GT(r.counters.windowsBoundFirst, 0u);
}

// Windows grow to 8192 doc ids over lists holding at most 0.25 postings per document together,
// and to 4096 over denser ones (bulk_or.cpp, kLongWindowMaxDensity): the longest window entered,
// with window skipping off so that every window is entered, for lists of 0.2 and of 1.5
// postings per document.
TEST(BulkOr, DenseListsTakeWindowsOfHalfTheLength) {
  constexpr int kDocs = 40000;
  std::vector<engine::Document> docs;
  for (int i = 0; i < kDocs; ++i) {
    std::string text = "a f" + std::to_string(i) + " ";
    if (i % 2 == 0) text += "b ";
    if (i % 10 == 0) text += "c ";
    if (i % 10 == 5) text += "d ";
    docs.push_back({"d" + std::to_string(i), "", text});
  }
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, {});
  const auto longestWindow = [&](const std::string& q) {
    engine::TraceRecorder trace(1'000'000);
    const auto r = runBmm(*t->index, q, 10, true, false, true, &trace);
    EXPECT_TRUE(sameHits(oracle.search(q, Operator::Or, 10), r.hits)) << q;
    EXPECT_FALSE(trace.truncated()) << q;
    engine::DocId longest = 0;
    for (const auto& e : trace.events()) {
      if (e.kind != engine::TraceEventKind::WindowEntered) continue;
      longest = std::max(longest, e.docEnd - e.doc + 1);
    }
    return longest;
  };
  EXPECT_EQ(longestWindow("c d"), 8192u);  // 0.2 postings per document
  EXPECT_EQ(longestWindow("a b"), 4096u);  // 1.5
  // `auto` takes the document-at-a-time bmm for two such dense lists (planner.h,
  // kDenseTwoTermPostingsPerDoc): no windows, the same hits.
  engine::SearchRequest r;
  r.text = "a b";
  r.k = 10;
  r.op = Operator::Or;
  const auto autoDense = engine::search(*t->index, r);
  EXPECT_EQ(autoDense.algorithm, Algorithm::Bmm);
  EXPECT_EQ(autoDense.counters.windowsTotal, 0u);
  EXPECT_TRUE(sameHits(oracle.search("a b", Operator::Or, 10), autoDense.hits));
  r.text = "c d";
  EXPECT_GT(engine::search(*t->index, r).counters.windowsTotal, 0u);  // sparse: windowed
}

TEST(BulkOr, TraceShowsWindowsSplitsAndTheSameHits) {
  const RandomCorpusParams params{.docs = 12000, .vocabulary = 300, .maxLength = 30, .duplicateFraction = 0.1};
  const auto docs = randomCorpus(5, params);
  const auto t = buildTestIndex(docs);
  engine::TraceRecorder trace;
  // Without the rank floor, so the floor rises from -inf and the split moves with it.
  const auto traced = runBmm(*t->index, "w0 w3 w120", 5, true, true, true, &trace, true, false);
  const auto plain = runBmm(*t->index, "w0 w3 w120", 5, true, true, true, nullptr, true, false);
  ASSERT_TRUE(sameHits(plain.hits, traced.hits));
  ASSERT_FALSE(trace.truncated());
  std::size_t entered = 0, splits = 0, scored = 0;
  for (const auto& e : trace.events()) {
    entered += e.kind == engine::TraceEventKind::WindowEntered;
    splits += e.kind == engine::TraceEventKind::EssentialSplit;
    scored += e.kind == engine::TraceEventKind::CandidateScored;
  }
  EXPECT_EQ(entered, traced.counters.windowsTotal - traced.counters.windowsSkippedBound);
  EXPECT_GE(splits, 2u);  // every list essential at first, fewer once the floor rose
  EXPECT_EQ(scored, traced.counters.fullScores);
}

TEST(BulkOr, MoreThanSixtyFourTermsFallBackAndStayExact) {
  const RandomCorpusParams params{.docs = 9000, .vocabulary = 400, .maxLength = 40, .duplicateFraction = 0.1};
  const auto docs = randomCorpus(9, params);
  const auto t = buildTestIndex(docs);
  const BruteForce oracle(docs, engine::AnalyzerKind::Plain, {});
  std::string q;
  for (int w = 0; w < 80; ++w) q += "w" + std::to_string(w * 3) + " ";
  for (std::size_t k : {1, 10, 100}) {
    const auto r = runBmm(*t->index, q, k, true);
    ASSERT_TRUE(sameHits(oracle.search(q, Operator::Or, k), r.hits)) << "k " << k;
    EXPECT_EQ(r.counters.windowsTotal, 0u);  // the document-at-a-time bmm ran
  }
}

}  // namespace
}  // namespace wandscope::test
