// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/posting_cursor.h"

#include "tests/support/brute_force.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <random>

namespace wandscope::test {
namespace {

using engine::DocId;
using engine::kNoMoreDocs;
using engine::PostingCursor;
using engine::QueryCounters;

// Postings of `term` recomputed from the raw documents: (doc, tf).
std::vector<std::pair<DocId, std::uint32_t>> rawPostings(const TestIndex& t, const std::string& term) {
  std::vector<std::pair<DocId, std::uint32_t>> out;
  engine::Analyzer a(engine::AnalyzerKind::Plain);
  for (std::size_t d = 0; d < t.docs.size(); ++d) {
    std::vector<std::string> tokens;
    a.analyze(t.docs[d].title, tokens);
    a.analyze(t.docs[d].text, tokens);
    const auto tf = static_cast<std::uint32_t>(std::count(tokens.begin(), tokens.end(), term));
    if (tf > 0) out.emplace_back(static_cast<DocId>(d), tf);
  }
  return out;
}

class PostingCursorTest : public ::testing::TestWithParam<std::uint32_t> {};

// Lists that span several segments (segment sizes 1, 97 and one big segment) and several blocks.
TEST_P(PostingCursorTest, NextVisitsEveryPostingWithItsFrequency) {
  RandomCorpusParams params;
  params.docs = 1500;
  params.vocabulary = 300;
  const std::uint64_t seed = 11;
  SCOPED_TRACE("seed " + std::to_string(seed) + ", segment docs " + std::to_string(GetParam()));
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(randomCorpus(seed, params), options);
  for (const std::string term : {"w0", "w1", "w5", "w40", "w299"}) {
    const auto id = t->index->findTerm(term);
    const auto expected = rawPostings(*t, term);
    if (!id) {
      EXPECT_TRUE(expected.empty()) << term;
      continue;
    }
    QueryCounters counters;
    PostingCursor cursor(*t->index, *id, counters);
    std::size_t i = 0;
    for (; cursor.docId() != kNoMoreDocs; cursor.next(), ++i) {
      ASSERT_LT(i, expected.size()) << term;
      ASSERT_EQ(cursor.docId(), expected[i].first) << term << " posting " << i;
      ASSERT_EQ(cursor.freq(), expected[i].second) << term << " posting " << i;
      ASSERT_LE(cursor.score(), cursor.maxScore());
    }
    EXPECT_EQ(i, expected.size()) << term;
    EXPECT_EQ(counters.postingsDecoded, expected.size()) << term;
  }
}

TEST_P(PostingCursorTest, NextGeqLandsOnTheFirstPostingAtOrAfterTheTargetAndNeverMovesBack) {
  RandomCorpusParams params;
  params.docs = 2000;
  params.vocabulary = 150;
  const std::uint64_t seed = 12;
  SCOPED_TRACE("seed " + std::to_string(seed) + ", segment docs " + std::to_string(GetParam()));
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(randomCorpus(seed, params), options);
  std::mt19937_64 rng(seed);
  for (const std::string term : {"w0", "w3", "w20", "w100"}) {
    const auto id = t->index->findTerm(term);
    ASSERT_TRUE(id) << term;
    const auto expected = rawPostings(*t, term);
    for (int trial = 0; trial < 20; ++trial) {
      QueryCounters counters;
      PostingCursor cursor(*t->index, *id, counters);
      DocId target = 0;
      while (true) {
        target += static_cast<DocId>(rng() % 300);
        const DocId before = cursor.docId();
        cursor.nextGeq(target);
        ASSERT_GE(cursor.docId(), before) << "moved backwards";
        const DocId effective = std::max(target, before);
        const auto it = std::lower_bound(expected.begin(), expected.end(), effective,
                                         [](const auto& p, DocId d) { return p.first < d; });
        const DocId want = it == expected.end() ? kNoMoreDocs : it->first;
        ASSERT_EQ(cursor.docId(), want) << term << " target " << target;
        if (want == kNoMoreDocs) break;
        ASSERT_EQ(cursor.freq(), it->second);
      }
    }
  }
}

TEST_P(PostingCursorTest, BlockMaximaBoundEveryScoreInTheirBlock) {
  RandomCorpusParams params;
  params.docs = 1200;
  params.vocabulary = 100;
  const std::uint64_t seed = 13;
  SCOPED_TRACE("seed " + std::to_string(seed));
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(randomCorpus(seed, params), options);
  for (const std::string term : {"w0", "w2", "w9", "w50"}) {
    const auto id = t->index->findTerm(term);
    ASSERT_TRUE(id);
    QueryCounters counters;
    PostingCursor cursor(*t->index, *id, counters);
    PostingCursor shallow(*t->index, *id, counters);
    float listMax = 0.0f;
    for (; cursor.docId() != kNoMoreDocs; cursor.next()) {
      shallow.shallowAdvance(cursor.docId());
      ASSERT_GE(shallow.blockLastDoc(), cursor.docId());
      ASSERT_LE(cursor.score(), shallow.blockMaxScore()) << term << " doc " << cursor.docId();
      listMax = std::max(listMax, cursor.score());
    }
    // The list maximum is exact (idf * max W is attained by some posting).
    EXPECT_EQ(listMax, cursor.maxScore()) << term;
    shallow.shallowAdvance(kNoMoreDocs);
    EXPECT_EQ(shallow.blockLastDoc(), kNoMoreDocs);
    EXPECT_EQ(shallow.blockMaxScore(), 0.0f);
    EXPECT_GT(counters.shallowAdvances, 0u);
  }
}

// A shallow advance moves the block pointer by skip entries alone: it decodes nothing.
TEST_P(PostingCursorTest, ShallowAdvanceDecodesNothing) {
  RandomCorpusParams params;
  params.docs = 1200;
  params.vocabulary = 100;
  engine::IndexBuildOptions options;
  options.segmentDocs = GetParam();
  const auto t = buildTestIndex(randomCorpus(21, params), options);
  const auto id = t->index->findTerm("w0");
  ASSERT_TRUE(id);
  QueryCounters counters;
  PostingCursor shallow(*t->index, *id, counters);
  const QueryCounters made = counters;  // the cursor decodes its first block when made
  for (DocId target = 0; target < 1200; target += 37) shallow.shallowAdvance(target);
  shallow.shallowAdvance(kNoMoreDocs);
  EXPECT_EQ(counters.docBlocksDecoded, made.docBlocksDecoded);
  EXPECT_EQ(counters.freqBlocksDecoded, made.freqBlocksDecoded);
  EXPECT_EQ(counters.postingsDecoded, made.postingsDecoded);
  EXPECT_GT(counters.shallowAdvances, made.shallowAdvances);
}

TEST(PostingCursor, SkippingDecodesFewerBlocks) {
  RandomCorpusParams params;
  params.docs = 3000;
  params.vocabulary = 50;
  const auto t = buildTestIndex(randomCorpus(14, params));
  const auto id = t->index->findTerm("w0");
  ASSERT_TRUE(id);
  QueryCounters all;
  PostingCursor walk(*t->index, *id, all);
  while (walk.docId() != kNoMoreDocs) walk.next();
  QueryCounters some;
  PostingCursor jump(*t->index, *id, some);
  jump.nextGeq(2900);
  EXPECT_LT(some.docBlocksDecoded, all.docBlocksDecoded);
  EXPECT_GT(some.blocksSkipped, 0u);
  // Frequencies are decoded lazily: walking doc ids never asks for them.
  EXPECT_EQ(some.freqBlocksDecoded, 0u);
  EXPECT_EQ(all.freqBlocksDecoded, 0u);
}

INSTANTIATE_TEST_SUITE_P(SegmentSizes, PostingCursorTest, ::testing::Values(29u, 97u, 65536u));

}  // namespace
}  // namespace wandscope::test
