// SPDX-License-Identifier: GPL-3.0-or-later
// The planner's `auto` rule (docs/ALGORITHMS.md, "The planner"), case by case.
#include "engine/query/planner.h"

#include <gtest/gtest.h>

#include <vector>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Operator;

engine::ParsedQuery queryWithDfs(const std::vector<std::uint64_t>& dfs) {
  engine::ParsedQuery q;
  engine::TermId id = 0;
  for (auto df : dfs) {
    engine::QueryTerm t;
    t.text = "t" + std::to_string(id);
    t.id = id++;
    t.df = df;
    q.terms.push_back(t);
  }
  q.tokens = q.terms.size();
  return q;
}

engine::ParsedQuery queryWithDfs(std::initializer_list<std::uint64_t> dfs) {
  return queryWithDfs(std::vector<std::uint64_t>(dfs));
}

constexpr std::uint64_t kDocs = 1'000'000;

TEST(Planner, ForcedAlgorithmsAreKept) {
  const auto q = queryWithDfs({10, 20});
  for (auto a : {Algorithm::Exhaustive, Algorithm::Wand, Algorithm::Bmw, Algorithm::BulkAnd}) {
    EXPECT_EQ(engine::planQuery(q, Operator::Or, a, {}, kDocs, 10).algorithm, a);
  }
}

TEST(Planner, OneKnownTermUsesTheBulkAndOverOneListForBothOperators) {
  const auto q = queryWithDfs({50'000});
  EXPECT_EQ(engine::planQuery(q, Operator::And, Algorithm::Auto, {}, kDocs, 10).algorithm, Algorithm::BulkAnd);
  EXPECT_EQ(engine::planQuery(q, Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm, Algorithm::BulkAnd);
  engine::SearchOptions off;
  off.bulkAnd = false;
  EXPECT_NE(engine::planQuery(q, Operator::Or, Algorithm::Auto, off, kDocs, 10).algorithm, Algorithm::BulkAnd);
}

// No known term (an empty query, or only unknown words): nothing runs, and the reason says so
// rather than naming the one-term rule (which it did before, for 0 terms).
TEST(Planner, NoKnownTermIsNamedAsSuch) {
  engine::ParsedQuery none;
  engine::QueryTerm unknown;
  unknown.text = "zzzz";
  none.terms.push_back(unknown);
  for (auto op : {Operator::Or, Operator::And}) {
    const auto plan = engine::planQuery(none, op, Algorithm::Auto, {}, kDocs, 10);
    EXPECT_EQ(plan.rule, engine::PlanRule::NoTerms);
    EXPECT_EQ(plan.algorithm, Algorithm::Exhaustive);
    EXPECT_EQ(engine::planReason(plan), "auto: no known term, nothing to evaluate");
  }
  EXPECT_EQ(engine::planQuery(engine::ParsedQuery{}, Operator::Or, Algorithm::Auto, {}, kDocs, 10).rule,
            engine::PlanRule::NoTerms);
}

// AND with one known and one unknown term matches nothing: the plan says so instead of naming
// the one-term rule and a bulk AND that never runs (it did before). OR over the same terms is
// the one-term query.
TEST(Planner, AndWithAnUnknownTermIsNamedAsNothingToMatch) {
  auto q = queryWithDfs({50'000, 60'000});
  q.terms[1].id.reset();
  const auto plan = engine::planQuery(q, Operator::And, Algorithm::Auto, {}, kDocs, 10);
  EXPECT_EQ(plan.rule, engine::PlanRule::AndUnknownTerm);
  EXPECT_EQ(plan.algorithm, Algorithm::Exhaustive);
  EXPECT_EQ(engine::planReason(plan), "auto: an AND term is not in the index, nothing can match");
  EXPECT_EQ(engine::planQuery(q, Operator::Or, Algorithm::Auto, {}, kDocs, 10).rule, engine::PlanRule::OneTerm);
  EXPECT_EQ(engine::planQuery(q, Operator::And, Algorithm::BulkAnd, {}, kDocs, 10).rule, engine::PlanRule::Forced);
}

TEST(Planner, OrUsesBlockMaxMaxScoreUpToThreeTermsThenMaxScore) {
  EXPECT_EQ(engine::planQuery(queryWithDfs({30'000, 20'000}), Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm,
            Algorithm::Bmm);
  EXPECT_EQ(
      engine::planQuery(queryWithDfs({30'000, 20'000, 10'000}), Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm,
      Algorithm::Bmm);
  EXPECT_EQ(engine::planQuery(queryWithDfs({30'000, 20'000, 15'000, 40'000}), Operator::Or, Algorithm::Auto, {}, kDocs,
                              10)
                .algorithm,
            Algorithm::MaxScore);
}

// The windowed bmm pays per window (the rule counts in 4096-document windows): when the lists but
// the longest hold fewer than 16 postings per window (rare+common-2 on 1M documents; rare-2/3 with taat=off) maxscore runs
// instead; the longest list does not count (it is the first to turn non-essential).
TEST(Planner, SparseOrListsUseMaxScoreWhileBulkOrIsOn) {
  engine::SearchOptions noTaat;
  noTaat.taat = false;  // otherwise all-sparse lists take taat (below)
  // 1M docs: 3'906.25 postings of the shorter lists = 16 per window, the boundary.
  EXPECT_EQ(
      engine::planQuery(queryWithDfs({2'000, 3'000}), Operator::Or, Algorithm::Auto, noTaat, kDocs, 10).algorithm,
      Algorithm::MaxScore);
  EXPECT_EQ(engine::planQuery(queryWithDfs({500'000, 3'000}), Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm,
            Algorithm::MaxScore);
  EXPECT_EQ(engine::planQuery(queryWithDfs({500'000, 3'907}), Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm,
            Algorithm::Bmm);
  EXPECT_EQ(engine::planQuery(queryWithDfs({500'000, 3'906}), Operator::Or, Algorithm::Auto, {}, kDocs, 10).algorithm,
            Algorithm::MaxScore);
  engine::SearchOptions off = noTaat;
  off.bulkOr = false;  // the document-at-a-time bmm has no per-window cost
  EXPECT_EQ(engine::planQuery(queryWithDfs({2'000, 3'000}), Operator::Or, Algorithm::Auto, off, kDocs, 10).algorithm,
            Algorithm::Bmm);
}

// OR with 2 known terms whose lists hold more than 0.25 postings per document together
// (sequential-2's common words): bmm, document at a time (the windowed form reads the long lists
// term at a time); 3 terms, sparser lists and bulk_or=off keep the windowed plan.
TEST(Planner, TwoDenseOrListsUseTheDocumentAtATimeBmm) {
  const auto plan = [](std::initializer_list<std::uint64_t> dfs, engine::SearchOptions o = {}) {
    return engine::planQuery(queryWithDfs(dfs), Operator::Or, Algorithm::Auto, o, kDocs, 10);
  };
  const auto dense = plan({200'000, 50'001});
  EXPECT_EQ(dense.algorithm, Algorithm::Bmm);
  EXPECT_EQ(dense.rule, engine::PlanRule::OrDenseTwo);
  EXPECT_FALSE(dense.windowed);
  EXPECT_EQ(engine::planReason(dense),
            "auto: OR with 2 known terms holding 0.25 postings per document together > 0.25 -> bmm, "
            "document at a time");
  const auto boundary = plan({200'000, 50'000});  // exactly 0.25: windowed
  EXPECT_EQ(boundary.rule, engine::PlanRule::OrFew);
  EXPECT_TRUE(boundary.windowed);
  EXPECT_TRUE(plan({300'000, 200'000, 100'000}).windowed);  // three terms
  EXPECT_EQ(plan({300'000, 200'000, 100'000}).rule, engine::PlanRule::OrFew);
  engine::SearchOptions off;
  off.bulkOr = false;  // bmm is document at a time anyway; the rule is not consulted
  EXPECT_EQ(plan({300'000, 200'000}, off).rule, engine::PlanRule::OrFew);
  // Forced bmm stays windowed (bulk_or decides).
  EXPECT_TRUE(engine::planQuery(queryWithDfs({300'000, 200'000}), Operator::Or, Algorithm::Bmm, {}, kDocs, 10).windowed);
}

// OR with 2-8 known terms whose lists all hold fewer than 1 % of the documents (rare-2/3 on 1M
// documents): taat. The boundary is per list, on the longest; unknown terms do not count.
TEST(Planner, OrOverSparseListsUsesTaat) {
  auto plan = [](const engine::ParsedQuery& q, engine::SearchOptions o = {}) {
    return engine::planQuery(q, Operator::Or, Algorithm::Auto, o, kDocs, 10).algorithm;
  };
  EXPECT_EQ(plan(queryWithDfs({2'000, 3'000})), Algorithm::Taat);
  EXPECT_EQ(plan(queryWithDfs({9'999, 5'000, 100})), Algorithm::Taat);
  EXPECT_EQ(plan(queryWithDfs({10'000, 100})), Algorithm::MaxScore);  // 1 % is not sparse: OrSparse
  EXPECT_EQ(plan(queryWithDfs({10'000, 20'000})), Algorithm::Bmm);
  EXPECT_EQ(plan(queryWithDfs({500'000, 3'000})), Algorithm::MaxScore);  // rare+common
  EXPECT_EQ(plan(queryWithDfs({1, 2, 3, 4, 5, 6, 7, 8})), Algorithm::Taat);
  EXPECT_EQ(plan(queryWithDfs({1, 2, 3, 4, 5, 6, 7, 8, 9})), Algorithm::MaxScore);  // > 8 terms: OrMany
  // The k does not matter (measured at k = 10, 100 and 1000).
  EXPECT_EQ(engine::planQuery(queryWithDfs({2'000, 3'000}), Operator::Or, Algorithm::Auto, {}, kDocs, 1000).algorithm,
            Algorithm::Taat);
  auto unknown = queryWithDfs({2'000, 3'000, 500'000});
  unknown.terms[2].id.reset();
  EXPECT_EQ(plan(unknown), Algorithm::Taat);
  unknown.terms[1].id.reset();
  EXPECT_EQ(plan(unknown), Algorithm::BulkAnd);  // one known term
  EXPECT_EQ(plan(queryWithDfs({2'000})), Algorithm::BulkAnd);
  engine::SearchOptions off;
  off.taat = false;
  EXPECT_EQ(plan(queryWithDfs({2'000, 3'000}), off), Algorithm::MaxScore);
  EXPECT_EQ(plan(queryWithDfs({1, 2, 3, 4, 5}), off), Algorithm::MaxScore);
  // AND is never taat.
  EXPECT_EQ(engine::planQuery(queryWithDfs({2'000, 3'000}), Operator::And, Algorithm::Auto, {}, kDocs, 10).algorithm,
            Algorithm::BulkAnd);
  // An empty index has no density to judge.
  EXPECT_NE(engine::planQuery(queryWithDfs({0, 0}), Operator::Or, Algorithm::Auto, {}, 0, 10).algorithm,
            Algorithm::Taat);
}

// With long windows (the default) every AND of 2 to 16 known terms takes the bulk AND, whatever
// the lists' lengths, the expected matches and k; beyond 16, or with long_windows=off, the rules
// measured for the first seed's windows below.
TEST(Planner, AndOfTwoToSixteenTermsUsesTheBulkAndsLongWindows) {
  for (const auto& dfs : {std::vector<std::uint64_t>{30'000, 30'000}, std::vector<std::uint64_t>{30'000, 30'000, 30'000},
                          std::vector<std::uint64_t>{2'000, 900'000}, std::vector<std::uint64_t>{1'000, 1'000},
                          std::vector<std::uint64_t>(16, 100'000)}) {
    for (const std::size_t k : {1, 10, 1000}) {
      const auto p = engine::planQuery(queryWithDfs(dfs), Operator::And, Algorithm::Auto, {}, kDocs, k);
      EXPECT_EQ(p.algorithm, Algorithm::BulkAnd) << dfs.size() << " terms, k " << k;
      EXPECT_EQ(p.rule, engine::PlanRule::AndLongWindows) << dfs.size() << " terms, k " << k;
    }
  }
  EXPECT_EQ(engine::planQuery(queryWithDfs(std::vector<std::uint64_t>(17, 100'000)), Operator::And, Algorithm::Auto, {},
                              kDocs, 10)
                .rule,
            engine::PlanRule::AndManyClauses);
  engine::SearchOptions off;
  off.bulkAnd = false;
  EXPECT_EQ(engine::planQuery(queryWithDfs({30'000, 30'000}), Operator::And, Algorithm::Auto, off, kDocs, 10).algorithm,
            Algorithm::BlockMaxAnd);
}

// The first seed's windows (long_windows=off) from here on.
engine::SearchOptions seedWindows() {
  engine::SearchOptions o;
  o.longWindows = false;
  return o;
}

TEST(Planner, AndPrunesOnlyWhenManyMoreThanKDocumentsAreExpectedToMatch) {
  // 1M x 0.03 x 0.03 = 900 expected matches: >= 16 x 10, prune with the bulk AND.
  const auto big = queryWithDfs({30'000, 30'000});
  EXPECT_NEAR(engine::estimatedAndMatches(big, kDocs), 900.0, 1e-6);
  EXPECT_EQ(engine::planQuery(big, Operator::And, Algorithm::Auto, seedWindows(), kDocs, 10).algorithm, Algorithm::BulkAnd);
  // The same query at k = 100 needs 1,600: the oracle's leapfrog.
  EXPECT_EQ(engine::planQuery(big, Operator::And, Algorithm::Auto, seedWindows(), kDocs, 100).algorithm,
            Algorithm::Exhaustive);
  // 1M x 0.03^3 = 27 expected matches: nothing to prune.
  EXPECT_EQ(engine::planQuery(queryWithDfs({30'000, 30'000, 30'000}), Operator::And, Algorithm::Auto, seedWindows(),
                              kDocs, 10)
                .algorithm,
            Algorithm::Exhaustive);
  engine::SearchOptions off = seedWindows();
  off.bulkAnd = false;
  EXPECT_EQ(engine::planQuery(big, Operator::And, Algorithm::Auto, off, kDocs, 10).algorithm, Algorithm::BlockMaxAnd);
}

TEST(Planner, AndWithFourOrMoreClausesUsesTheLeapfrog) {
  EXPECT_EQ(engine::planQuery(queryWithDfs({100'000, 100'000, 100'000}), Operator::And, Algorithm::Auto, seedWindows(),
                              kDocs, 10)
                .algorithm,
            Algorithm::BulkAnd);
  EXPECT_EQ(engine::planQuery(queryWithDfs({100'000, 100'000, 100'000, 100'000}), Operator::And, Algorithm::Auto,
                              seedWindows(), kDocs, 10)
                .algorithm,
            Algorithm::Exhaustive);
}

TEST(Planner, AndWithSkewedListsUsesTheLeapfrog) {
  // 1M x 0.002 x 0.9 = 1,800 expected matches, but the dense list has ~7,000 blocks and the rare
  // one 2,000 postings: windows would outnumber the leapfrog's seeks.
  const auto skewed = queryWithDfs({2'000, 900'000});
  EXPECT_EQ(engine::planQuery(skewed, Operator::And, Algorithm::Auto, seedWindows(), kDocs, 10).algorithm,
            Algorithm::Exhaustive);
  // Less skew (128 x 8,000 > 900,000): the bulk AND.
  EXPECT_EQ(engine::planQuery(queryWithDfs({8'000, 900'000}), Operator::And, Algorithm::Auto, seedWindows(), kDocs, 10)
                .algorithm,
            Algorithm::BulkAnd);
}

TEST(Planner, UnknownTermsExpectNoMatches) {
  auto q = queryWithDfs({500'000, 500'000});
  q.terms[1].id.reset();
  EXPECT_EQ(engine::estimatedAndMatches(q, kDocs), 0.0);
  EXPECT_EQ(engine::estimatedAndMatches(queryWithDfs({5}), 0), 0.0);
}

// The words are made on demand from the rule and its numbers (benchmarks never ask for them).
TEST(Planner, ReasonNamesTheRuleAndItsNumbers) {
  auto reason = [](const engine::ParsedQuery& q, Operator op, engine::SearchOptions o = {}) {
    return engine::planReason(engine::planQuery(q, op, Algorithm::Auto, o, kDocs, 10));
  };
  EXPECT_EQ(engine::planReason(engine::planQuery(queryWithDfs({5, 6}), Operator::And, Algorithm::Wand, {}, kDocs, 10)),
            "forced");
  EXPECT_EQ(reason(queryWithDfs({5}), Operator::Or), "auto: one known term -> bulk-and (block-max top-k over one list)");
  EXPECT_EQ(reason(queryWithDfs({50'000, 60'000}), Operator::Or), "auto: OR with 2 known terms -> bmm");
  EXPECT_EQ(reason(queryWithDfs({5'000, 2'000, 6}), Operator::Or),
            "auto: OR with 3 known terms, longest list 0.50 % of the documents < 1 % -> taat");
  engine::SearchOptions noTaat;
  noTaat.taat = false;
  EXPECT_EQ(reason(queryWithDfs({5, 6}), Operator::Or, noTaat),
            "auto: OR with 2 known terms, ~0 postings per 4096-doc window in all but the longest list < 16 -> maxscore");
  EXPECT_EQ(reason(queryWithDfs({50'000, 60'000, 70'000, 80'000}), Operator::Or),
            "auto: OR with 4 known terms -> maxscore");
  EXPECT_EQ(reason(queryWithDfs({1000, 1000, 1000}), Operator::And), "auto: AND with 3 clauses -> bulk-and (long windows)");
  EXPECT_EQ(reason(queryWithDfs({1000, 1000}), Operator::And, seedWindows()),
            "auto: AND with ~1 expected matches < 160 (k x 16) -> exhaustive");
  EXPECT_EQ(reason(queryWithDfs({1000, 1000, 1000, 1000}), Operator::And, seedWindows()),
            "auto: AND with 4 clauses > 3 (the seed's windows; long_windows=off) -> exhaustive");
  // A review found "17 clauses > 3" read as if 3 were the AND limit: 16 is, with long windows.
  EXPECT_EQ(reason(queryWithDfs(std::vector<std::uint64_t>(17, 1000)), Operator::And),
            "auto: AND with 17 clauses > 16 (the long windows' limit) and > 3 (the seed's windows') -> exhaustive");
  engine::SearchOptions bulkOff;
  bulkOff.bulkAnd = false;
  EXPECT_EQ(reason(queryWithDfs({1000, 1000, 1000, 1000}), Operator::And, bulkOff),
            "auto: AND with 4 clauses > 3 (the seed's windows; bulk_and=off) -> exhaustive");
  engine::SearchOptions noBulk;
  noBulk.bulkAnd = false;
  EXPECT_EQ(reason(queryWithDfs({5}), Operator::Or, noBulk), "auto: OR with 1 known term -> bmm");
  EXPECT_EQ(reason(queryWithDfs({500'000, 2'000}), Operator::And, seedWindows()),
            "auto: AND with skewed lists (max df 500000 / 128 > min df 2000) -> exhaustive");
  EXPECT_EQ(reason(queryWithDfs({100'000, 100'000}), Operator::And, seedWindows()),
            "auto: AND with 2 clauses and ~10000 expected matches -> bulk-and");
  engine::SearchOptions off = seedWindows();
  off.bulkAnd = false;
  EXPECT_EQ(reason(queryWithDfs({100'000, 100'000}), Operator::And, off),
            "auto: AND with 2 clauses and ~10000 expected matches, bulk_and=off -> block-max-and");
}

}  // namespace
}  // namespace wandscope::test
