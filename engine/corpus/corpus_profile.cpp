// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_profile.h"

#include "engine/core/error.h"
#include "engine/text/analyzer.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <utility>

namespace wandscope::engine {
namespace {

// The sampler's generator, counting its outputs (CorpusProfile::samplerDraws).
class CountingRng {
 public:
  explicit CountingRng(std::uint64_t seed) : m_rng(seed) {}

  std::uint64_t operator()() {
    ++m_draws;
    return m_rng();
  }
  std::uint64_t draws() const noexcept { return m_draws; }

 private:
  std::mt19937_64 m_rng;
  std::uint64_t m_draws = 0;
};

// Uniform integers by rejection, the same algorithm as the query-set generator's draws (and
// bit-for-bit the reservoir of the versions that sampled inside generateQuerySet).
std::uint64_t uniformBelow(CountingRng& rng, std::uint64_t n) {
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                              std::numeric_limits<std::uint64_t>::max() % n;
  for (;;) {
    const std::uint64_t x = rng();
    if (x < limit) return x % n;
  }
}

// Document frequencies of all terms: an open-addressing table (linear probing, power-of-two size,
// at most half full) over a dense term array. std::unordered_map spends most of a 1M-document scan
// in its modulo and node chasing; this keeps the lookup to one probe in the common case.
class TermCounter {
 public:
  TermCounter() : m_slots(1024) {}

  // Counts `term` for document `doc` (1-based, non-decreasing): once per document. Returns the
  // term's index (the order of first appearance).
  std::uint32_t add(const std::string& term, std::uint64_t doc) {
    const std::uint64_t hash = std::hash<std::string_view>{}(term);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
      Slot& slot = m_slots[i];
      if (slot.index == kEmpty) {
        const auto index = static_cast<std::uint32_t>(m_terms.size());
        slot = Slot{hash, index};
        m_terms.push_back(term);
        m_df.push_back(1);
        m_lastDoc.push_back(doc);
        if (m_terms.size() * 2 > m_slots.size()) grow();
        return index;
      }
      if (slot.hash == hash && m_terms[slot.index] == term) {
        if (m_lastDoc[slot.index] != doc) {
          m_lastDoc[slot.index] = doc;
          ++m_df[slot.index];
        }
        return slot.index;
      }
    }
  }

  std::size_t size() const noexcept { return m_terms.size(); }
  const std::string& term(std::size_t i) const noexcept { return m_terms[i]; }
  std::string& term(std::size_t i) noexcept { return m_terms[i]; }
  std::uint64_t df(std::size_t i) const noexcept { return m_df[i]; }

 private:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t index = kEmpty;
  };

  void grow() {
    if (m_terms.size() >= kEmpty) throwBadInput("corpus profile: more than 2^32 - 1 distinct terms");
    std::vector<Slot> slots(m_slots.size() * 2);
    const std::size_t mask = slots.size() - 1;
    for (const Slot& old : m_slots) {
      if (old.index == kEmpty) continue;
      std::size_t i = static_cast<std::size_t>(old.hash) & mask;
      while (slots[i].index != kEmpty) i = (i + 1) & mask;
      slots[i] = old;
    }
    m_slots = std::move(slots);
  }

  std::vector<Slot> m_slots;
  std::vector<std::string> m_terms;
  std::vector<std::uint32_t> m_df;
  std::vector<std::uint64_t> m_lastDoc;
};

}  // namespace

CorpusProfile CorpusProfile::scan(const std::filesystem::path& corpus, CorpusFormat format,
                                  const ScanOptions& options, const ProgressFn& progress) {
  CorpusProfile profile;
  profile.m_corpus = corpus;
  profile.m_options = options;

  CorpusReader reader(corpus, format);
  Analyzer analyzer(AnalyzerKind::Plain);
  Document doc;
  std::vector<std::string> tokens;
  std::vector<std::uint32_t> ids;
  TermCounter counter;
  CountingRng rng(options.seed);
  const bool sample = options.sampleDocs > 0;

  using Clock = std::chrono::steady_clock;
  auto lastReport = Clock::now();
  if (progress) progress(Progress{"counting", 0, reader.fileSize()});
  while (reader.next(doc)) {
    const std::uint64_t docIndex = ++profile.m_documents;
    tokens.clear();
    analyzer.analyze(doc.title, tokens);
    analyzer.analyze(doc.text, tokens);
    if (!sample || tokens.size() < options.minSampleTokens) {
      for (const std::string& token : tokens) counter.add(token, docIndex);
    } else {
      ids.clear();
      for (const std::string& token : tokens) ids.push_back(counter.add(token, docIndex));
      // Algorithm R over the eligible documents.
      if (profile.m_eligible < options.sampleDocs) {
        profile.m_sampled.push_back(std::move(ids));
        ids = {};
      } else {
        const std::uint64_t j = uniformBelow(rng, profile.m_eligible + 1);
        if (j < options.sampleDocs) std::swap(profile.m_sampled[static_cast<std::size_t>(j)], ids);
      }
      ++profile.m_eligible;
    }
    if (progress) {
      const auto now = Clock::now();
      if (now - lastReport >= std::chrono::milliseconds(100)) {
        lastReport = now;
        progress(Progress{"counting", reader.bytesConsumed(), reader.fileSize()});
      }
    }
  }
  if (progress) progress(Progress{"counting", reader.fileSize(), reader.fileSize()});
  if (profile.m_documents == 0) throwBadInput(corpus.string() + ": the corpus has no documents");
  profile.m_samplerDraws = rng.draws();

  // Term ids in bytewise order, so pools and ids do not depend on hash-table or file order.
  std::vector<std::uint32_t> order(counter.size());
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  std::sort(order.begin(), order.end(),
            [&counter](std::uint32_t a, std::uint32_t b) { return counter.term(a) < counter.term(b); });
  std::vector<std::uint32_t> rank(order.size());
  profile.m_terms.reserve(order.size());
  profile.m_df.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    rank[order[i]] = static_cast<std::uint32_t>(i);
    profile.m_terms.push_back(std::move(counter.term(order[i])));
    profile.m_df.push_back(counter.df(order[i]));
  }
  for (auto& sampled : profile.m_sampled) {
    for (std::uint32_t& id : sampled) id = rank[id];
  }
  return profile;
}

std::uint64_t CorpusProfile::documentFrequency(std::string_view term) const noexcept {
  const auto it = std::lower_bound(m_terms.begin(), m_terms.end(), term,
                                   [](const std::string& a, std::string_view b) { return a < b; });
  if (it == m_terms.end() || *it != term) return 0;
  return m_df[static_cast<std::size_t>(it - m_terms.begin())];
}

}  // namespace wandscope::engine
