// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_set_generator.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace wandscope::engine {
namespace {

// Document-frequency ranges as fractions of N in units of 1/10000 (basis points), compared in
// integers so a term exactly on a boundary is classified the same way on every machine.
struct DfRange {
  std::uint64_t lowBp;   // df * 10000 >= lowBp * N
  std::uint64_t highBp;  // df * 10000 <= highBp * N
  const char* text;
};
constexpr DfRange kMidDf{100, 600, "[1 %, 6 %]"};
constexpr DfRange kRare{2, 30, "[0.02 %, 0.3 %]"};
constexpr std::uint64_t kCommonAboveBp = 600;  // common: df * 10000 > 600 * N (df > 6 %)

bool inRange(std::uint64_t df, std::uint64_t docs, const DfRange& range) noexcept {
  return df * 10000 >= range.lowBp * docs && df * 10000 <= range.highBp * docs;
}

// Reservoir size for Sequential: 4 documents per requested query, at most 16,384 documents in all
// (their token sequences are held in memory; 16,384 documents offer millions of windows).
constexpr std::uint64_t kSampledDocsPerQuery = 4;
constexpr std::uint64_t kMaxSampledDocs = 16'384;
// Distinct queries are drawn by rejection. A safety valve against looping forever: after
// kMinDraws + kDrawsPerCombination * combinations failed draws for one query a repeat is accepted.
// With every combination reachable this is never hit in practice (the expected number of draws for
// the last unused combination is about `combinations`).
constexpr std::uint64_t kMinDraws = 10'000;
constexpr std::uint64_t kDrawsPerCombination = 64;
constexpr std::uint64_t kMaxDraws = 10'000'000;
constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

// n choose k, saturating at kSaturated.
std::uint64_t choose(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  std::uint64_t c = 1;
  for (std::uint64_t i = 0; i < k; ++i) {
    // c * (n - i) / (i + 1) is exact (c * (n - i) is divisible by i + 1) when it does not overflow.
    if (c > kSaturated / (n - i)) return kSaturated;
    c = c * (n - i) / (i + 1);
  }
  return c;
}

// Uniform integers from mt19937_64 by rejection (std::uniform_int_distribution's algorithm differs
// between standard libraries; the query set must not).
std::uint64_t uniformBelow(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                              std::numeric_limits<std::uint64_t>::max() % n;
  for (;;) {
    const std::uint64_t x = rng();
    if (x < limit) return x % n;
  }
}

// The terms whose df satisfies `keep`, sorted bytewise (the profile's terms are), so the draw does
// not depend on hash-table order.
template <typename Keep>
std::vector<std::string> pool(const CorpusProfile& profile, Keep keep) {
  std::vector<std::string> terms;
  const std::vector<std::string>& all = profile.terms();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (keep(profile.documentFrequencyAt(static_cast<std::uint32_t>(i)))) terms.push_back(all[i]);
  }
  return terms;
}

std::vector<std::string> rangePool(const CorpusProfile& profile, const DfRange& range) {
  const std::uint64_t docs = profile.documents();
  return pool(profile, [&](std::uint64_t df) { return inRange(df, docs, range); });
}

std::vector<std::string> commonPool(const CorpusProfile& profile) {
  const std::uint64_t docs = profile.documents();
  return pool(profile, [&](std::uint64_t df) { return df * 10000 > kCommonAboveBp * docs; });
}

[[noreturn]] void throwTooFew(QueryCategory category, const char* what, const char* range, std::size_t found,
                              std::uint64_t docs, std::uint32_t needed) {
  throwBadInput(std::string("cannot draw ") + queryCategoryName(category) + " queries: " + std::to_string(found) +
                " " + what + " with document frequency " + range + " of " + std::to_string(docs) +
                " documents, need at least " + std::to_string(needed));
}

std::string join(const std::vector<std::string>& tokens) {
  std::string text;
  for (const std::string& token : tokens) {
    if (!text.empty()) text += ' ';
    text += token;
  }
  return text;
}

// Collects drawn queries. A query repeats an earlier one (for pool categories: the same tokens in
// any order; for Sequential: the same text) only when all `combinations` possible queries have been
// used; then a new round starts and repeats are spread evenly.
class QueryCollector {
 public:
  QueryCollector(const QuerySetParams& params, std::uint64_t combinations, bool orderMatters)
      : m_params(params),
        m_combinations(combinations),
        m_drawLimit(combinations >= (kMaxDraws - kMinDraws) / kDrawsPerCombination
                        ? kMaxDraws
                        : kMinDraws + kDrawsPerCombination * combinations),
        m_orderMatters(orderMatters) {
    m_queries.reserve(params.count);
  }

  bool full() const noexcept { return m_queries.size() >= m_params.count; }

  // Offers the `attempt`-th draw (from 1) for the next query; true if it was taken.
  bool offer(const std::vector<std::string>& tokens, std::uint64_t attempt) {
    if (m_seen.size() >= m_combinations) m_seen.clear();  // every combination used: a new round
    std::vector<std::string> key = tokens;
    if (!m_orderMatters) std::sort(key.begin(), key.end());
    const bool fresh = m_seen.insert(join(key)).second;
    if (!fresh && attempt <= m_drawLimit) return false;
    m_queries.push_back(QueryRecord{std::string(queryCategoryName(m_params.category)) + "-" +
                                        std::to_string(m_params.tokens) + "-" +
                                        std::to_string(m_queries.size() + 1),
                                    join(tokens)});
    return true;
  }

  std::vector<QueryRecord> take() { return std::move(m_queries); }

 private:
  const QuerySetParams& m_params;
  const std::uint64_t m_combinations;
  const std::uint64_t m_drawLimit;
  const bool m_orderMatters;
  std::set<std::string> m_seen;
  std::vector<QueryRecord> m_queries;
};

// Appends a token drawn uniformly from `first` followed by `second` (if given) that is not in
// `tokens` yet. The pools must hold such a token.
void drawDistinct(std::mt19937_64& rng, const std::vector<std::string>& first,
                  const std::vector<std::string>* second, std::vector<std::string>& tokens) {
  const std::size_t size = first.size() + (second != nullptr ? second->size() : 0);
  for (;;) {
    const auto i = static_cast<std::size_t>(uniformBelow(rng, size));
    const std::string& token = i < first.size() ? first[i] : (*second)[i - first.size()];
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) {
      tokens.push_back(token);
      return;
    }
  }
}

std::vector<QueryRecord> drawFromPool(const std::vector<std::string>& terms, const QuerySetParams& params,
                                      std::mt19937_64& rng) {
  QueryCollector collector(params, choose(terms.size(), params.tokens), false);
  std::vector<std::string> tokens;
  while (!collector.full()) {
    for (std::uint64_t attempt = 1;; ++attempt) {
      tokens.clear();
      for (std::uint32_t i = 0; i < params.tokens; ++i) drawDistinct(rng, terms, nullptr, tokens);
      if (collector.offer(tokens, attempt)) break;
    }
  }
  return collector.take();
}

std::vector<QueryRecord> drawRareCommon(const std::vector<std::string>& rare, const std::vector<std::string>& common,
                                        const QuerySetParams& params, std::mt19937_64& rng) {
  // Sets of `tokens` terms of rare + common minus those with no rare or no common term.
  const std::uint64_t all = choose(rare.size() + common.size(), params.tokens);
  const std::uint64_t combinations =
      all == kSaturated ? kSaturated : all - choose(rare.size(), params.tokens) - choose(common.size(), params.tokens);
  QueryCollector collector(params, combinations, false);
  std::vector<std::string> tokens;
  while (!collector.full()) {
    for (std::uint64_t attempt = 1;; ++attempt) {
      tokens.clear();
      drawDistinct(rng, rare, nullptr, tokens);
      drawDistinct(rng, common, nullptr, tokens);
      for (std::uint32_t i = 2; i < params.tokens; ++i) {
        drawDistinct(rng, rare, &common, tokens);
      }
      // Fisher-Yates, so the rare token is not always first.
      for (std::size_t i = tokens.size() - 1; i > 0; --i) {
        std::swap(tokens[i], tokens[static_cast<std::size_t>(uniformBelow(rng, i + 1))]);
      }
      if (collector.offer(tokens, attempt)) break;
    }
  }
  return collector.take();
}

bool distinctWindow(const std::vector<std::uint32_t>& doc, std::size_t start, std::size_t length) {
  for (std::size_t i = start + 1; i < start + length; ++i) {
    for (std::size_t j = start; j < i; ++j) {
      if (doc[i] == doc[j]) return false;
    }
  }
  return true;
}

// A 64-bit hash of a window's term ids (splitmix64's finalizer after each id).
std::uint64_t windowHash(const std::uint32_t* ids, std::size_t length) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < length; ++i) {
    h ^= ids[i];
    h += 0x9e3779b97f4a7c15ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
  }
  return h;
}

std::vector<QueryRecord> drawSequential(const CorpusProfile& profile, const QuerySetParams& params,
                                        std::mt19937_64& rng) {
  const auto& sampled = profile.sampledDocuments();
  // Valid windows (all terms distinct) of each sampled document; documents without one are dropped.
  struct Candidate {
    const std::vector<std::uint32_t>* ids;
    std::vector<std::uint32_t> starts;
  };
  std::vector<Candidate> candidates;
  for (const auto& doc : sampled) {
    Candidate candidate{&doc, {}};
    for (std::size_t start = 0; start + params.tokens <= doc.size(); ++start) {
      if (distinctWindow(doc, start, params.tokens)) candidate.starts.push_back(static_cast<std::uint32_t>(start));
    }
    if (!candidate.starts.empty()) candidates.push_back(std::move(candidate));
  }
  if (candidates.empty()) {
    std::string message = "cannot draw sequential queries: none of the ";
    message.append(std::to_string(sampled.size()))
        .append(" sampled documents (of ")
        .append(std::to_string(profile.documents()))
        .append(") has ")
        .append(std::to_string(params.tokens))
        .append(" consecutive distinct terms");
    throwBadInput(message);
  }
  // The number of distinct texts among all valid windows of the sampled documents, counted by
  // 64-bit hash of the term ids (a collision could only make it one too small).
  std::vector<std::uint64_t> hashes;
  for (const Candidate& c : candidates) {
    for (const std::uint32_t start : c.starts) hashes.push_back(windowHash(c.ids->data() + start, params.tokens));
  }
  std::sort(hashes.begin(), hashes.end());
  const auto distinct = static_cast<std::uint64_t>(std::unique(hashes.begin(), hashes.end()) - hashes.begin());
  hashes = {};
  QueryCollector collector(params, distinct, true);
  const std::vector<std::string>& terms = profile.terms();
  std::vector<std::string> tokens;
  while (!collector.full()) {
    for (std::uint64_t attempt = 1;; ++attempt) {
      const Candidate& c = candidates[static_cast<std::size_t>(uniformBelow(rng, candidates.size()))];
      const std::size_t start = c.starts[static_cast<std::size_t>(uniformBelow(rng, c.starts.size()))];
      tokens.clear();
      for (std::size_t i = start; i < start + params.tokens; ++i) tokens.push_back(terms[(*c.ids)[i]]);
      if (collector.offer(tokens, attempt)) break;
    }
  }
  return collector.take();
}

std::string jsonString(const std::string& value) {
  return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

QueryCategory parseQueryCategory(std::string_view name) {
  if (name == "mid-df") return QueryCategory::MidDf;
  if (name == "rare") return QueryCategory::Rare;
  if (name == "rare+common") return QueryCategory::RareCommon;
  if (name == "sequential") return QueryCategory::Sequential;
  throwUsage("unknown query category '" + std::string(name) +
             "' (valid: mid-df, rare, rare+common, sequential)");
}

const char* queryCategoryName(QueryCategory category) noexcept {
  switch (category) {
    case QueryCategory::MidDf:
      return "mid-df";
    case QueryCategory::Rare:
      return "rare";
    case QueryCategory::RareCommon:
      return "rare+common";
    case QueryCategory::Sequential:
      return "sequential";
  }
  return "unknown";
}

void validateQuerySetParams(const QuerySetParams& params) {
  if (params.tokens < 1 || params.tokens > 5) {
    throwUsage("query set: tokens must be between 1 and 5, got " + std::to_string(params.tokens));
  }
  if (params.category == QueryCategory::RareCommon && params.tokens < 2) {
    throwUsage("query set: rare+common queries need at least 2 tokens, got " + std::to_string(params.tokens));
  }
  if (params.count == 0) throwUsage("query set: count must be at least 1");
}

CorpusProfile::ScanOptions scanOptionsFor(const std::vector<QuerySetParams>& sets) {
  CorpusProfile::ScanOptions options;
  if (!sets.empty()) options.seed = sets.front().seed;
  std::uint64_t queries = 0;
  std::uint32_t minTokens = std::numeric_limits<std::uint32_t>::max();
  for (const QuerySetParams& set : sets) {
    if (set.category != QueryCategory::Sequential) continue;
    queries += set.count;
    minTokens = std::min(minTokens, set.tokens);
  }
  if (queries > 0) {
    options.sampleDocs = std::min(queries * kSampledDocsPerQuery, kMaxSampledDocs);
    options.minSampleTokens = minTokens;
  }
  return options;
}

std::vector<QueryRecord> generateQuerySet(const CorpusProfile& profile, const QuerySetParams& params) {
  validateQuerySetParams(params);
  std::mt19937_64 rng(params.seed);

  switch (params.category) {
    case QueryCategory::MidDf:
    case QueryCategory::Rare: {
      const DfRange& range = params.category == QueryCategory::MidDf ? kMidDf : kRare;
      const std::vector<std::string> terms = rangePool(profile, range);
      if (terms.size() < params.tokens) {
        throwTooFew(params.category, "terms", range.text, terms.size(), profile.documents(), params.tokens);
      }
      return drawFromPool(terms, params, rng);
    }
    case QueryCategory::RareCommon: {
      const std::vector<std::string> rare = rangePool(profile, kRare);
      const std::vector<std::string> common = commonPool(profile);
      if (rare.empty()) throwTooFew(params.category, "rare terms", kRare.text, 0, profile.documents(), 1);
      if (common.empty()) throwTooFew(params.category, "common terms", "> 6 %", 0, profile.documents(), 1);
      if (rare.size() + common.size() < params.tokens) {
        throwTooFew(params.category, "rare or common terms", "[0.02 %, 0.3 %] or > 6 %",
                    rare.size() + common.size(), profile.documents(), params.tokens);
      }
      return drawRareCommon(rare, common, params, rng);
    }
    case QueryCategory::Sequential:
      if (profile.options().sampleDocs == 0) {
        throwUsage("cannot draw sequential queries from a corpus profile scanned without a document sample "
                   "(CorpusProfile::ScanOptions::sampleDocs is 0)");
      }
      // Continue the seed's stream past the sampler's draws: a single-set scan (profile seed = set
      // seed) then replays the one generator the per-set scans of earlier versions used for both
      // the reservoir and the queries, so generateQuerySet(corpus, ...) keeps its sets. Sets of
      // other seeds get their own streams over the shared sample.
      rng.discard(profile.samplerDraws());
      return drawSequential(profile, params, rng);
  }
  throwInternal("query set: unknown category");
}

std::vector<QueryRecord> generateQuerySet(const std::filesystem::path& corpus, CorpusFormat format,
                                          const QuerySetParams& params, const ProgressFn& progress) {
  validateQuerySetParams(params);
  const CorpusProfile profile = CorpusProfile::scan(corpus, format, scanOptionsFor({params}), progress);
  return generateQuerySet(profile, params);
}

void writeQueriesJsonl(const std::vector<QueryRecord>& queries, const std::filesystem::path& out) {
  std::string content;
  for (const QueryRecord& query : queries) {
    content += "{\"_id\":";
    content += jsonString(query.id);
    content += ",\"text\":";
    content += jsonString(query.text);
    content += "}\n";
  }
  writeFileAtomically(out, content);
}

}  // namespace wandscope::engine
