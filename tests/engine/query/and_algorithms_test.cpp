// SPDX-License-Identifier: GPL-3.0-or-later
// Work-count and behaviour tests of the AND paths (block-max AND, bulk AND): each optimisation
// must really skip work, and never change a result.
#include "engine/codec/simd/intersect.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/engine/codec/simd_test_support.h"
#include "tests/support/oracle_corpus.h"
#include "tests/support/same_counters.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <string>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Operator;
using engine::TraceEventKind;
using engine::TraceReason;

engine::SearchResult runAnd(const engine::Index& index, const std::string& q, std::size_t k, Algorithm algo,
                            const std::string& opts = "", engine::TraceRecorder* trace = nullptr) {
  engine::SearchRequest r;
  r.text = q;
  r.op = Operator::And;
  r.k = k;
  r.algorithm = algo;
  r.options.apply(opts);
  r.trace = trace;
  return engine::search(index, r);
}

// Every document has exactly 8 tokens, so a term with tf 1 has the same weight everywhere.
std::string eightTokens(std::vector<std::string> words) {
  for (int i = 0; words.size() < 8; ++i) words.push_back("filler" + std::to_string(i));
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

// `n` eight-token documents, `segmentDocs` to a segment, document d holding words(d).
std::unique_ptr<TestIndex> segmentedIndex(int n, std::uint32_t segmentDocs,
                                          const std::function<std::vector<std::string>(int)>& words) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < n; ++d) docs.push_back({"d" + std::to_string(d), "", eightTokens(words(d))});
  engine::IndexBuildOptions options;
  options.segmentDocs = segmentDocs;
  return buildTestIndex(docs, options);
}

// The trace says when the long windows ran (their events' bounds mean what COUNTERS.md says of
// them, and they do not walk the cursors): the workbench's narrative once read a long window's
// limit prune as the seed windows' partial-score limit and got the sentence wrong.
TEST(BulkAnd, TheTraceSaysWhenTheLongWindowsRan) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 600; ++d) {
    std::vector<std::string> words = {"dense"};
    if (d % 3 == 0) words.push_back("lead");
    if (d < 4) words.insert(words.end(), {"lead", "lead", "dense"});
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  engine::TraceRecorder trace;
  runAnd(*t->index, "lead dense", 2, Algorithm::BulkAnd, "", &trace);
  EXPECT_TRUE(trace.longWindows);
  EXPECT_FALSE(trace.cursorsWalked) << "window by window, not by cursor";
  std::size_t limits = 0;
  for (const auto& e : trace.events()) {
    if (e.kind != TraceEventKind::CandidatePruned || e.reason != TraceReason::Limit) continue;
    ++limits;
    EXPECT_LE(e.score, e.bound) << "the lead's score plus the others' block maxima";
    EXPECT_LE(e.bound, e.floor) << "pruned: cannot beat the floor";
  }
  EXPECT_GT(limits, 0u);
  runAnd(*t->index, "lead dense", 2, Algorithm::BulkAnd, "long_windows=off", &trace);
  EXPECT_FALSE(trace.longWindows) << "reset by the next search";
  EXPECT_FALSE(trace.cursorsWalked) << "the seed's windows move the cursors only to a window's start";
  runAnd(*t->index, "lead dense", 2, Algorithm::BlockMaxAnd, "", &trace);
  EXPECT_TRUE(trace.cursorsWalked) << "block-max-and walks its cursors";
}

// The first seed's review case: the floor turns positive on the first candidate of window 1 while
// the dense clause has the same block maximum in both of its blocks, so the (floor, followers'
// block max) key does not change between the windows. Window 2 must still apply the frequency
// prune table; a table keyed together with the per-candidate limit would stay disabled there.
TEST(BulkAnd, BuildsThePruneTableAfterAMidWindowFloorTransition) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 256; ++d) {
    std::vector<std::string> words = {"dense"};
    if (d == 0) words.insert(words.end(), {"lead", "lead", "lead", "lead", "lead"});
    if (d == 10 || d == 20 || d == 130 || d == 140 || d == 150) words.push_back("lead");
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  engine::TraceRecorder trace;
  const auto result = runAnd(*t->index, "lead dense", 1, Algorithm::BulkAnd, "long_windows=off", &trace);
  ASSERT_EQ(result.hits.size(), 1u);
  EXPECT_EQ(result.hits[0].doc, 0u);
  EXPECT_EQ(result.counters.windowsTotal, 2u) << "dense has two blocks: windows end at 127 and 150";
  std::size_t tablePrunesInWindow2 = 0;
  for (const auto& e : trace.events()) {
    if (e.kind == TraceEventKind::CandidatePruned && e.reason == TraceReason::Table && e.doc >= 128) {
      ++tablePrunesInWindow2;
    }
  }
  EXPECT_EQ(tablePrunesInWindow2, 3u) << "docs 130, 140 and 150 are rejected by the table";
  EXPECT_EQ(result.counters.fullScores, 1u);
  // Same result with the table off; then the per-candidate limit does the pruning.
  const auto noTable = runAnd(*t->index, "lead dense", 1, Algorithm::BulkAnd, "long_windows=off,freq_prune=off");
  EXPECT_EQ(noTable.hits, result.hits);
  EXPECT_EQ(noTable.counters.candidatesPrunedTable, 0u);
  EXPECT_EQ(noTable.counters.candidatesPrunedLimit, 5u);
  EXPECT_EQ(runAnd(*t->index, "lead dense", 1, Algorithm::Exhaustive).hits, result.hits);
}

// Windows whose block maxima cannot beat the floor are skipped without decoding a block.
TEST(BulkAnd, SkipsWindowsWhoseBoundCannotBeatTheFloor) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 128 * 8; ++d) {
    // Block 0 holds the only strong documents (high tf of both terms); later blocks tf 1.
    const bool strong = d < 128 && d % 16 == 0;
    std::vector<std::string> words = strong ? std::vector<std::string>{"alpha", "alpha", "beta", "beta"}
                                            : std::vector<std::string>{"alpha", "beta"};
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto bulk = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd, "long_windows=off");
  const auto exhaustive = runAnd(*t->index, "alpha beta", 5, Algorithm::Exhaustive);
  ASSERT_EQ(bulk.hits, exhaustive.hits);
  EXPECT_EQ(bulk.counters.windowsSkippedBound, 7u) << "every window after the first";
  EXPECT_LT(bulk.counters.docBlocksDecoded, exhaustive.counters.docBlocksDecoded);
  EXPECT_EQ(bulk.counters.docBlocksDecoded, 2u);
  const auto off = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd, "long_windows=off,window_skip=off");
  EXPECT_EQ(off.hits, bulk.hits);
  EXPECT_EQ(off.counters.windowsSkippedBound, 0u);
  // Block-max AND skips the same blocks one candidate at a time.
  const auto bma = runAnd(*t->index, "alpha beta", 5, Algorithm::BlockMaxAnd);
  EXPECT_EQ(bma.hits, bulk.hits);
  EXPECT_GT(bma.counters.windowsSkippedBound, 0u);
  EXPECT_LT(bma.counters.docBlocksDecoded, exhaustive.counters.docBlocksDecoded);
}

// Long windows (the default) skip the lead's blocks whose bound cannot beat the floor, undecoded,
// and decode no other clause's block for them. Windows of 1, 2, 4 and 1 lead blocks here.
TEST(BulkAndLongWindows, SkipLeadBlocksWhoseBoundCannotBeatTheFloor) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 128 * 8; ++d) {
    const bool strong = d < 128 && d % 16 == 0;  // only in block 0
    std::vector<std::string> words = strong ? std::vector<std::string>{"alpha", "alpha", "beta", "beta"}
                                            : std::vector<std::string>{"alpha", "beta"};
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto exhaustive = runAnd(*t->index, "alpha beta", 5, Algorithm::Exhaustive);
  const auto bulk = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd);
  ASSERT_EQ(bulk.hits, exhaustive.hits);
  EXPECT_EQ(bulk.counters.windowsTotal, 4u);
  EXPECT_EQ(bulk.counters.windowsSkippedBound, 3u) << "every window after the first";
  EXPECT_EQ(bulk.counters.docBlocksDecoded, 2u) << "block 0 of each list, decoded once (by the cursors)";
  EXPECT_EQ(bulk.counters.blocksSkipped, 7u) << "the lead's blocks 1 to 7";
  const auto off = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd, "window_skip=off");
  EXPECT_EQ(off.hits, bulk.hits);
  EXPECT_EQ(off.counters.windowsSkippedBound, 0u);
  EXPECT_EQ(off.counters.docBlocksDecoded, 16u);
  EXPECT_EQ(off.counters.blocksSkipped, 0u) << "every block decoded: none passed over";
  // Then every candidate after doc 64 (where the fifth strong document fills the heap) is pruned
  // on the lead's exact score plus beta's block maximum (tf 1: 1.0 + 1.0 x idf, or for the strong
  // docs 80, 96 and 112 a tie with the floor, 2.75 x idf). With candidate_prune off, on the lead's
  // frequency bound instead: 1.69 x idf for tf 1 at the shortest length, and for tf 2 alpha's block
  // maximum, 1.375 x idf, which caps its bound.
  EXPECT_EQ(off.counters.fullScores, 65u);
  EXPECT_EQ(off.counters.candidatesPrunedLimit, 1024u - 65);
  EXPECT_EQ(off.counters.candidatesPrunedTable, 0u) << "the exact score decides when candidate_prune is on";
  const auto tableOnly = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd, "window_skip=off,candidate_prune=off");
  EXPECT_EQ(tableOnly.hits, bulk.hits);
  EXPECT_EQ(tableOnly.counters.candidatesPrunedTable, 1024u - 65);
  EXPECT_EQ(tableOnly.counters.candidatesPrunedLimit, 0u);
  const auto limitOnly = runAnd(*t->index, "alpha beta", 5, Algorithm::BulkAnd, "window_skip=off,freq_prune=off");
  EXPECT_EQ(limitOnly.hits, bulk.hits);
  EXPECT_EQ(limitOnly.counters.candidatesPrunedLimit, 1024u - 65);
  EXPECT_EQ(limitOnly.counters.candidatesPrunedTable, 0u);
}

// A lead block's bound takes, per other clause, the largest maximum of ALL its blocks that overlap
// the lead block: here lead block 1 (docs 255-510) overlaps follow's blocks 1 (its last doc, 255),
// 2 (all tf 1) and 3 (doc 400 with tf 7), and only block 3's maximum lets doc 400 beat the floor
// that window 1 left.
TEST(BulkAndLongWindows, ALeadBlockIsBoundedByEveryOverlappingBlockOfTheOthers) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 4096; ++d) {
    std::vector<std::string> words;
    if (d < 1024) {
      if (d % 2 == 0) words.push_back("lead");
      const int follow = d == 0 ? 3 : d == 400 ? 7 : 1;
      for (int i = 0; i < follow; ++i) words.push_back("follow");
    }
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto exhaustive = runAnd(*t->index, "lead follow", 1, Algorithm::Exhaustive);
  ASSERT_EQ(exhaustive.hits.size(), 1u);
  ASSERT_EQ(exhaustive.hits[0].doc, 400u);
  const auto bulk = runAnd(*t->index, "lead follow", 1, Algorithm::BulkAnd);
  EXPECT_EQ(bulk.hits, exhaustive.hits);
  EXPECT_GT(bulk.counters.blocksSkipped, 0u) << "the lead's blocks 2 and 3 cannot beat doc 400";
}

// A review found this. "lead" is on every 4th document below 2048 (512 postings: blocks 0-508,
// 512-1020, 1024-1532, 1536-2044; windows [0, 1), [1, 3), [3, 4)), "other" on every document up to
// 1010 (1011 postings). Window [1, 3) keeps lead block 1 (doc 600 scores highest), then finds no
// block of "other" reaching block 2: the window must still evaluate block 1 before the segment
// ends. It used to return at once, losing doc 600 (with the floor window [0, 1) set, or with a
// trace, which then computed every block's bound).
TEST(BulkAndLongWindows, AClauseEndingInsideAWindowStillLetsItsKeptBlocksBeEvaluated) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 2048; ++d) {
    std::vector<std::string> words;
    const int tf = d == 600 ? 3 : 1;
    for (int i = 0; i < tf && d % 4 == 0; ++i) words.push_back("lead");
    for (int i = 0; i < tf && d <= 1010; ++i) words.push_back("other");
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto exhaustive = runAnd(*t->index, "lead other", 1, Algorithm::Exhaustive);
  ASSERT_EQ(exhaustive.hits.size(), 1u);
  ASSERT_EQ(exhaustive.hits[0].doc, 600u);
  const auto bulk = runAnd(*t->index, "lead other", 1, Algorithm::BulkAnd);
  EXPECT_EQ(bulk.hits, exhaustive.hits);
  EXPECT_EQ(bulk.counters.windowsTotal, 2u) << "the segment ends in window [1, 3)";
  for (const char* opts : {"", "window_skip=off"}) {
    engine::TraceRecorder trace;
    EXPECT_EQ(runAnd(*t->index, "lead other", 1, Algorithm::BulkAnd, opts, &trace).hits, exhaustive.hits)
        << opts << " traced";
  }
}

// A review found these two. "lead" is on every 10th document below 3840 (384 postings, 3
// blocks), "other" on documents 0-399 (4 blocks); k = 100 is never filled, so no window has a
// floor. Window [0, 1) reads lead block 0 and "other"'s four blocks; window [1, 3) lies beyond
// "other"'s end. Untraced, that window decoded its two lead blocks before finding it out (the
// cheapest way while no bound is needed); traced, it stopped first, so the counters differed. And
// it was counted in windows_total with none of its outcomes. Now both runs read it the same way,
// and it counts as skipped empty.
TEST(BulkAndLongWindows, AWindowBeyondAClausesEndIsSkippedEmptyTracedOrNot) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 4000; ++d) {
    std::vector<std::string> words;
    if (d % 10 == 0 && d < 3840) words.push_back("lead");
    if (d < 400) words.push_back("other");
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto exhaustive = runAnd(*t->index, "lead other", 100, Algorithm::Exhaustive);
  const auto bulk = runAnd(*t->index, "lead other", 100, Algorithm::BulkAnd);
  engine::TraceRecorder trace;
  const auto traced = runAnd(*t->index, "lead other", 100, Algorithm::BulkAnd, "", &trace);
  EXPECT_TRUE(sameHits(exhaustive.hits, bulk.hits));
  EXPECT_TRUE(sameHits(exhaustive.hits, traced.hits));
  EXPECT_TRUE(sameCounters(bulk.counters, traced.counters));
  EXPECT_EQ(bulk.counters.windowsTotal, 2u);
  EXPECT_EQ(bulk.counters.windowsSkippedEmpty, 1u) << "window [1, 3) holds no common document";
  EXPECT_EQ(bulk.counters.windowsSkippedBound, 0u);
  // Every block of both lists (the cursors decoded the two blocks 0).
  EXPECT_EQ(bulk.counters.docBlocksDecoded, 7u);
  std::size_t emptyEvents = 0;
  for (const auto& e : trace.events()) {
    emptyEvents += e.kind == TraceEventKind::WindowSkipped && e.reason == TraceReason::Empty ? 1 : 0;
  }
  EXPECT_EQ(emptyEvents, 1u);
}

// A review found this: a segment "lead" is absent from (documents 1000-1999) was passed over by the
// long windows without counting "other"'s 8 blocks there in blocks_skipped, as the cursor paths
// do. Three segments of 1000 documents; "other" in every document (8 blocks per segment), "lead"
// on every 100th outside segment 1.
TEST(BulkAndLongWindows, ASegmentPassedOverCountsItsBlocksAsSkipped) {
  const auto t = segmentedIndex(3000, 1000, [](int d) {
    std::vector<std::string> words = {"other"};
    if (d % 100 == 0 && (d < 1000 || d >= 2000)) words.push_back("lead");
    return words;
  });
  const auto exhaustive = runAnd(*t->index, "lead other", 10, Algorithm::Exhaustive);
  const auto bulk = runAnd(*t->index, "lead other", 10, Algorithm::BulkAnd);
  EXPECT_TRUE(sameHits(exhaustive.hits, bulk.hits));
  // lead: one block in segments 0 and 2; other: every block of segments 0 and 2.
  EXPECT_EQ(bulk.counters.docBlocksDecoded, 18u);
  EXPECT_EQ(bulk.counters.blocksSkipped, 8u) << "other's blocks in segment 1";
  EXPECT_EQ(exhaustive.counters.blocksSkipped, 8u);
}

// What a segment left early leaves unread counts when the next shared segment starts. Two
// segments of 2000 documents; "lead" on every 4th (4 blocks per segment), "other" on documents
// 0-300 of segment 0 (3 blocks) and on all of segment 1 (16 blocks); k = 1000 is never filled (no
// floor). Segment 0: window [0, 1) reads lead block 0 and other's blocks; window [1, 3) decodes
// lead blocks 1 and 2 and finds other ended (skipped empty), so lead block 3 is never read: it
// counts as skipped on moving to segment 1, which reads everything.
TEST(BulkAndLongWindows, TheUnreadRestOfASegmentLeftEarlyCountsAsSkipped) {
  const auto t = segmentedIndex(4000, 2000, [](int d) {
    std::vector<std::string> words;
    if (d % 4 == 0) words.push_back("lead");
    if (d <= 300 || d >= 2000) words.push_back("other");
    return words;
  });
  const auto exhaustive = runAnd(*t->index, "lead other", 1000, Algorithm::Exhaustive);
  const auto bulk = runAnd(*t->index, "lead other", 1000, Algorithm::BulkAnd);
  EXPECT_TRUE(sameHits(exhaustive.hits, bulk.hits));
  EXPECT_EQ(bulk.hits.size(), 76u + 500u);
  EXPECT_EQ(bulk.counters.blocksSkipped, 1u) << "lead block 3 of segment 0";
  EXPECT_EQ(bulk.counters.docBlocksDecoded, (3u + 3u) + (4u + 16u));
  EXPECT_EQ(bulk.counters.windowsSkippedEmpty, 1u);
}

// Windows keep their length from one segment to the next, as the floor carries over. Two segments
// of 2048 documents with "lead" and "other" in all of them: 16 lead blocks per segment. Segment 0
// takes windows of 1, 2, 4, 8 and the last block (5); segment 1 one window of 32 blocks' room.
// Restarting at one block per segment made 10 windows, and mid-df-2/3 AND about 12 % slower.
TEST(BulkAndLongWindows, TheWindowLengthCarriesOverToTheNextSegment) {
  const auto t = segmentedIndex(4096, 2048, [](int) { return std::vector<std::string>{"lead", "other"}; });
  const auto exhaustive = runAnd(*t->index, "lead other", 10, Algorithm::Exhaustive);
  const auto bulk = runAnd(*t->index, "lead other", 10, Algorithm::BulkAnd);
  EXPECT_TRUE(sameHits(exhaustive.hits, bulk.hits));
  ASSERT_EQ(t->index->segments().size(), 2u);
  EXPECT_EQ(bulk.counters.windowsTotal, 5u + 1u);
  // ... but not from one query to the next (kept with the per-thread scratch, the second run
  // would start at 32 blocks: 2 windows).
  const auto again = runAnd(*t->index, "lead other", 10, Algorithm::BulkAnd);
  EXPECT_EQ(again.counters.windowsTotal, 5u + 1u);
}

// A clause far longer than the candidates is probed candidate by candidate: only its blocks that
// can hold a candidate are decoded, as in the leapfrog.
TEST(BulkAndLongWindows, ProbeAMuchLongerClauseInsteadOfDecodingIt) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 128 * 16; ++d) {
    std::vector<std::string> words = {"common"};
    if (d % 300 == 299) words.push_back("rare");
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto bulk = runAnd(*t->index, "rare common", 3, Algorithm::BulkAnd);
  ASSERT_EQ(bulk.hits, runAnd(*t->index, "rare common", 3, Algorithm::Exhaustive).hits);
  EXPECT_EQ(bulk.mergeKernels, engine::simd::targetName(engine::simd::intersectKernels().target));
  // rare: 6 postings in one block; common: 16 blocks, of which the 6 holding a rare document and
  // block 0, which its cursor decoded when it was made. Passed over: 1, 3, 5, 6, 8, 10, 12, 13.
  EXPECT_EQ(bulk.counters.docBlocksDecoded, 8u);
  EXPECT_EQ(bulk.counters.blocksSkipped, 8u);
}

// After the first intersection, a third clause decodes only its blocks holding a candidate.
// "every" is on all 20,000 documents (157 blocks), "lead" and "second" share only the candidates,
// and "every" holds few enough postings per candidate to be merged, not probed. Spread: the
// candidates are the multiples of 200, one in about two of "every"'s 128-document blocks (looked
// up block by block, count_below). Clustered: documents 0-6 of every 400, seven in one block of
// three (merged by the long-run kernel). k = 1000 is never filled, so no bound skips anything.
// Decoding every block of "every" overlapping the lead's, as before stop 41, made 184 and 185
// blocks decoded and none skipped.
TEST(BulkAndLongWindows, AThirdClauseDecodesOnlyItsBlocksHoldingACandidate) {
  struct Case {
    const char* name;
    bool (*lead)(int);
    bool (*second)(int);
    std::size_t hits;
    std::uint64_t decoded;
    std::uint64_t skipped;
    int everyEnd = 20000;  // "every" is on the documents below this one
  };
  const Case cases[] = {
      {"spread", [](int d) { return d % 25 == 0; }, [](int d) { return d % 8 == 0; }, 100, 127, 55},
      {"clustered", [](int d) { return d % 400 <= 6 || d % 25 == 10; },
       [](int d) { return d % 400 <= 6 || d % 10 == 8; }, 350, 78, 104},
      // "every" ends at 15,000, inside the lead's last window: the candidates past its last block
      // are not looked for.
      {"spread, third clause ending early", [](int d) { return d % 25 == 0; }, [](int d) { return d % 8 == 0; }, 75,
       102, 43, 15000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<engine::Document> docs;
    for (int d = 0; d < 20000; ++d) {
      std::vector<std::string> words;
      if (d < c.everyEnd) words.push_back("every");
      if (c.lead(d)) words.push_back("lead");
      if (c.second(d)) words.push_back("second");
      docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
    }
    const auto t = buildTestIndex(docs);
    const auto exhaustive = runAnd(*t->index, "lead second every", 1000, Algorithm::Exhaustive);
    ASSERT_EQ(exhaustive.hits.size(), c.hits);
    for (const char* opts : {"", "simd_merge=off"}) {
      SCOPED_TRACE(opts);
      const auto bulk = runAnd(*t->index, "lead second every", 1000, Algorithm::BulkAnd, opts);
      EXPECT_EQ(bulk.hits, exhaustive.hits);
      EXPECT_EQ(bulk.counters.docBlocksDecoded, c.decoded);
      EXPECT_EQ(bulk.counters.blocksSkipped, c.skipped) << "\"every\"'s blocks with no candidate";
    }
  }
}

// Long windows over long lists (with the queries of the two or three commonest words, leads of
// 140-190 blocks in one segment: windows of 1, 2, 4, ... 64 blocks), over lists cut in several
// segments, with lists of very different lengths (merged and probed clauses) and every combination
// of the switches long windows read: exactly the brute-force oracle's top-k, bit for bit; and the
// same hits with a trace recorded (long windows then compute every block's bound).
using LongLists = CorpusCase;

class BulkAndLongWindowsParity : public ::testing::TestWithParam<LongLists> {};

TEST_P(BulkAndLongWindowsParity, EqualsTheOracleOverLongLists) {
  const LongLists c = GetParam();
  SCOPED_TRACE("corpus seed " + std::to_string(c.seed));
  const auto [t, oracle] = buildOracleCorpus(c);
  std::mt19937_64 rng(c.seed * 11 + 3);
  std::uint64_t windows = 0;
  std::uint64_t skipped = 0;
  std::vector<std::string> queries = {"w1 w0", "w2 w0 w1"};
  for (int q = 0; q < 12; ++q) queries.push_back(randomQuery(rng, c.params, 4));
  for (const std::string& query : queries) {
    for (std::size_t k : {1, 10, 100, 1000}) {
      const auto expected = oracle.search(query, Operator::And, k);
      for (unsigned mask = 0; mask < 32; ++mask) {
        engine::SearchOptions o;
        o.windowSkip = (mask & 1) != 0;
        o.candidatePrune = (mask & 2) != 0;
        o.freqPrune = (mask & 4) != 0;
        o.lazyFreq = (mask & 8) != 0;
        o.simdMerge = (mask & 16) != 0;
        engine::SearchRequest r;
        r.text = query;
        r.op = Operator::And;
        r.k = k;
        r.algorithm = Algorithm::BulkAnd;
        r.options = o;
        const auto result = engine::search(*t->index, r);
        ASSERT_TRUE(sameHits(expected, result.hits)) << "query '" << query << "' k " << k << " options " << o.toString();
        windows += result.counters.windowsTotal;
        skipped += result.counters.blocksSkipped;
      }
      engine::TraceRecorder trace;
      ASSERT_TRUE(sameHits(expected, runAnd(*t->index, query, k, Algorithm::BulkAnd, "", &trace).hits))
          << "query '" << query << "' k " << k << " traced";
    }
  }
  EXPECT_GT(windows, 0u);
  EXPECT_GT(skipped, 0u) << "some lead blocks skipped by their bound, or other clauses' blocks passed over";
}

INSTANTIATE_TEST_SUITE_P(
    Corpora, BulkAndLongWindowsParity,
    ::testing::Values(
        // Common words in most of 40,000 documents: lists of 100-200 blocks, one segment.
        LongLists{8001, {.docs = 40000, .vocabulary = 40, .maxLength = 30, .duplicateFraction = 0.2}, 65536},
        // Several segments; rare and common words together.
        LongLists{8002, {.docs = 24000, .vocabulary = 2000, .maxLength = 60, .duplicateFraction = 0.05}, 5000},
        // Tiny documents: scores bunch up, ties around the floor.
        LongLists{8003, {.docs = 15000, .vocabulary = 30, .maxLength = 4, .duplicateFraction = 0.5}, 65536}));

// Disjoint lists: windows are empty, nothing is scored and no frequency block is decoded.
TEST(BulkAnd, DisjointListsDecodeNoFrequencies) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 1000; ++d) {
    docs.push_back({"d" + std::to_string(d), "", eightTokens({d % 2 == 0 ? "even" : "odd"})});
  }
  const auto t = buildTestIndex(docs);
  const auto r = runAnd(*t->index, "even odd", 10, Algorithm::BulkAnd);
  EXPECT_TRUE(r.hits.empty());
  EXPECT_EQ(r.counters.freqBlocksDecoded, 0u);
  EXPECT_EQ(r.counters.fullScores, 0u);
  EXPECT_GT(r.counters.windowsSkippedEmpty, 0u);
}

// After an empty window the next one starts at the lead's next document instead of the window end.
TEST(BulkAnd, EmptyWindowsJumpToTheLeadsNextDocument) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 2048; ++d) {
    std::vector<std::string> words = {"common"};
    if (d % 300 == 299) words.push_back("rare");
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  // "common" is in every document; make a gap in it so some windows hold no common document.
  for (int d = 900; d < 1300; ++d) docs[static_cast<std::size_t>(d)].text = eightTokens({d % 300 == 299 ? "rare" : "x"});
  const auto t = buildTestIndex(docs);
  const auto jump = runAnd(*t->index, "rare common", 3, Algorithm::BulkAnd, "long_windows=off,window_skip=off");
  const auto noJump =
      runAnd(*t->index, "rare common", 3, Algorithm::BulkAnd, "long_windows=off,window_skip=off,window_jump=off");
  EXPECT_EQ(jump.hits, noJump.hits);
  EXPECT_EQ(jump.hits, runAnd(*t->index, "rare common", 3, Algorithm::Exhaustive).hits);
  EXPECT_GT(jump.counters.windowsJumped, 0u);
  EXPECT_EQ(noJump.counters.windowsJumped, 0u);
  EXPECT_LE(jump.counters.windowsTotal, noJump.counters.windowsTotal);
}

// Lazy frequencies: when every candidate of a window is pruned on the lead's frequency, the
// followers' frequency blocks stay encoded; with lazy_freq=off every entered window decodes them.
TEST(BulkAnd, LazyFrequenciesDecodeFewerBlocks) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 128 * 8; ++d) {
    const bool strong = d == 3;
    std::vector<std::string> words = strong ? std::vector<std::string>{"alpha", "alpha", "alpha", "beta", "beta"}
                                            : std::vector<std::string>{"alpha", "beta"};
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  const auto lazy = runAnd(*t->index, "alpha beta", 1, Algorithm::BulkAnd, "long_windows=off,window_skip=off");
  const auto eager = runAnd(*t->index, "alpha beta", 1, Algorithm::BulkAnd, "long_windows=off,window_skip=off,lazy_freq=off");
  EXPECT_EQ(lazy.hits, eager.hits);
  EXPECT_EQ(eager.counters.freqBlocksDecoded, 16u) << "both clauses, eight windows";
  EXPECT_EQ(lazy.counters.freqBlocksDecoded, 9u) << "the lead's eight and beta's first";
}

// Every candidate the bulk AND sees ends in exactly one of: the prune table, the per-candidate
// limit, a full score (its pruned candidates are counted per window, not per candidate).
TEST(BulkAnd, EveryCandidateIsPrunedOrScoredExactlyOnce) {
  const std::uint64_t seed = 20261201;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const RandomCorpusParams params;
  const auto t = buildTestIndex(randomCorpus(seed, params));
  std::mt19937_64 rng(seed);
  std::uint64_t pruned = 0;
  for (int q = 0; q < 40; ++q) {
    const std::string query = randomQuery(rng, params, 4);
    for (std::size_t k : {1, 10}) {
      for (const char* windows : {"long_windows=on", "long_windows=off"}) {
        const auto c = runAnd(*t->index, query, k, Algorithm::BulkAnd, windows).counters;
        ASSERT_EQ(c.candidatesSeen, c.candidatesPrunedTable + c.candidatesPrunedLimit + c.fullScores)
            << "query '" << query << "' k " << k << " " << windows;
        pruned += c.candidatesPrunedTable + c.candidatesPrunedLimit;
      }
    }
  }
  EXPECT_GT(pruned, 0u) << "the corpus must exercise pruning for the test to mean anything";
}

// The prune table (and the limit) are rebuilt only when stale: at most once per window and per
// floor raise, never per candidate. A small vocabulary gives windows of many candidates each, so
// a rebuild per candidate would exceed that bound.
TEST(BulkAnd, ThePruneTableIsRebuiltOnlyWhenItsKeyChanges) {
  const std::uint64_t seed = 20261204;
  SCOPED_TRACE("seed " + std::to_string(seed));
  RandomCorpusParams params;
  params.docs = 3000;
  params.vocabulary = 30;
  const auto t = buildTestIndex(randomCorpus(seed, params));
  std::mt19937_64 rng(seed);
  std::uint64_t candidates = 0;
  std::uint64_t windows = 0;
  std::uint64_t rebuilds = 0;
  for (int q = 0; q < 30; ++q) {
    const std::string query = randomQuery(rng, params, 3);
    for (std::size_t k : {1, 10}) {
      const auto c = runAnd(*t->index, query, k, Algorithm::BulkAnd, "long_windows=off").counters;
      ASSERT_LE(c.pruneTableRebuilds, c.windowsTotal + c.thresholdRaises) << "query '" << query << "' k " << k;
      candidates += c.candidatesSeen;
      windows += c.windowsTotal;
      rebuilds += c.pruneTableRebuilds;
    }
  }
  EXPECT_GT(rebuilds, 0u);
  EXPECT_GT(candidates, 4 * windows) << "windows must hold several candidates for the bound to mean anything";
}

// The bulk AND intersects with the current SIMD target's kernels (it once called the scalar
// references whatever the target, so simd_merge and the SIMD setting changed nothing there), and
// every target returns the exhaustive path's hits. simd_merge=off names the generic merge.
TEST(BulkAnd, IntersectsWithTheCurrentSimdTargetsKernels) {
  std::vector<engine::Document> docs;
  for (int d = 0; d < 700; ++d) {
    std::vector<std::string> words;
    if (d % 2 == 0) words.push_back("two");
    if (d % 3 == 0) words.push_back("three");
    if (d % 5 == 0) words.push_back("five");
    if (d % 7 == 0) words.insert(words.end(), {"two", "three"});
    docs.push_back({"d" + std::to_string(d), "", eightTokens(words)});
  }
  const auto t = buildTestIndex(docs);
  for (const std::string q : {"two three", "two three five"}) {
    SCOPED_TRACE(q);
    const auto oracle = runAnd(*t->index, q, 10, Algorithm::Exhaustive);
    EXPECT_EQ(oracle.mergeKernels, "") << "the exhaustive path intersects no decoded blocks";
    forEachSimdTarget([&](engine::simd::Target target) {
      const auto bulk = runAnd(*t->index, q, 10, Algorithm::BulkAnd);
      EXPECT_EQ(bulk.mergeKernels, engine::simd::targetName(target));
      EXPECT_EQ(bulk.hits, oracle.hits);
      const auto generic = runAnd(*t->index, q, 10, Algorithm::BulkAnd, "simd_merge=off");
      EXPECT_EQ(generic.mergeKernels, "generic");
      EXPECT_EQ(generic.hits, oracle.hits);
    });
  }
}

TEST(BulkAnd, SingleClauseAndManyClauses) {
  const auto docs = randomCorpus(62, {.docs = 3000, .vocabulary = 20, .maxLength = 60, .duplicateFraction = 0.1});
  const auto t = buildTestIndex(docs);
  for (const std::string q : {"w1", "w0 w1 w2 w3", "w0 w1 w2 w3 w4 w5 w6"}) {
    for (const std::string opts : {"", "simd_merge=off", "slice_resume=off", "long_windows=off"}) {
      EXPECT_EQ(runAnd(*t->index, q, 10, Algorithm::BulkAnd, opts).hits,
                runAnd(*t->index, q, 10, Algorithm::Exhaustive).hits)
          << q << " " << opts;
    }
  }
}

TEST(BulkAnd, TraceRecordsWindowsAndTheFloorNeverFalls) {
  const auto docs = randomCorpus(63, {.docs = 4000, .vocabulary = 25, .maxLength = 30, .duplicateFraction = 0.0});
  const auto t = buildTestIndex(docs);
  engine::TraceRecorder trace;
  const auto traced = runAnd(*t->index, "w2 w5", 5, Algorithm::BulkAnd, "", &trace);
  EXPECT_EQ(traced.hits, runAnd(*t->index, "w2 w5", 5, Algorithm::BulkAnd).hits);
  std::size_t entered = 0;
  float floor = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < trace.events().size(); ++i) {
    const auto& e = trace.events()[i];
    if (e.kind == TraceEventKind::WindowEntered) {
      ++entered;
      EXPECT_LE(e.doc, e.docEnd);
    }
    EXPECT_GE(e.floor, floor) << "event " << i;
    floor = e.floor;
  }
  EXPECT_GT(entered, 0u);
  EXPECT_EQ(trace.events().front().kind, TraceEventKind::QueryStart);
  EXPECT_EQ(trace.events().back().kind, TraceEventKind::QueryEnd);
  EXPECT_EQ(trace.terms().size(), 2u);
}

}  // namespace
}  // namespace wandscope::test
