// SPDX-License-Identifier: GPL-3.0-or-later
// The bound study (engine/query/bound_study.h) against what it must equal at its two ends: one
// posting per bound is each document's own score, one bound per list is the terms' list maxima;
// at 128 postings per bound it is the index's own block maxima, per segment; and in between, nested
// runs can only reach less as they get shorter.
#include "engine/core/error.h"
#include "engine/query/bound_study.h"
#include "engine/query/posting_cursor.h"
#include "engine/query/searcher.h"
#include "engine/score/score_bounds.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace wandscope::test {
namespace {

using engine::Operator;

struct Expected {
  std::uint64_t considered = 0;
  std::uint64_t reachingOwnScore = 0;    // score >= the k-th
  std::uint64_t nearOwnScore = 0;        // score >= the k-th less 1e-5 relative (the widening's room)
  std::uint64_t reachingListMaxima = 0;  // widened sum of the held terms' list maxima >= the k-th
  std::uint64_t reachingBlockMaxima = 0; // ... of the index's block maxima (128 postings per segment's block)
  std::size_t withKth = 0;
};

// Whether an f64 sum of bounds over `held` terms, widened and rounded outward as the paths do,
// reaches the k-th score.
bool reaches(double bound, std::size_t held, double kth) {
  return !(static_cast<double>(engine::conservativeBound(bound, engine::sumUpperBoundFactor(held))) < kth);
}

// From the exhaustive path with k = every document and explain on: each document holding the
// query's terms, its score and the terms it holds.
Expected expectedFor(const engine::Index& index, const std::vector<std::string>& queries, Operator op, std::size_t k) {
  Expected e;
  for (const auto& text : queries) {
    engine::SearchRequest r;
    r.text = text;
    r.op = op;
    r.k = static_cast<std::size_t>(index.docCount());
    r.algorithm = engine::Algorithm::Exhaustive;
    r.explain = true;
    const auto all = engine::search(index, r);
    if (all.hits.size() < k) continue;
    ++e.withKth;
    const double kth = static_cast<double>(all.hits[k - 1].score);
    e.considered += all.hits.size();
    // The index's own block maxima, read through cursors (documents in doc-id order: a cursor's
    // block pointer never moves back).
    std::vector<engine::HitExplain> byDoc = all.explain;
    std::sort(byDoc.begin(), byDoc.end(), [](const auto& a, const auto& b) { return a.doc < b.doc; });
    engine::QueryCounters counters;
    std::vector<std::optional<engine::PostingCursor>> cursors;
    for (const auto& term : all.query.terms) {
      cursors.emplace_back();
      if (term.id) cursors.back().emplace(index, *term.id, counters);
    }
    for (const auto& x : byDoc) {
      double bound = 0.0;
      std::size_t held = 0;
      for (std::size_t t = 0; t < x.tf.size(); ++t) {
        if (x.tf[t] == 0) continue;
        cursors[t]->shallowAdvance(x.doc);
        bound += static_cast<double>(cursors[t]->blockMaxScore());
        ++held;
      }
      if (reaches(bound, held, kth)) ++e.reachingBlockMaxima;
    }
    for (const auto& x : all.explain) {
      const double s = static_cast<double>(x.score);
      if (s >= kth) ++e.reachingOwnScore;
      if (s >= kth * (1.0 - 1e-5)) ++e.nearOwnScore;
      double bound = 0.0;
      std::size_t held = 0;
      for (std::size_t t = 0; t < x.tf.size(); ++t) {
        if (x.tf[t] == 0) continue;
        bound += static_cast<double>(all.query.terms[t].maxScore);
        ++held;
      }
      if (reaches(bound, held, kth)) ++e.reachingListMaxima;
    }
  }
  return e;
}

TEST(BoundStudy, EndsAreOwnScoresAndListMaximaAndNestedRunsReachLessAsTheyShorten) {
  const std::uint64_t seed = 4242;
  SCOPED_TRACE("seed " + std::to_string(seed));
  RandomCorpusParams params;
  params.docs = 1500;
  params.vocabulary = 60;  // lists of hundreds of postings: several runs at every granularity
  const auto corpus = randomCorpus(seed, params);
  std::mt19937_64 rng(seed);
  std::vector<std::string> queries;
  for (int i = 0; i < 40; ++i) queries.push_back(randomQuery(rng, params, 4));

  for (const std::uint32_t segmentDocs : {100000u, 400u}) {  // one segment; four (runs restart per segment)
    engine::IndexBuildOptions build;
    build.segmentDocs = segmentDocs;
    const auto t = buildTestIndex(corpus, build);
    const bool oneSegment = t->index->segments().size() == 1;
    ASSERT_TRUE(oneSegment || t->index->segments().size() == 4u);
    for (const Operator op : {Operator::Or, Operator::And}) {
      for (const std::size_t k : {1u, 10u}) {
        SCOPED_TRACE(std::string(op == Operator::Or ? "OR" : "AND") + " k " + std::to_string(k) + " segments " +
                     std::to_string(t->index->segments().size()));
        engine::BoundStudyOptions options;
        options.op = op;
        options.k = k;
        options.granularities = {1u << 30, 512, 128, 64, 32, 16, 8, 4, 2, 1};
        const auto study = engine::studyBounds(*t->index, queries, options);
        const Expected e = expectedFor(*t->index, queries, op, k);
        ASSERT_GT(e.withKth, 5u) << "the queries must mostly have k hits";
        EXPECT_EQ(study.queries, queries.size());
        EXPECT_EQ(study.withKth, e.withKth);
        EXPECT_EQ(study.considered, e.considered);
        ASSERT_EQ(study.rows.size(), options.granularities.size());
        if (oneSegment) {
          EXPECT_EQ(study.rows.front().reaching, e.reachingListMaxima) << "one run per list: the list maxima";
        } else {
          EXPECT_LE(study.rows.front().reaching, e.reachingListMaxima) << "one run per segment's list";
        }
        EXPECT_EQ(study.rows[2].reaching, e.reachingBlockMaxima) << "128 postings per run: the index's blocks";
        const auto& own = study.rows.back();
        EXPECT_GE(own.reaching, e.reachingOwnScore) << "one posting per run: a bound never under-estimates";
        EXPECT_LE(own.reaching, e.nearOwnScore) << "... and is each document's own score, widened";
        for (std::size_t r = 1; r < study.rows.size(); ++r) {
          EXPECT_LE(study.rows[r].reaching, study.rows[r - 1].reaching) << "granularity " << study.rows[r].granularity;
          EXPECT_GE(study.rows[r].meanQueryShare, 0.0);
          EXPECT_LE(study.rows[r].meanQueryShare, 1.0);
        }
        if (op == Operator::Or) {
          EXPECT_LT(own.reaching, study.rows.front().reaching) << "the test must discriminate";
        }
      }
    }
  }
}

// A segment whose list of the term is one posting long, then a segment where it starts again at
// index 0: the runs must not join (d0's high score would bound d2 and d3).
TEST(BoundStudy, RunsNeverJoinTwoSegmentsEvenWhenAListHoldsOnePosting) {
  engine::IndexBuildOptions build;
  build.segmentDocs = 2;
  const auto t = buildTestIndex(corpusFromDsl("d0: x x x x / d1: y / d2: x y y y y y y y y y / d3: x y y y y y y y y y"),
                                build);
  ASSERT_EQ(t->index->segments().size(), 2u);
  engine::BoundStudyOptions options;
  options.k = 1;
  options.granularities = {128, 2};
  const auto study = engine::studyBounds(*t->index, {"x"}, options);
  ASSERT_EQ(study.withKth, 1u);
  EXPECT_EQ(study.considered, 3u);
  EXPECT_EQ(study.rows[0].reaching, 1u) << "only d0 reaches its own score";
  EXPECT_EQ(study.rows[1].reaching, 1u);
}

TEST(BoundStudy, QueriesWithoutAKthScoreAreLeftOutAndBadOptionsAreRefused) {
  const auto t = buildTestIndex(corpusFromDsl("d0: a b / d1: a / d2: b c"));
  engine::BoundStudyOptions options;
  options.k = 2;
  const auto study = engine::studyBounds(*t->index, {"a", "c", "zzz", "a b"}, options);
  EXPECT_EQ(study.queries, 4u);
  EXPECT_EQ(study.withKth, 2u) << "'c' has one hit and 'zzz' none";
  EXPECT_EQ(study.considered, 2u + 3u);
  // The mean share is over the queries with a k-th score, each weighing the same (the range checks
  // in the property test above could not catch a wrong weighting).
  for (std::size_t r = 0; r < study.rows.size(); ++r) {
    double sum = 0.0;
    for (const std::string q : {"a", "a b"}) {
      const auto one = engine::studyBounds(*t->index, {q}, options);
      sum += static_cast<double>(one.rows[r].reaching) / static_cast<double>(one.considered);
    }
    EXPECT_DOUBLE_EQ(study.rows[r].meanQueryShare, sum / 2.0) << "granularity " << study.rows[r].granularity;
  }

  auto refused = [&](engine::BoundStudyOptions o) {
    try {
      (void)engine::studyBounds(*t->index, {"a"}, o);
    } catch (const engine::Error& e) {
      return e.kind() == engine::ErrorKind::Usage;
    }
    return false;
  };
  engine::BoundStudyOptions o = options;
  o.k = 0;
  EXPECT_TRUE(refused(o));
  o = options;
  o.granularities = {};
  EXPECT_TRUE(refused(o));
  o.granularities = {128, 0};
  EXPECT_TRUE(refused(o));
}

}  // namespace
}  // namespace wandscope::test
