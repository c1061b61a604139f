// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/planner.h"

#include "engine/core/wording.h"
#include "engine/query/algorithms/bulk_and_long_windows.h"
#include "engine/query/algorithms/taat_or.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace wandscope::engine {

namespace {
constexpr std::uint64_t kBlockPostings = 128;  // postings per block (docs/FORMAT.md)
// The planner never sends taat more terms than it evaluates itself (beyond, it runs maxscore).
static_assert(kTaatMaxPlannedTerms <= kTaatMaxTerms);
}  // namespace

double estimatedAndMatches(const ParsedQuery& query, std::uint64_t docCount) {
  if (docCount == 0) return 0.0;
  const double n = static_cast<double>(docCount);
  double matches = n;
  for (const auto& t : query.terms) {
    if (!t.id) return 0.0;
    matches *= std::min(1.0, static_cast<double>(t.df) / n);
  }
  return matches;
}

Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options,
               std::uint64_t docCount, std::size_t k) {
  Plan plan;
  plan.clauses = query.knownTerms();
  auto choose = [&plan](Algorithm algorithm, PlanRule rule) {
    plan.algorithm = algorithm;
    plan.rule = rule;
    return plan;
  };
  if (requested != Algorithm::Auto) return choose(requested, PlanRule::Forced);
  // One list: AND and OR are the same query, and the bulk AND's windows over a single list skip
  // every block whose maximum cannot beat the floor (docs/ALGORITHMS.md, "The planner").
  if (plan.clauses == 0) return choose(Algorithm::Exhaustive, PlanRule::NoTerms);
  // AND with a term no document holds matches nothing, whatever the other terms are.
  if (op == Operator::And && query.hasUnknownTerm()) return choose(Algorithm::Exhaustive, PlanRule::AndUnknownTerm);
  if (plan.clauses <= 1 && options.bulkAnd) return choose(Algorithm::BulkAnd, PlanRule::OneTerm);
  if (op == Operator::Or) {
    if (options.taat && docCount > 0 && plan.clauses >= 2 && plan.clauses <= kTaatMaxPlannedTerms) {
      // Every list sparse: the document-at-a-time paths would score almost every posting, each
      // score waiting on a length-normaliser cache miss; taat scores few blocks beyond the
      // documents the lists share.
      std::uint64_t longest = 0;
      for (const auto& t : query.terms) {
        if (t.id) longest = std::max(longest, t.df);
      }
      plan.maxDensity = static_cast<double>(longest) / static_cast<double>(docCount);
      if (plan.maxDensity < kTaatMaxListDensity) return choose(Algorithm::Taat, PlanRule::OrTaat);
    }
    if (plan.clauses > 3) return choose(Algorithm::MaxScore, PlanRule::OrMany);
    if (options.bulkOr && docCount > 0 && plan.clauses >= 2) {
      // The windowed bmm pays per window; with sparse essential lists (the longest list is the
      // one that turns non-essential first) a window holds too few postings to repay it.
      std::uint64_t sum = 0;
      std::uint64_t longest = 0;
      for (const auto& t : query.terms) {
        if (!t.id) continue;
        sum += t.df;
        longest = std::max(longest, t.df);
      }
      plan.windowPostings =
          static_cast<double>(sum - longest) * kOrSparseRuleWindowDocs / static_cast<double>(docCount);
      if (plan.windowPostings < kBulkOrMinWindowPostings) return choose(Algorithm::MaxScore, PlanRule::OrSparse);
      plan.postingsPerDoc = static_cast<double>(sum) / static_cast<double>(docCount);
      if (plan.clauses == 2 && plan.postingsPerDoc > kDenseTwoTermPostingsPerDoc) {
        plan.windowed = false;
        return choose(Algorithm::Bmm, PlanRule::OrDenseTwo);
      }
    }
    return choose(Algorithm::Bmm, PlanRule::OrFew);
  }
  // AND (docs/ALGORITHMS.md, "The planner"). The bulk AND's long windows were no slower than the
  // leapfrog on any measured shape (2-5 clauses, rare to common lists, k = 10): they take every
  // AND they can.
  if (options.bulkAnd && options.longWindows && plan.clauses <= kMaxLongWindowClauses) {
    return choose(Algorithm::BulkAnd, PlanRule::AndLongWindows);
  }
  if (plan.clauses <= kMaxLongWindowClauses) plan.longWindowsOff = options.bulkAnd ? "long_windows=off" : "bulk_and=off";
  // With the first seed's windows (long_windows=off). Four or more clauses: a window ends at the
  // nearest block end across them, so windows are short and the leapfrog wins (sequential-5).
  if (plan.clauses > kBulkAndMaxClauses) return choose(Algorithm::Exhaustive, PlanRule::AndManyClauses);
  // Pruning pays only when far more documents match than k; otherwise the oracle's leapfrog over
  // the skip tables is cheaper than any window bookkeeping.
  plan.matches = estimatedAndMatches(query, docCount);
  plan.enough = static_cast<double>(kPruneMatchesPerK) * static_cast<double>(std::max<std::size_t>(k, 1));
  if (plan.matches < plan.enough) return choose(Algorithm::Exhaustive, PlanRule::AndFewMatches);
  // The densest list sets the number of windows (about maxDf / 128); when that exceeds the rarest
  // list's length the leapfrog, which seeks once per rare posting, does less work.
  plan.minDf = UINT64_MAX;
  for (const auto& t : query.terms) {
    plan.minDf = std::min(plan.minDf, t.df);
    plan.maxDf = std::max(plan.maxDf, t.df);
  }
  if (plan.maxDf / kBlockPostings > plan.minDf) return choose(Algorithm::Exhaustive, PlanRule::AndSkewed);
  return options.bulkAnd ? choose(Algorithm::BulkAnd, PlanRule::AndBulk)
                         : choose(Algorithm::BlockMaxAnd, PlanRule::AndBlockMax);
}

namespace {
std::string knownTerms(std::size_t n) { return counted(n, "known term", "known terms"); }
}  // namespace

std::string planReason(const Plan& p) {
  switch (p.rule) {
    case PlanRule::Forced:
      return "forced";
    case PlanRule::NoTerms:
      return "auto: no known term, nothing to evaluate";
    case PlanRule::AndUnknownTerm:
      return "auto: an AND term is not in the index, nothing can match";
    case PlanRule::OneTerm:
      return "auto: one known term -> bulk-and (block-max top-k over one list)";
    case PlanRule::OrFew:
      return fmt::format("auto: OR with {} -> bmm", knownTerms(p.clauses));
    case PlanRule::OrTaat:
      return fmt::format("auto: OR with {}, longest list {:.2f} % of the documents < {:.0f} % -> taat",
                         knownTerms(p.clauses), 100.0 * p.maxDensity, 100.0 * kTaatMaxListDensity);
    case PlanRule::OrSparse:
      return fmt::format("auto: OR with {}, ~{:.0f} postings per 4096-doc window in all but the longest list "
                         "< {:.0f} -> maxscore",
                         knownTerms(p.clauses), p.windowPostings, kBulkOrMinWindowPostings);
    case PlanRule::OrDenseTwo:
      return fmt::format("auto: OR with 2 known terms holding {:.2f} postings per document together > {:.2f} "
                         "-> bmm, document at a time",
                         p.postingsPerDoc, kDenseTwoTermPostingsPerDoc);
    case PlanRule::OrMany:
      return fmt::format("auto: OR with {} -> maxscore", knownTerms(p.clauses));
    case PlanRule::AndLongWindows:
      return fmt::format("auto: AND with {} clauses -> bulk-and (long windows)", p.clauses);
    case PlanRule::AndManyClauses:
      // More clauses than the seed's windows take, and the long windows could not take them either:
      // beyond their limit, or switched off.
      if (p.longWindowsOff == nullptr) {
        return fmt::format("auto: AND with {} clauses > {} (the long windows' limit) and > {} (the seed's windows') "
                           "-> exhaustive",
                           p.clauses, kMaxLongWindowClauses, kBulkAndMaxClauses);
      }
      return fmt::format("auto: AND with {} clauses > {} (the seed's windows; {}) -> exhaustive", p.clauses,
                         kBulkAndMaxClauses, p.longWindowsOff);
    case PlanRule::AndFewMatches:
      return fmt::format("auto: AND with ~{:.0f} expected matches < {:.0f} (k x {}) -> exhaustive", p.matches, p.enough,
                         kPruneMatchesPerK);
    case PlanRule::AndSkewed:
      return fmt::format("auto: AND with skewed lists (max df {} / 128 > min df {}) -> exhaustive", p.maxDf, p.minDf);
    case PlanRule::AndBulk:
      return fmt::format("auto: AND with {} clauses and ~{:.0f} expected matches -> bulk-and", p.clauses, p.matches);
    case PlanRule::AndBlockMax:
      return fmt::format("auto: AND with {} clauses and ~{:.0f} expected matches, bulk_and=off -> block-max-and",
                         p.clauses, p.matches);
  }
  return "unknown";
}

}  // namespace wandscope::engine
