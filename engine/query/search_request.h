// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

enum class Operator { Or, And };

// Query evaluation paths, with the names the CLI, reports and the GUI use.
enum class Algorithm {
  Auto,         // "auto": the planner picks (docs/ALGORITHMS.md)
  Exhaustive,   // "exhaustive": DAAT over every posting (OR and AND); the reference
  Wand,         // "wand" (OR)
  Bmw,          // "bmw": Block-Max WAND (OR)
  MaxScore,     // "maxscore" (OR)
  Bmm,          // "bmm": Block-Max MaxScore (OR)
  BlockMaxAnd,  // "block-max-and" (AND)
  BulkAnd,      // "bulk-and": the windowed bulk conjunction (AND)
  Taat,         // "taat": term at a time over whole decoded lists, for sparse lists (OR)
};

Operator parseOperator(std::string_view name);    // "or" | "and"; throws Usage
const char* operatorName(Operator op) noexcept;
Algorithm parseAlgorithm(std::string_view name);  // throws Usage listing the names
const char* algorithmName(Algorithm algo) noexcept;
// Whether `algo` can evaluate `op` (Auto and Exhaustive apply to both).
bool algorithmSupports(Algorithm algo, Operator op) noexcept;
// The paths that evaluate `op`, for a refusal: "AND queries take auto, exhaustive, block-max-and, bulk-and".
std::string algorithmsFor(Operator op);
const std::vector<Algorithm>& allAlgorithms();

// Optimisation switches, all on by default; each can be turned off at run time to measure what it
// buys (the first seed's LANCE_FTS_BULK_AND=off rollback switch, generalised). Names as in
// `--opt name=on|off,...`.
struct SearchOptions {
  bool bulkAnd = true;      // "bulk_and": `auto` may route AND queries to the bulk conjunction
  bool freqPrune = true;    // "freq_prune": the bulk AND's 64-bucket frequency prune table
  bool candidatePrune = true;  // "candidate_prune": per-candidate exclusive partial-score limit
  bool lazyFreq = true;     // "lazy_freq": hand already-decoded frequencies to scoring
  bool windowJump = true;   // "window_jump": after an empty window jump to the lead's next doc
  bool sliceResume = true;  // "slice_resume": resume clause slices instead of binary search
  bool windowSkip = true;   // "window_skip": skip windows whose bound cannot beat the floor
  bool simdMerge = true;    // "simd_merge": the SIMD target's 2-/3-way merge kernels (generic scalar otherwise)
  bool longWindows = true;  // "long_windows": the bulk AND's windows of whole lead blocks (bulk_and_long_windows.h)
  bool bulkOr = true;       // "bulk_or": bmm runs window by window, term at a time (bulk_or.h)
  bool boundFirst = true;   // "bound_first": windowed bmm bounds documents by block maxima before scoring
  bool taat = true;         // "taat": `auto` may route OR queries over sparse lists to taat
  bool rankFloor = true;    // "rank_floor": OR pruning paths (and a one-term AND) start from the stored r-th weights (rank_floor.h)

  // Parses "a=off,b=on" (also "a" alone = on); unknown names (the error lists the valid ones), a
  // bad value, an empty item and a name given twice are Usage errors. "" changes nothing. Starts
  // from the current values. ASCII blanks around items, names and values are ignored. Returns the
  // switches it named, bit i for the i-th of forEach's order.
  std::uint32_t apply(std::string_view spec);
  // "freq_prune=on,candidate_prune=on,..." in a fixed order.
  std::string toString() const;
  // Only the switches that are off, "bulk_or=off, rank_floor=off" in the fixed order; "" with all on
  // (the explain line, the trace picture's title, the Switches button's tooltip).
  std::string switchesOff() const;
  // Every switch name, comma-separated, in the fixed order (for --help).
  static std::string names();
  // f(name, value) for every switch, in that fixed order (the one list of names: forEach, apply
  // and toString all go through it).
  template <typename F>
  void forEach(F&& f) const {
    visit(*this, f);
  }

 private:
  // f(name, field) with field a bool& or const bool& as `self` is.
  template <typename Self, typename F>
  static void visit(Self& self, F& f) {
    f("bulk_and", self.bulkAnd);
    f("freq_prune", self.freqPrune);
    f("candidate_prune", self.candidatePrune);
    f("lazy_freq", self.lazyFreq);
    f("window_jump", self.windowJump);
    f("slice_resume", self.sliceResume);
    f("window_skip", self.windowSkip);
    f("simd_merge", self.simdMerge);
    f("long_windows", self.longWindows);
    f("bulk_or", self.bulkOr);
    f("bound_first", self.boundFirst);
    f("taat", self.taat);
    f("rank_floor", self.rankFloor);
  }

 public:
  friend bool operator==(const SearchOptions&, const SearchOptions&) = default;
};

// Guards against queries that would exhaust memory or time.
inline constexpr std::size_t kMaxQueryTerms = 1024;
inline constexpr std::size_t kMaxK = 10'000'000;

class TraceRecorder;

struct SearchRequest {
  std::string text;
  Operator op = Operator::Or;
  std::size_t k = 10;
  Algorithm algorithm = Algorithm::Auto;
  SearchOptions options;
  bool explain = false;
  // false leaves SearchResult::reason empty: the paths that only time queries (benchmarks, load
  // targets) skip formatting it (engine/query/planner.h, planReason).
  bool describePlan = true;
  // true makes SearchResult::tieAtK exact on every path: a pruning path may dismiss a document
  // that ties the k-th score without evaluating it, so search() then runs it once more for k + 1
  // hits from just below that score (counted apart). Off for timed runs; the CLI's search and
  // run --counters, and the workbench (untimed), turn it on.
  bool exactTie = false;
  TraceRecorder* trace = nullptr;  // optional, owned by the caller
};

// Throws Error(Usage) for a request search() cannot take whatever the index: k over kMaxK, an
// algorithm that does not apply to the operator. search() calls it; commands call it first to
// refuse such a request before opening anything.
void checkRequest(const SearchRequest& request);

}  // namespace wandscope::engine
