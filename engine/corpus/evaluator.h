// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/qrels.h"
#include "engine/corpus/run_file.h"

#include <map>
#include <string>

namespace wandscope::engine {

// Effectiveness measures as trec_eval defines them (docs/QUALITY.md states each):
//  - ndcg_cut_10: gain = grade (grade > 0), discount log2(rank + 1), ideal DCG over all judged
//    relevant documents of the query, cut at 10.
//  - recall_100: relevant retrieved in the top 100 / relevant judged.
//  - map: mean over relevant documents of precision at their rank (unretrieved count as 0).
//  - recip_rank cut at 10 (MRR@10): 1 / rank of the first relevant document in the top 10, else 0.
// "Relevant" means grade >= relevanceLevel (trec_eval -l, default 1) for recall, map and
// recip_rank; nDCG always uses the graded gains (every grade > 0), whatever relevanceLevel is.
// Averages are over queries with at least one relevant judgement; such queries missing from the
// run count as 0 (and are counted in queriesMissingInRun). Unjudged documents are non-relevant.
// Each query's hits are ranked as trec_eval ranks them: by score descending, equal scores by
// document id descending (byte order, as strcmp; "d9" before "d10" before "d1"). The order of the
// hits in the run and their rank column are ignored. Scores are compared as read (f32): two
// scores of an external run that an f32 cannot tell apart tie here, where trec_eval (double)
// may still order them. A score that is not finite cannot be ranked: Error(BadInput) naming the
// query and document (readRun(path, NonFiniteScores::Refuse) names the file line first).
// A document repeated within one query's hits counts only at its best rank: later copies keep
// their rank slot but earn nothing (trec_eval rejects such runs; we evaluate them conservatively
// instead).
struct QueryMetrics {
  double ndcg10 = 0;
  double recall100 = 0;
  double ap = 0;
  double rr10 = 0;
};

struct EvalResult {
  std::map<std::string, QueryMetrics> perQuery;
  QueryMetrics mean;
  std::size_t queriesEvaluated = 0;   // queries with relevant judgements
  std::size_t queriesMissingInRun = 0;
};

EvalResult evaluate(const Qrels& qrels, const Run& run, int relevanceLevel = 1);

}  // namespace wandscope::engine
