// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/searcher.h"

#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/query/algorithms/block_max_and.h"
#include "engine/query/algorithms/block_max_maxscore.h"
#include "engine/query/algorithms/block_max_wand.h"
#include "engine/query/algorithms/bulk_and.h"
#include "engine/query/algorithms/bulk_or.h"
#include "engine/query/algorithms/exhaustive.h"
#include "engine/query/algorithms/maxscore.h"
#include "engine/query/algorithms/taat_or.h"
#include "engine/query/algorithms/wand.h"
#include "engine/query/planner.h"
#include "engine/query/posting_cursor.h"
#include "engine/query/query_context.h"
#include "engine/query/rank_floor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace wandscope::engine {
namespace {

Analyzer& threadAnalyzer(AnalyzerKind kind) {
  thread_local std::optional<Analyzer> plain;
  thread_local std::optional<Analyzer> english;
  auto& slot = kind == AnalyzerKind::Plain ? plain : english;
  if (!slot) slot.emplace(kind);
  return *slot;
}

// Requests the first cache lines every path reads of the query's lists: each list's skip table,
// block maxima and rank weights, then its first block's doc ids. A short query's lists are cold,
// and the cursors, the rank floor and the paths would otherwise meet these misses one at a time;
// requested together they overlap.
void prefetchLists(const Index& index, const ParsedQuery& query) {
  for (const auto& t : query.terms) {
    if (!t.id) continue;
    for (const TermPart& part : index.parts(*t.id)) {
      const PostingList list = index.postingList(part);
      __builtin_prefetch(list.skips.data());
      __builtin_prefetch(list.blockMaxWeight.data());
      __builtin_prefetch(list.rankWeights.data());
    }
  }
  // The lists' entries are cached now; their first skip entries are on their way.
  for (const auto& t : query.terms) {
    if (!t.id) continue;
    for (const TermPart& part : index.parts(*t.id)) {
      const PostingList list = index.postingList(part);
      if (!list.skips.empty()) __builtin_prefetch(list.base + list.skips[0].dataOffset);
    }
  }
}

// One cursor per known query term, in query order, counting into `counters`.
std::vector<PostingCursor> makeCursors(const Index& index, const ParsedQuery& query, QueryCounters& counters) {
  std::vector<PostingCursor> cursors;
  cursors.reserve(query.terms.size());
  for (const auto& t : query.terms) {
    if (t.id) cursors.emplace_back(index, *t.id, counters);
  }
  return cursors;
}

// Runs the path `run` over ctx's cursors (the switch statement every evaluation goes through).
void evaluate(QueryContext& ctx, Algorithm run, Operator op, bool windowedBmm) {
  switch (run) {
    case Algorithm::Auto:
    case Algorithm::Exhaustive:
      if (op == Operator::Or) {
        exhaustiveOr(ctx);
      } else {
        exhaustiveAnd(ctx);
      }
      break;
    case Algorithm::Wand:
      wand(ctx);
      break;
    case Algorithm::Bmw:
      blockMaxWand(ctx);
      break;
    case Algorithm::MaxScore:
      maxScore(ctx);
      break;
    case Algorithm::Bmm:
      if (windowedBmm) {
        bulkOr(ctx);
      } else {
        blockMaxMaxScore(ctx);
      }
      break;
    case Algorithm::BlockMaxAnd:
      blockMaxAnd(ctx);
      break;
    case Algorithm::BulkAnd:
      bulkAnd(ctx);
      break;
    case Algorithm::Taat:
      taatOr(ctx);
      break;
  }
}

// Whether some document outside the top k scores exactly the k-th score S, for a path that may
// have dismissed such a document unevaluated (a bound equal to the floor). The same path runs
// again for k + 1 hits from a floor just below S: it finds every document scoring at least S, so
// a (k+1)-th hit exists exactly when one ties S (the true (k+1)-th scores at most S). Its work is
// counted apart, not in the query's counters.
bool tieByRerun(const Index& index, const ParsedQuery& query, Operator op, Algorithm run, bool windowedBmm,
                const SearchOptions& options, std::size_t k, Score kth) {
  QueryCounters scratch;
  TopKCollector check(k + 1, &scratch);
  check.presetFloor(std::nextafter(kth, -std::numeric_limits<Score>::infinity()));
  std::vector<PostingCursor> cursors = makeCursors(index, query, scratch);
  if (cursors.empty()) return false;
  QueryContext ctx{cursors, check, scratch, options, nullptr};
  evaluate(ctx, run, op, windowedBmm);
  const auto hits = check.finish();
  return hits.size() == k + 1 && hits.back().score == kth;
}

}  // namespace

SearchResult search(const Index& index, const SearchRequest& request) {
  checkRequest(request);
  SearchResult result;
  result.query = parseQuery(index, request.text, threadAnalyzer(index.analyzerKind()));
  const ParsedQuery& query = result.query;

  const Plan plan = planQuery(query, request.op, request.algorithm, request.options, index.docCount(), request.k);
  result.algorithm = plan.algorithm;
  if (request.describePlan) result.reason = planReason(plan);

  // Never reserve more than the documents that exist, whatever k says.
  const std::size_t k = std::min<std::size_t>(request.k, index.docCount());
  TopKCollector topk(k, &result.counters);
  const bool impossible = request.op == Operator::And && query.hasUnknownTerm();
  std::vector<PostingCursor> cursors;
  if (!impossible && k > 0) {
    prefetchLists(index, query);
    cursors = makeCursors(index, query, result.counters);
  } else if (impossible && request.describePlan && plan.rule == PlanRule::Forced) {
    result.reason += "; an AND term is not in the index, nothing can match";
  }
  if (request.describePlan && !impossible && plan.rule != PlanRule::NoTerms) {
    // Nothing runs: say so, whatever the plan named.
    if (query.knownTerms() == 0) {
      result.reason += "; no known term, nothing to evaluate";
    } else if (k == 0) {  // (a known term means the index holds documents: k was 0)
      result.reason += "; k = 0, nothing to evaluate";
    }
  }
  // A forced taat over too many or too long lists runs maxscore (taat_or.h): name that path.
  Algorithm run = plan.algorithm;
  if (run == Algorithm::Taat && !cursors.empty() && !taatEvaluates(cursors)) {
    run = Algorithm::MaxScore;
    result.algorithm = run;
    if (request.describePlan) {
      std::uint64_t postings = 0;
      for (const auto& c : cursors) postings += c.df();
      result.reason += cursors.size() > kTaatMaxTerms
                           ? fmt::format("; taat evaluates at most {} terms, the query has {} known terms -> maxscore", kTaatMaxTerms,
                                         cursors.size())
                           : fmt::format("; taat evaluates at most {} postings, the lists hold {} -> maxscore",
                                         kTaatMaxPostings, postings);
    }
  }
  if (run == Algorithm::Bmm && request.options.bulkOr && plan.windowed && cursors.size() > kBulkOrMaxTerms &&
      request.describePlan) {
    result.reason += fmt::format("; the windowed bmm takes at most {} terms -> bmm document at a time", kBulkOrMaxTerms);
  }
  QueryContext ctx{cursors, topk, result.counters, request.options, request.trace};
  if (request.trace != nullptr) {
    std::vector<const PostingCursor*> byTerm;
    std::vector<std::string> texts;
    std::size_t next = 0;
    for (const auto& t : query.terms) {
      texts.push_back(t.text);
      byTerm.push_back(t.id && next < cursors.size() ? &cursors[next++] : nullptr);
    }
    request.trace->algorithm = algorithmName(run);
    request.trace->begin(std::move(byTerm), std::move(texts));
    request.trace->record({TraceEventKind::QueryStart, TraceReason::None, -1, 0, 0, static_cast<float>(k), 0,
                           topk.floor()});
  }
  // The OR pruning paths start from the rank floor (the oracle never does), and so does an AND of
  // one known term, which is the OR of it (an AND with an unknown term has no cursors).
  const bool floorApplies = request.op == Operator::Or || cursors.size() == 1;
  if (floorApplies && request.options.rankFloor && !cursors.empty() &&
      run != Algorithm::Exhaustive && run != Algorithm::Auto) {
    if (const auto floor = rankFloor(index, query, k)) {
      // Strictly below: a document scoring exactly the floor may still hold the k-th place.
      const Score before = topk.floor();
      topk.presetFloor(std::nextafter(floor->score, -std::numeric_limits<Score>::infinity()));
      if (request.trace != nullptr) {
        // A preset names its term, and carries F as the score and r in docEnd (the narrative says so).
        // The recorder takes a cursor index (TraceEvent::term): the known terms before this one.
        const auto cursor = std::count_if(query.terms.begin(), query.terms.begin() + static_cast<std::ptrdiff_t>(floor->term),
                                          [](const QueryTerm& t) { return t.id.has_value(); });
        request.trace->record({TraceEventKind::ThresholdRaised, TraceReason::None, static_cast<std::int32_t>(cursor),
                               0, floor->rank, floor->score, before, topk.floor()});
      }
      if (request.describePlan) {
        // The figure as Explore and `search --explain` print scores (never "5.3453594e-05").
        result.reason += fmt::format("; floor preset below {} ('{}' has {} scoring at least that)",
                                     exactFigure(floor->score), query.terms[floor->term].text,
                                     counted(floor->rank, "document", "documents"));
      }
    }
  }
  if (!cursors.empty()) evaluate(ctx, run, request.op, request.options.bulkOr && plan.windowed);
  if (request.trace != nullptr) {
    request.trace->record({TraceEventKind::QueryEnd, TraceReason::None, -1, 0, 0, 0, 0, topk.floor()});
  }
  result.hits = topk.finish();
  result.kthScore = topk.kthScore();
  result.tieAtK = topk.tieAtK();
  if (request.exactTie) result.tieAtK = exactTieAtK(index, request, result);
  if (ctx.mergeKernels != nullptr) result.mergeKernels = ctx.mergeKernels;
  if (request.explain) result.explain = explainHits(index, query, result.hits);
  return result;
}

bool exactTieAtK(const Index& index, const SearchRequest& request, const SearchResult& result) {
  // The oracle and taat evaluate every document that can reach the floor (taat's block test is
  // inclusive), so what they saw is exact; the other paths dismiss bounds equal to the floor.
  const Algorithm run = result.algorithm;
  const bool observedIsExact = run == Algorithm::Exhaustive || run == Algorithm::Auto || run == Algorithm::Taat;
  const std::size_t k = std::min<std::size_t>(request.k, index.docCount());
  if (result.tieAtK || observedIsExact || k == 0 || result.hits.size() != k) return result.tieAtK;
  const Plan plan = planQuery(result.query, request.op, request.algorithm, request.options, index.docCount(), request.k);
  return tieByRerun(index, result.query, request.op, run, request.options.bulkOr && plan.windowed, request.options, k,
                    result.kthScore);
}

std::vector<HitExplain> explainHits(const Index& index, const ParsedQuery& query,
                                    const std::vector<Hit>& hits) {
  std::vector<HitExplain> out;
  QueryCounters scratch;
  for (const Hit& hit : hits) {
    HitExplain e;
    e.doc = hit.doc;
    e.docLength = index.docLength(hit.doc);
    for (const auto& t : query.terms) {
      std::uint32_t tf = 0;
      Score contribution = 0.0f;
      if (t.id) {
        PostingCursor cursor(index, *t.id, scratch);
        cursor.nextGeq(hit.doc);
        if (cursor.docId() == hit.doc) {
          tf = cursor.freq();
          contribution = cursor.score();
          e.score += contribution;
        }
      }
      e.tf.push_back(tf);
      e.contribution.push_back(contribution);
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace wandscope::engine
