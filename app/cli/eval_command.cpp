// SPDX-License-Identifier: GPL-3.0-or-later
// `eval`: effectiveness of a run against relevance judgements, as trec_eval computes it.
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/corpus/evaluator.h"
#include "engine/corpus/qrels.h"
#include "engine/corpus/run_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace wandscope::app {

void addEvalCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "nDCG@10, Recall@100, MAP and MRR@10 of a run (trec_eval definitions)");
  struct Args {
    std::string qrels, run;
    int level = 1;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--qrels", a->qrels, "judgements: BEIR TSV or TREC qrels")->required();
  cmd->add_option("--run", a->run, "run: TREC run file or a `run --format dump` file")->required();
  cmd->add_option("--level", a->level, "minimum grade that counts as relevant (trec_eval -l)")->capture_default_str();
  cmd->add_flag("--json", a->json, "print JSON");
  setAction(cmd, [a] {
    const auto qrels = engine::readQrels(a->qrels);
    // Judgements with nothing relevant evaluate no query: every measure would read 0 as if the
    // run had found nothing, so the file is refused, as an empty query file is.
    int highestGrade = 0;
    for (const auto& [query, judged] : qrels.judgements) {
      for (const auto& [doc, grade] : judged) highestGrade = std::max(highestGrade, grade);
    }
    if (highestGrade <= 0) engine::throwBadInput(a->qrels + ": holds no relevant judgement (relevance > 0)");
    if (a->level > highestGrade) {
      engine::throwUsage(fmt::format("--level {} leaves no query to evaluate: the highest grade in {} is {}", a->level,
                                     a->qrels, highestGrade));
    }
    // Hits are ranked by score (trec_eval): a score that is not finite cannot be, and is refused
    // naming its line.
    const auto run = engine::readRun(a->run, engine::NonFiniteScores::Refuse);
    const auto r = engine::evaluate(qrels, run, a->level);
    if (a->json) {
      printJson({{"queries", r.queriesEvaluated},
                 {"queries_missing_in_run", r.queriesMissingInRun},
                 {"ndcg_cut_10", r.mean.ndcg10},
                 {"recall_100", r.mean.recall100},
                 {"map", r.mean.ap},
                 {"recip_rank_10", r.mean.rr10}});
      return 0;
    }
    std::cout << fmt::format(
        "queries        {} (with relevant judgements; {} missing from the run count 0)\n"
        "nDCG@10        {:.4f}\nRecall@100     {:.4f}\nMAP            {:.4f}\nMRR@10         {:.4f}\n",
        r.queriesEvaluated, r.queriesMissingInRun, r.mean.ndcg10, r.mean.recall100, r.mean.ap, r.mean.rr10);
    return 0;
  });
}

}  // namespace wandscope::app
