// SPDX-License-Identifier: GPL-3.0-or-later
// Every evaluation path and every combination of optimisation switches returns exactly the
// oracle's top-k: the same doc ids in the same order with the same f32 score bits, and (with
// exactTie) the oracle's answer to whether the k-th score ties the (k+1)-th. Randomised corpora
// with skewed lengths, heavy ties (duplicate documents), tiny and huge document frequencies;
// repeated and unknown terms. Every path with default switches: 1-6 clauses, k in {1, 3, 10, 100,
// 1000}, rank_floor on and off. The 1024 combinations of the ten switches that change how a path
// evaluates (rank_floor alternating with them, bulk_and and taat on: they only steer `auto`):
// 1-5 clauses, k in {3, 10, 100}. Each switch alone off: 1-6 clauses, k in {1, 1000}.
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/support/oracle_corpus.h"
#include "tests/support/same_counters.h"
#include "tests/support/same_hits.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <random>

namespace wandscope::test {
namespace {

using engine::Algorithm;
using engine::Hit;
using engine::Operator;

using ParityCorpus = CorpusCase;

// All switch combinations of SearchOptions (2^10; bulk_and and taat only steer `auto` and stay
// on), each with rank_floor on and off alternately (on where the mask has an even number of bits
// set): every switch meets both rank_floor values without doubling the 1024 runs.
std::vector<engine::SearchOptions> allOptionCombinations() {
  std::vector<engine::SearchOptions> out;
  for (unsigned mask = 0; mask < 1024; ++mask) {
    engine::SearchOptions o;
    o.freqPrune = (mask & 1) != 0;
    o.candidatePrune = (mask & 2) != 0;
    o.lazyFreq = (mask & 4) != 0;
    o.windowJump = (mask & 8) != 0;
    o.sliceResume = (mask & 16) != 0;
    o.windowSkip = (mask & 32) != 0;
    o.simdMerge = (mask & 64) != 0;
    o.bulkOr = (mask & 128) != 0;
    o.boundFirst = (mask & 256) != 0;
    o.longWindows = (mask & 512) != 0;
    o.rankFloor = std::popcount(mask) % 2 == 0;
    out.push_back(o);
  }
  return out;
}

class Parity : public ::testing::TestWithParam<ParityCorpus> {};

const std::vector<std::pair<Algorithm, Operator>> kAllPaths = {
    {Algorithm::Exhaustive, Operator::Or}, {Algorithm::Wand, Operator::Or},
    {Algorithm::Bmw, Operator::Or},        {Algorithm::MaxScore, Operator::Or},
    {Algorithm::Bmm, Operator::Or},        {Algorithm::Taat, Operator::Or},
    {Algorithm::Auto, Operator::Or},
    {Algorithm::Exhaustive, Operator::And}, {Algorithm::BlockMaxAnd, Operator::And},
    {Algorithm::BulkAnd, Operator::And},   {Algorithm::Auto, Operator::And},
};

// WANDSCOPE_PARITY_PATHS=bulk-and,bmw restricts the paths (for debugging one of them).
const std::vector<std::pair<Algorithm, Operator>> kParityPaths = [] {
  const char* only = std::getenv("WANDSCOPE_PARITY_PATHS");
  if (only == nullptr || *only == '\0') return kAllPaths;
  const std::string list = std::string(",") + only + ",";
  std::vector<std::pair<Algorithm, Operator>> out;
  for (const auto& p : kAllPaths) {
    if (list.find(std::string(",") + engine::algorithmName(p.first) + ",") != std::string::npos) out.push_back(p);
  }
  return out;
}();

TEST_P(Parity, EveryPathEqualsTheOracle) {
  const ParityCorpus c = GetParam();
  SCOPED_TRACE("corpus seed " + std::to_string(c.seed));
  const auto [t, oracle] = buildOracleCorpus(c);
  std::mt19937_64 rng(c.seed * 7 + 1);
  std::size_t ties = 0;
  for (int q = 0; q < 40; ++q) {
    const std::string query = randomQuery(rng, c.params, 6);
    for (std::size_t k : {1, 3, 10, 100, 1000}) {
      for (const auto& [algo, op] : kParityPaths) {
        for (const bool rankFloor : {true, false}) {
          engine::SearchRequest r;
          r.text = query;
          r.op = op;
          r.k = k;
          r.algorithm = algo;
          r.options.rankFloor = rankFloor;
          r.exactTie = true;
          const auto result = engine::search(*t->index, r);
          ASSERT_TRUE(sameHits(oracle.search(query, op, k), result.hits))
              << "query '" << query << "' " << engine::algorithmName(algo) << " (" << engine::operatorName(op)
              << ") k " << k << " rank_floor " << rankFloor;
          // The tie at k, from the oracle's k + 1 best: a pruning path may dismiss the tying
          // document unevaluated, and exactTie must still find it.
          const auto more = oracle.search(query, op, k + 1);
          const bool tie = more.size() == k + 1 && more[k].score == more[k - 1].score;
          ASSERT_EQ(result.tieAtK, tie) << "query '" << query << "' " << engine::algorithmName(algo) << " ("
                                        << engine::operatorName(op) << ") k " << k << " rank_floor " << rankFloor;
          if (tie) ++ties;
        }
      }
    }
  }
  if (c.params.duplicateFraction >= 0.5) {
    EXPECT_GT(ties, 0u) << "the duplicate-heavy corpus must exercise ties at k";
  }
}

// For `queries` random queries of up to `maxTerms` terms, every path (less `skip`) at every k in
// `ks` with every options variant returns the oracle's hits.
void expectVariantsEqualTheOracle(const ParityCorpus& c, std::uint64_t rngSeed, int queries, std::size_t maxTerms,
                                  std::initializer_list<std::size_t> ks,
                                  const std::vector<engine::SearchOptions>& variants,
                                  const std::vector<Algorithm>& skip) {
  SCOPED_TRACE("corpus seed " + std::to_string(c.seed));
  const auto [t, oracle] = buildOracleCorpus(c);
  std::mt19937_64 rng(rngSeed);
  for (int q = 0; q < queries; ++q) {
    const std::string query = randomQuery(rng, c.params, maxTerms);
    for (std::size_t k : ks) {
      for (const auto& [algo, op] : kParityPaths) {
        if (std::find(skip.begin(), skip.end(), algo) != skip.end()) continue;
        const auto expected = oracle.search(query, op, k);
        for (const auto& o : variants) {
          engine::SearchRequest r;
          r.text = query;
          r.op = op;
          r.k = k;
          r.algorithm = algo;
          r.options = o;
          ASSERT_TRUE(sameHits(expected, engine::search(*t->index, r).hits))
              << "query '" << query << "' " << engine::algorithmName(algo) << " k " << k << " options "
              << o.toString();
        }
      }
    }
  }
}

TEST_P(Parity, EverySwitchCombinationEqualsTheOracle) {
  const ParityCorpus c = GetParam();
  // The oracle reads no switch and taat only rank_floor: EveryPathEqualsTheOracle runs them (with
  // rank_floor on and off).
  expectVariantsEqualTheOracle(c, c.seed * 13 + 5, 8, 5, {3, 10, 100}, allOptionCombinations(),
                               {Algorithm::Exhaustive, Algorithm::Taat});
}

TEST_P(Parity, EachSwitchOffAloneEqualsTheOracleAtTheExtremesOfK) {
  std::vector<engine::SearchOptions> variants;
  engine::SearchOptions().forEach([&](const char* name, bool) {
    engine::SearchOptions o;
    o.apply(std::string(name) + "=off");
    variants.push_back(o);
  });
  expectVariantsEqualTheOracle(GetParam(), GetParam().seed * 17 + 3, 8, 6, {1, 1000}, variants, {});
}

// A trace observes and changes nothing: every path, with its switches on and with each of the
// switches that choose between its forms off (the seed's windows, bmm document at a time, no
// bound-first windows, windows never bounded), returns the same hits and the same value of every counter with a trace
// recorded as without. (A review found the long windows decoding fewer lead blocks when traced.)
TEST_P(Parity, ATraceChangesNoResultAndNoCounter) {
  const ParityCorpus c = GetParam();
  SCOPED_TRACE("corpus seed " + std::to_string(c.seed));
  const auto [t, oracle] = buildOracleCorpus(c);
  std::mt19937_64 rng(c.seed * 19 + 7);
  for (int q = 0; q < 10; ++q) {
    const std::string query = randomQuery(rng, c.params, 5);
    for (std::size_t k : {1, 10, 100}) {
      for (const auto& [algo, op] : kParityPaths) {
        for (const char* opts : {"", "long_windows=off", "bulk_or=off", "bound_first=off", "window_skip=off"}) {
          engine::SearchRequest r;
          r.text = query;
          r.op = op;
          r.k = k;
          r.algorithm = algo;
          r.options.apply(opts);
          const auto plain = engine::search(*t->index, r);
          engine::TraceRecorder trace;
          r.trace = &trace;
          const auto traced = engine::search(*t->index, r);
          const std::string what = "query '" + query + "' " + engine::algorithmName(algo) + " (" +
                                   engine::operatorName(op) + ") k " + std::to_string(k) + " options '" + opts + "'";
          ASSERT_FALSE(trace.truncated()) << what;
          ASSERT_TRUE(sameHits(plain.hits, traced.hits)) << what;
          ASSERT_TRUE(sameCounters(plain.counters, traced.counters)) << what;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpora, Parity,
    ::testing::Values(
        // Small vocabulary: long lists spanning many blocks, many ties.
        ParityCorpus{101, {.docs = 1500, .vocabulary = 40, .maxLength = 30, .duplicateFraction = 0.2}, 65536},
        // Skewed lengths, several segments.
        ParityCorpus{202, {.docs = 1200, .vocabulary = 300, .maxLength = 200, .duplicateFraction = 0.05}, 300},
        // Heavy duplication: ties at the k-th score.
        ParityCorpus{303, {.docs = 900, .vocabulary = 60, .maxLength = 12, .duplicateFraction = 0.6}, 128},
        // Large vocabulary: tiny document frequencies, tails everywhere.
        ParityCorpus{404, {.docs = 1000, .vocabulary = 5000, .maxLength = 50, .duplicateFraction = 0.1}, 777}));

}  // namespace
}  // namespace wandscope::test
