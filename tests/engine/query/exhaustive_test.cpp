// SPDX-License-Identifier: GPL-3.0-or-later
// The exhaustive paths against the brute-force oracle: same doc ids, same order, same f32 bits.
#include "engine/core/error.h"
#include "engine/query/searcher.h"
#include "tests/support/brute_force.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Hit;
using engine::Operator;

std::string describe(const std::vector<Hit>& hits) {
  std::string s;
  for (const auto& h : hits) {
    s += std::to_string(h.doc) + ":" + std::to_string(std::bit_cast<std::uint32_t>(h.score)) + " ";
  }
  return s;
}

void expectIdentical(const std::vector<Hit>& expected, const std::vector<Hit>& actual, const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i].doc, actual[i].doc) << what << " rank " << i + 1 << "\nexpected "
                                              << describe(expected) << "\nactual   " << describe(actual);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(expected[i].score), std::bit_cast<std::uint32_t>(actual[i].score))
        << what << " rank " << i + 1;
  }
}

engine::SearchResult run(const engine::Index& index, const std::string& q, Operator op, std::size_t k,
                         Algorithm algo = Algorithm::Exhaustive) {
  engine::SearchRequest r;
  r.text = q;
  r.op = op;
  r.k = k;
  r.algorithm = algo;
  return engine::search(index, r);
}

TEST(Exhaustive, HandMadeCorpus) {
  const auto t = buildTestIndex(corpusFromDsl("d0: x y / d1: y z z / d2: x"));
  const auto r = run(*t->index, "x z", Operator::Or, 10);
  ASSERT_EQ(r.hits.size(), 3u);
  EXPECT_EQ(r.hits[0].doc, 1u);  // z twice in a 3-token document beats x once
  EXPECT_EQ(r.hits[1].doc, 2u);  // x in the shortest document
  EXPECT_EQ(r.hits[2].doc, 0u);
  EXPECT_NEAR(r.hits[0].score, 1.1823696, 1e-6);  // see Bm25.MatchesHandComputedValues
  const auto a = run(*t->index, "x y", Operator::And, 10);
  ASSERT_EQ(a.hits.size(), 1u);
  EXPECT_EQ(a.hits[0].doc, 0u);
}

struct OracleCase {
  std::uint64_t seed;
  std::uint32_t segmentDocs;
  engine::AnalyzerKind analyzer;
};

class ExhaustiveOracle : public ::testing::TestWithParam<OracleCase> {};

TEST_P(ExhaustiveOracle, EqualsBruteForceBitForBit) {
  const auto c = GetParam();
  SCOPED_TRACE("seed " + std::to_string(c.seed) + " segment docs " + std::to_string(c.segmentDocs));
  RandomCorpusParams params;
  params.docs = 800;
  params.vocabulary = 250;
  const auto docs = randomCorpus(c.seed, params);
  engine::IndexBuildOptions options;
  options.segmentDocs = c.segmentDocs;
  options.analyzer = c.analyzer;
  options.bm25 = {0.9f, 0.4f};
  const auto t = buildTestIndex(docs, options);
  const BruteForce oracle(docs, c.analyzer, options.bm25);
  std::mt19937_64 rng(c.seed);
  for (int q = 0; q < 60; ++q) {
    const std::string query = randomQuery(rng, params, 6);
    for (Operator op : {Operator::Or, Operator::And}) {
      for (std::size_t k : {1, 3, 10, 100, 1000}) {
        const auto expected = oracle.search(query, op, k);
        const auto actual = run(*t->index, query, op, k);
        expectIdentical(expected, actual.hits,
                        "query '" + query + "' op " + engine::operatorName(op) + " k " + std::to_string(k));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpora, ExhaustiveOracle,
                         ::testing::Values(OracleCase{1, 65536, engine::AnalyzerKind::Plain},
                                           OracleCase{2, 50, engine::AnalyzerKind::Plain},
                                           OracleCase{3, 7, engine::AnalyzerKind::Plain},
                                           OracleCase{4, 300, engine::AnalyzerKind::English}));

TEST(Exhaustive, EdgeCases) {
  const auto t = buildTestIndex(corpusFromDsl("a: one two / b: two three / c: three three"));
  const auto& index = *t->index;
  EXPECT_TRUE(run(index, "", Operator::Or, 10).hits.empty()) << "empty query";
  EXPECT_TRUE(run(index, "  ,,, !!", Operator::Or, 10).hits.empty()) << "no tokens";
  EXPECT_TRUE(run(index, "two", Operator::Or, 0).hits.empty()) << "k = 0";
  EXPECT_EQ(run(index, "two", Operator::Or, engine::kMaxK).hits.size(), 2u) << "huge k";
  EXPECT_EQ(run(index, "two nosuchword", Operator::Or, 10).hits.size(), 2u) << "unknown OR term is ignored";
  const auto r = run(index, "two nosuchword", Operator::And, 10);
  EXPECT_TRUE(r.hits.empty()) << "an unknown AND term matches nothing";
  EXPECT_EQ(r.query.terms.size(), 2u);
  EXPECT_FALSE(r.query.terms[1].id.has_value());
  // Repeated query tokens count once.
  const auto once = run(index, "three", Operator::Or, 10);
  const auto twice = run(index, "three three THREE", Operator::Or, 10);
  EXPECT_EQ(once.hits, twice.hits);
  EXPECT_EQ(twice.query.tokens, 3u);
  EXPECT_EQ(twice.query.terms.size(), 1u);
  EXPECT_THROW(run(index, "two", Operator::Or, engine::kMaxK + 1), engine::Error);
  EXPECT_THROW(run(index, "two", Operator::And, 10, Algorithm::Wand), engine::Error);
}

// Benchmarks skip the plan's words; the answer and the work are the same either way.
TEST(Exhaustive, DescribePlanOffLeavesOnlyTheReasonOut) {
  const auto t = buildTestIndex(corpusFromDsl("a: one two / b: two three / c: three three / d: one three"));
  for (const auto op : {Operator::Or, Operator::And}) {
    engine::SearchRequest r;
    r.text = "one three nosuchword";
    r.op = op;
    r.k = 3;
    const auto described = engine::search(*t->index, r);
    r.describePlan = false;
    const auto quiet = engine::search(*t->index, r);
    EXPECT_FALSE(described.reason.empty());
    EXPECT_TRUE(quiet.reason.empty()) << quiet.reason;
    EXPECT_EQ(described.hits, quiet.hits);
    EXPECT_EQ(described.algorithm, quiet.algorithm);
    EXPECT_EQ(described.counters.fullScores, quiet.counters.fullScores);
  }
}

TEST(Exhaustive, QueriesWithTooManyTermsAreRejected) {
  const auto t = buildTestIndex(corpusFromDsl("a: one"));
  std::string huge;
  for (std::size_t i = 0; i <= engine::kMaxQueryTerms; ++i) huge += "t" + std::to_string(i) + " ";
  try {
    run(*t->index, huge, Operator::Or, 10);
    FAIL() << "expected a usage error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("analyzed term 1025 is 't1024'"), std::string::npos) << e.what();
  }
  // Many repeats of few terms are fine.
  std::string repeats;
  for (int i = 0; i < 100000; ++i) repeats += "one ";
  EXPECT_EQ(run(*t->index, repeats, Operator::Or, 10).hits.size(), 1u);
}

// When nothing runs, the reason says so whatever path it names (a review found "wand (forced)"
// for a query of unknown words, and a path named for k = 0).
TEST(Exhaustive, TheReasonSaysWhenNothingIsEvaluated) {
  const auto t = buildTestIndex(corpusFromDsl("a: one two / b: two three"));
  engine::SearchRequest r;
  r.text = "nosuch words";
  r.algorithm = Algorithm::Wand;
  EXPECT_EQ(engine::search(*t->index, r).reason, "forced; no known term, nothing to evaluate");
  r.algorithm = Algorithm::Auto;
  EXPECT_EQ(engine::search(*t->index, r).reason, "auto: no known term, nothing to evaluate");
  r.text = "two";
  r.k = 0;
  const auto none = engine::search(*t->index, r);
  EXPECT_TRUE(none.hits.empty());
  EXPECT_NE(none.reason.find("; k = 0, nothing to evaluate"), std::string::npos) << none.reason;
  r.k = 10;
  EXPECT_EQ(engine::search(*t->index, r).reason.find("nothing to evaluate"), std::string::npos);
}

// The analyzer's drops are kept with the query, for explain.
TEST(Exhaustive, TheParsedQueryCountsWhatTheAnalyzerDropped) {
  const auto t = buildTestIndex(corpusFromDsl("a: one two"));
  engine::SearchRequest r;
  r.text = "one " + std::string(65, 'x') + " two\xFF";
  const auto result = engine::search(*t->index, r);
  EXPECT_EQ(result.query.tokens, 2u);
  EXPECT_EQ(result.query.analysis.overlongTokens, 1u);
  EXPECT_EQ(result.query.analysis.invalidBytes, 1u);
  EXPECT_EQ(engine::describeAnalysis(result.query),
            "2 distinct terms of 2 tokens; dropped 1 token over 64 bytes, 1 byte not UTF-8 (read as separators)");
  r.text = "one one";
  EXPECT_EQ(engine::describeAnalysis(engine::search(*t->index, r).query), "1 distinct term of 2 tokens");
}

TEST(Exhaustive, ExplainAddsUpToTheScore) {
  const auto docs = randomCorpus(5);
  const auto t = buildTestIndex(docs);
  engine::SearchRequest r;
  r.text = "w1 w2 w7 w30";
  r.explain = true;
  const auto result = engine::search(*t->index, r);
  ASSERT_EQ(result.explain.size(), result.hits.size());
  for (std::size_t i = 0; i < result.hits.size(); ++i) {
    EXPECT_EQ(result.explain[i].score, result.hits[i].score);
    EXPECT_EQ(result.explain[i].docLength, t->index->docLength(result.hits[i].doc));
  }
}

}  // namespace
}  // namespace wandscope::test
