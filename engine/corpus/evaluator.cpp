// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/evaluator.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_set>
#include <vector>

namespace wandscope::engine {

namespace {

constexpr std::size_t kNdcgCut = 10;
constexpr std::size_t kRecallCut = 100;
constexpr std::size_t kRecipRankCut = 10;

// Rank r (1-based) is discounted by log2(r + 1); `index` is r - 1.
double discount(std::size_t index) { return std::log2(static_cast<double>(index) + 2.0); }

// trec_eval's ranking (form_res_rels.c, comp_sim_docno): score descending, then document id
// descending in strcmp order. The run's own rank column is not trusted: a run is a set of scored
// documents, and runs merged or written by other tools are often out of order.
std::vector<const RunHit*> rankedByScore(const std::string& queryId, const std::vector<RunHit>& hits) {
  std::vector<const RunHit*> ranked;
  ranked.reserve(hits.size());
  for (const RunHit& hit : hits) {
    if (!std::isfinite(hit.score)) {
      throwBadInput("run: query " + queryId + ", document " + hit.docId + ": score is not finite");
    }
    ranked.push_back(&hit);
  }
  // std::string compares bytes as unsigned char, as strcmp does. Stable, so that copies of one
  // document keep their order (they are equal in both keys).
  std::stable_sort(ranked.begin(), ranked.end(), [](const RunHit* a, const RunHit* b) {
    if (a->score != b->score) return a->score > b->score;
    return a->docId > b->docId;
  });
  return ranked;
}

QueryMetrics evaluateQuery(const std::map<std::string, int>& judged,
                           const std::vector<const RunHit*>& hits, int relevanceLevel,
                           std::size_t relevantJudged) {
  QueryMetrics m;

  // Ideal DCG: every judged document with a positive grade, best first, cut at 10.
  std::vector<int> gains;
  for (const auto& [doc, grade] : judged) {
    if (grade > 0) gains.push_back(grade);
  }
  std::sort(gains.begin(), gains.end(), std::greater<>());
  double idealDcg = 0;
  for (std::size_t i = 0; i < gains.size() && i < kNdcgCut; ++i) {
    idealDcg += static_cast<double>(gains[i]) / discount(i);
  }

  double dcg = 0;
  double precisionSum = 0;
  std::size_t relevantSeen = 0;
  std::size_t relevantInTop100 = 0;
  std::unordered_set<std::string_view> seen;
  seen.reserve(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    // A document repeated within the ranking keeps its rank slot but counts as non-relevant
    // (trec_eval refuses such runs; crediting it twice would inflate every measure).
    if (!seen.insert(hits[i]->docId).second) continue;
    const auto it = judged.find(hits[i]->docId);
    const int grade = it == judged.end() ? 0 : it->second;
    if (i < kNdcgCut && grade > 0) dcg += static_cast<double>(grade) / discount(i);
    if (it == judged.end() || grade < relevanceLevel) continue;
    ++relevantSeen;
    precisionSum += static_cast<double>(relevantSeen) / static_cast<double>(i + 1);
    if (i < kRecallCut) ++relevantInTop100;
    if (i < kRecipRankCut && relevantSeen == 1) m.rr10 = 1.0 / static_cast<double>(i + 1);
  }
  m.ndcg10 = idealDcg > 0 ? dcg / idealDcg : 0.0;
  const auto relevant = static_cast<double>(relevantJudged);
  m.recall100 = static_cast<double>(relevantInTop100) / relevant;
  m.ap = precisionSum / relevant;
  return m;
}

}  // namespace

EvalResult evaluate(const Qrels& qrels, const Run& run, int relevanceLevel) {
  EvalResult result;
  for (const auto& [queryId, judged] : qrels.judgements) {
    const auto relevantJudged = static_cast<std::size_t>(std::count_if(
        judged.begin(), judged.end(), [&](const auto& j) { return j.second >= relevanceLevel; }));
    if (relevantJudged == 0) continue;  // trec_eval: nothing to find, the query is not evaluated
    ++result.queriesEvaluated;
    QueryMetrics metrics;
    const auto hits = run.queries.find(queryId);
    if (hits == run.queries.end()) {
      ++result.queriesMissingInRun;
    } else {
      metrics = evaluateQuery(judged, rankedByScore(queryId, hits->second), relevanceLevel, relevantJudged);
    }
    result.perQuery.emplace(queryId, metrics);
    result.mean.ndcg10 += metrics.ndcg10;
    result.mean.recall100 += metrics.recall100;
    result.mean.ap += metrics.ap;
    result.mean.rr10 += metrics.rr10;
  }
  if (result.queriesEvaluated > 0) {
    const auto n = static_cast<double>(result.queriesEvaluated);
    result.mean.ndcg10 /= n;
    result.mean.recall100 /= n;
    result.mean.ap /= n;
    result.mean.rr10 /= n;
  }
  return result;
}

}  // namespace wandscope::engine
