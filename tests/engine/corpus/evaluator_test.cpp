// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/evaluator.h"

#include "engine/core/error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace wandscope::test {
namespace {

using engine::evaluate;
using engine::EvalResult;
using engine::Qrels;

using engine::RunHit;

constexpr double kEps = 1e-12;

std::vector<RunHit> ranking(std::initializer_list<const char*> docs) {
  std::vector<RunHit> hits;
  float score = 100.0f;
  for (const char* doc : docs) hits.push_back(RunHit{doc, score--});
  return hits;
}

// Binary judgements. Relevant: d1, d2, d4 (d3 is judged non-relevant, d5 unjudged).
// Ranking: 1 d5, 2 d1 (rel), 3 d3, 4 d2 (rel); d4 never retrieved.
TEST(EvaluatorTest, BinaryRelevanceHandComputed) {
  Qrels qrels;
  qrels.judgements["q1"] = {{"d1", 1}, {"d2", 1}, {"d3", 0}, {"d4", 1}};
  engine::Run run;
  run.queries["q1"] = ranking({"d5", "d1", "d3", "d2"});
  const EvalResult r = evaluate(qrels, run);
  ASSERT_EQ(r.queriesEvaluated, 1u);
  EXPECT_EQ(r.queriesMissingInRun, 0u);
  const auto& m = r.perQuery.at("q1");
  // DCG  = 1/log2(3) + 1/log2(5)           = 0.6309298 + 0.4306766 = 1.0616063
  // IDCG = 1/log2(2) + 1/log2(3) + 1/log2(4) = 1 + 0.6309298 + 0.5  = 2.1309298
  // nDCG@10 = 0.4981893
  EXPECT_NEAR(m.ndcg10, (1 / std::log2(3.0) + 1 / std::log2(5.0)) / (1 + 1 / std::log2(3.0) + 0.5), kEps);
  EXPECT_NEAR(m.ndcg10, 0.49818925746641285, 1e-12);
  // Recall@100 = 2 retrieved of 3 relevant.
  EXPECT_NEAR(m.recall100, 2.0 / 3.0, kEps);
  // AP = (P@2 + P@4) / 3 = (1/2 + 2/4) / 3 = 1/3 (d4, unretrieved, adds 0).
  EXPECT_NEAR(m.ap, 1.0 / 3.0, kEps);
  // First relevant at rank 2.
  EXPECT_NEAR(m.rr10, 0.5, kEps);
  EXPECT_NEAR(r.mean.ap, 1.0 / 3.0, kEps);
}

// Graded judgements a:3, b:1, c:2, d:0; ranking b, a, d, c.
TEST(EvaluatorTest, GradedNdcgAndRelevanceLevel) {
  Qrels qrels;
  qrels.judgements["q"] = {{"a", 3}, {"b", 1}, {"c", 2}, {"d", 0}};
  engine::Run run;
  run.queries["q"] = ranking({"b", "a", "d", "c"});

  // DCG  = 1/log2(2) + 3/log2(3) + 0 + 2/log2(5) = 1 + 1.8927893 + 0.8613531 = 3.7541424
  // IDCG = 3/log2(2) + 2/log2(3) + 1/log2(4)     = 3 + 1.2618595 + 0.5       = 4.7618595
  // nDCG@10 = 0.7883774
  const double ndcg = (1 + 3 / std::log2(3.0) + 2 / std::log2(5.0)) / (3 + 2 / std::log2(3.0) + 0.5);
  EXPECT_NEAR(ndcg, 0.7883773914853737, 1e-12);

  const EvalResult level1 = evaluate(qrels, run, 1);
  const auto& m1 = level1.perQuery.at("q");
  EXPECT_NEAR(m1.ndcg10, ndcg, kEps);
  // Relevant = a, b, c. AP = (1/1 + 2/2 + 3/4) / 3 = 0.9166667.
  EXPECT_NEAR(m1.ap, (1.0 + 1.0 + 0.75) / 3.0, kEps);
  EXPECT_NEAR(m1.recall100, 1.0, kEps);
  EXPECT_NEAR(m1.rr10, 1.0, kEps);

  const EvalResult level2 = evaluate(qrels, run, 2);
  const auto& m2 = level2.perQuery.at("q");
  // nDCG keeps the graded gains: unchanged.
  EXPECT_NEAR(m2.ndcg10, ndcg, kEps);
  // Relevant = a (rank 2), c (rank 4). AP = (1/2 + 2/4) / 2 = 0.5; first relevant at rank 2.
  EXPECT_NEAR(m2.ap, 0.5, kEps);
  EXPECT_NEAR(m2.recall100, 1.0, kEps);
  EXPECT_NEAR(m2.rr10, 0.5, kEps);

  // Level 4: nothing is relevant, so the query is not evaluated at all.
  const EvalResult level4 = evaluate(qrels, run, 4);
  EXPECT_EQ(level4.queriesEvaluated, 0u);
  EXPECT_TRUE(level4.perQuery.empty());
  EXPECT_EQ(level4.mean.ndcg10, 0.0);
}

// Cutoffs: relevant r1 at rank 11, r2 at rank 101.
TEST(EvaluatorTest, CutoffsOfEachMeasure) {
  Qrels qrels;
  qrels.judgements["q"] = {{"r1", 1}, {"r2", 1}};
  engine::Run run;
  auto& hits = run.queries["q"];
  for (int i = 1; i <= 101; ++i) {
    const std::string doc = i == 11 ? "r1" : i == 101 ? "r2" : "n" + std::to_string(i);
    hits.push_back(RunHit{doc, static_cast<float>(1000 - i)});
  }
  const engine::QueryMetrics m = evaluate(qrels, run).perQuery.at("q");
  EXPECT_EQ(m.ndcg10, 0.0);  // nothing relevant in the top 10
  EXPECT_EQ(m.rr10, 0.0);    // first relevant at rank 11 > 10
  EXPECT_NEAR(m.recall100, 0.5, kEps);  // r2 at rank 101 is past the cut
  // AP has no cut: (1/11 + 2/101) / 2 = 0.0553555.
  EXPECT_NEAR(m.ap, (1.0 / 11 + 2.0 / 101) / 2, kEps);
}

TEST(EvaluatorTest, MissingQueriesCountZeroAndUnjudgedQueriesAreIgnored) {
  Qrels qrels;
  qrels.judgements["found"] = {{"a", 1}};
  qrels.judgements["missing"] = {{"b", 2}};
  qrels.judgements["only-nonrelevant"] = {{"c", 0}, {"e", -1}};
  engine::Run run;
  run.queries["found"] = ranking({"x", "a"});  // rank 2
  run.queries["not-judged"] = ranking({"a"});
  const EvalResult r = evaluate(qrels, run);
  EXPECT_EQ(r.queriesEvaluated, 2u);
  EXPECT_EQ(r.queriesMissingInRun, 1u);
  ASSERT_EQ(r.perQuery.size(), 2u);
  const auto& missing = r.perQuery.at("missing");
  EXPECT_EQ(missing.ndcg10, 0.0);
  EXPECT_EQ(missing.ap, 0.0);
  EXPECT_EQ(missing.recall100, 0.0);
  EXPECT_EQ(missing.rr10, 0.0);
  // "found": nDCG = (1/log2(3)) / 1 = 0.6309298; AP = 1/2; RR = 1/2; recall = 1.
  // Means over the two evaluated queries: half of each.
  EXPECT_NEAR(r.mean.ndcg10, (1 / std::log2(3.0)) / 2, kEps);
  EXPECT_NEAR(r.mean.ap, 0.25, kEps);
  EXPECT_NEAR(r.mean.rr10, 0.25, kEps);
  EXPECT_NEAR(r.mean.recall100, 0.5, kEps);
}

// A document repeated in one ranking: x at ranks 1 and 2, y at rank 3. The second x keeps its
// slot but earns nothing.
TEST(EvaluatorTest, RepeatedDocumentsCountOnce) {
  Qrels qrels;
  qrels.judgements["q"] = {{"x", 1}, {"y", 1}};
  engine::Run run;
  run.queries["q"] = ranking({"x", "x", "y"});
  const engine::QueryMetrics m = evaluate(qrels, run).perQuery.at("q");
  // AP = (1/1 + 2/3) / 2 = 0.8333333 (counting x twice would give 1.5, above 1).
  EXPECT_NEAR(m.ap, (1.0 + 2.0 / 3.0) / 2.0, kEps);
  // DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309298; nDCG = 0.9197208.
  EXPECT_NEAR(m.ndcg10, 1.5 / (1 + 1 / std::log2(3.0)), kEps);
  EXPECT_NEAR(m.recall100, 1.0, kEps);
  EXPECT_NEAR(m.rr10, 1.0, kEps);
}

// trec_eval ranks each query's hits by score, whatever the file's order and rank column: d1 (score
// 9) is rank 1 though written second with rank 1 after d9's rank 2. It was scored in file order.
TEST(EvaluatorTest, HitsAreRankedByScoreNotByTheirOrderInTheRun) {
  Qrels qrels;
  qrels.judgements["q"] = {{"d1", 1}};
  engine::Run run;
  run.queries["q"] = {RunHit{"d9", 1.0f}, RunHit{"d1", 9.0f}};
  const engine::QueryMetrics m = evaluate(qrels, run).perQuery.at("q");
  EXPECT_NEAR(m.ap, 1.0, kEps);
  EXPECT_NEAR(m.rr10, 1.0, kEps);
  EXPECT_NEAR(m.ndcg10, 1.0, kEps);
  // A repeated document counts at its best score: x (rank 1 by its score 20), then y.
  qrels.judgements["q"] = {{"x", 1}, {"y", 1}};
  run.queries["q"] = {RunHit{"x", 5.0f}, RunHit{"y", 10.0f}, RunHit{"x", 20.0f}};
  const engine::QueryMetrics repeated = evaluate(qrels, run).perQuery.at("q");
  EXPECT_NEAR(repeated.ap, 1.0, kEps);
  EXPECT_NEAR(repeated.rr10, 1.0, kEps);
}

// Equal scores: trec_eval's comp_sim_docno orders them by document id descending, compared as
// strcmp does (bytes): d9, d10, d1. The relevant d1, written first, is rank 3.
TEST(EvaluatorTest, EqualScoresAreRankedByDocumentIdDescendingAsTrecEvalDoes) {
  Qrels qrels;
  qrels.judgements["q"] = {{"d1", 1}};
  engine::Run run;
  run.queries["q"] = {RunHit{"d1", 5.0f}, RunHit{"d10", 5.0f}, RunHit{"d9", 5.0f}, RunHit{"d0", 4.0f}};
  const engine::QueryMetrics m = evaluate(qrels, run).perQuery.at("q");
  EXPECT_NEAR(m.rr10, 1.0 / 3.0, kEps);
  EXPECT_NEAR(m.ap, 1.0 / 3.0, kEps);
  // Bytes above 0x7F sort above ASCII, as unsigned char (strcmp), not as a signed char.
  qrels.judgements["q"] = {{"\xC3\xA9", 1}};
  run.queries["q"] = {RunHit{"z", 5.0f}, RunHit{"\xC3\xA9", 5.0f}};
  EXPECT_NEAR(evaluate(qrels, run).perQuery.at("q").rr10, 1.0, kEps);
}

// A score that is not finite cannot be ranked (and nan would break the sort): refused, naming
// the query and the document.
TEST(EvaluatorTest, NonFiniteScoresAreBadInput) {
  Qrels qrels;
  qrels.judgements["q"] = {{"a", 1}};
  for (const float bad : {std::nanf(""), HUGE_VALF, -HUGE_VALF}) {
    engine::Run run;
    run.queries["q"] = {RunHit{"a", 1.0f}, RunHit{"b", bad}};
    try {
      evaluate(qrels, run);
      ADD_FAILURE() << "no error for score " << bad;
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
      EXPECT_EQ(std::string(e.what()), "run: query q, document b: score is not finite");
    }
  }
}

TEST(EvaluatorTest, PerfectRankingScoresOne) {
  Qrels qrels;
  qrels.judgements["q"] = {{"a", 2}, {"b", 1}, {"z", 0}};
  engine::Run run;
  run.queries["q"] = ranking({"a", "b", "z", "u"});
  const engine::QueryMetrics m = evaluate(qrels, run).perQuery.at("q");
  EXPECT_NEAR(m.ndcg10, 1.0, kEps);
  EXPECT_NEAR(m.ap, 1.0, kEps);
  EXPECT_NEAR(m.recall100, 1.0, kEps);
  EXPECT_NEAR(m.rr10, 1.0, kEps);
}

TEST(EvaluatorTest, EmptyInputs) {
  const EvalResult r = evaluate(Qrels{}, engine::Run{});
  EXPECT_EQ(r.queriesEvaluated, 0u);
  EXPECT_EQ(r.queriesMissingInRun, 0u);
  EXPECT_EQ(r.mean.ndcg10, 0.0);
  EXPECT_EQ(r.mean.ap, 0.0);
}

}  // namespace
}  // namespace wandscope::test
