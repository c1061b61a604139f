// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/parsed_query.h"
#include "engine/query/search_request.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace wandscope::engine {

// Which rule of docs/ALGORITHMS.md chose the path, with the numbers it looked at. The words are
// made by planReason() only when someone reads them: formatting costs about as much as a rare
// query's whole evaluation (~0.5-1 us against 10 us), so the benchmark paths never ask.
enum class PlanRule {
  Forced,          // --algo named the path
  NoTerms,         // no known term: nothing to evaluate (reported as exhaustive)
  AndUnknownTerm,  // AND with a term the index does not hold: nothing matches (reported as exhaustive)
  OneTerm,         // one known term: bulk-and over one list
  OrFew,           // OR with <= 3 known terms: bmm
  OrTaat,          // OR with 2-8 known terms whose lists are all sparse (taat=on): taat
  OrSparse,        // OR with <= 3 known terms whose shorter lists are sparse (bulk_or=on): maxscore
  OrDenseTwo,      // OR with 2 known terms whose lists are dense together (bulk_or=on): bmm, not windowed
  OrMany,          // OR with more: maxscore
  AndLongWindows,  // AND with 2 to kMaxLongWindowClauses known terms (bulk_and, long_windows): bulk-and
  AndManyClauses,  // AND with more than kBulkAndMaxClauses known terms: exhaustive
  AndFewMatches,   // AND expecting < kPruneMatchesPerK x k matches: exhaustive
  AndSkewed,       // AND with max df / 128 > min df: exhaustive
  AndBulk,         // AND: bulk-and
  AndBlockMax,     // AND with bulk_and=off: block-max-and
};

struct Plan {
  Algorithm algorithm = Algorithm::Exhaustive;
  PlanRule rule = PlanRule::Forced;
  std::size_t clauses = 0;   // known terms
  double matches = 0;        // AND: estimatedAndMatches
  double enough = 0;         // AND: kPruneMatchesPerK x k
  std::uint64_t minDf = 0;   // AND: shortest and longest list
  std::uint64_t maxDf = 0;
  double windowPostings = 0;  // OR: postings per 4096-document window of all lists but the longest
  double postingsPerDoc = 0;  // OR: the known lists' postings together / N
  bool windowed = true;       // OR bmm: the windowed form when bulk_or is on (false: OrDenseTwo)
  double maxDensity = 0;      // OR: the longest known list's df / N
  // AND: the switch that kept the long windows from a query they could take ("bulk_and=off",
  // "long_windows=off"), or null.
  const char* longWindowsOff = nullptr;
};

// The plan in words ("auto: AND with ~812 expected matches < 160 (k x 16) -> exhaustive").
std::string planReason(const Plan& plan);

// An AND query prunes only when at least this many documents per result slot are expected to
// match (measured on the seed query sets, docs/ALGORITHMS.md).
inline constexpr std::size_t kPruneMatchesPerK = 16;
// The bulk AND is chosen for at most this many known terms.
inline constexpr std::size_t kBulkAndMaxClauses = 3;
// OR with 2-3 terms: below this many postings per 4096-document window in the lists that are
// likely essential (all but the longest), the windowed bmm's per-window work outweighs what it
// saves and `maxscore` runs instead (docs/ALGORITHMS.md, "The planner").
inline constexpr double kBulkOrMinWindowPostings = 16.0;
// ... counted per window of this many documents: the windowed bmm's window length when the rule
// was measured (bmm's windows have since grown to kBulkOrWindowDocs; the rule's decisions were
// kept as measured).
inline constexpr double kOrSparseRuleWindowDocs = 4096.0;
// OR with 2 known terms whose lists hold more than this many postings per document together: the
// document-at-a-time bmm, which skips blocks of the long lists that the windowed one reads term at
// a time (sequential-2's 48 such queries ran 1.64x faster; docs/ALGORITHMS.md, "The planner").
inline constexpr double kDenseTwoTermPostingsPerDoc = 0.25;
// OR with 2 to kTaatMaxPlannedTerms known terms, none of whose lists holds kTaatMaxListDensity of
// the documents or more: `taat` runs (docs/ALGORITHMS.md, "The planner": it won in every measured
// df band below 1 % with 2, 3, 5 and 8 terms, and lost with 3 terms between 1 and 1.5 %).
inline constexpr double kTaatMaxListDensity = 0.01;
inline constexpr std::size_t kTaatMaxPlannedTerms = 8;

// Documents expected to contain every term if terms were placed independently: N * prod(df/N).
// 0 when a term is unknown.
double estimatedAndMatches(const ParsedQuery& query, std::uint64_t docCount);

// Chooses the evaluation path for a request: a forced --algo is kept (it must apply to the
// operator); `auto` follows the rule in docs/ALGORITHMS.md, which is justified by measurements.
Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options,
               std::uint64_t docCount, std::size_t k);

}  // namespace wandscope::engine
