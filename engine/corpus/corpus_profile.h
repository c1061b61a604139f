// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/corpus_reader.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// What one pass over a corpus teaches the query-set generator: the number of documents, the
// document frequency of every term and a seeded reservoir sample of documents' term sequences
// (for sequential queries). Scanning is the expensive part of drawing a query set (seconds per
// 100,000 documents); a profile is scanned once and any number of sets are drawn from it
// (`generateQuerySet(const CorpusProfile&, ...)` in engine/corpus/query_set_generator.h).
//
// Terms are those of the plain analyzer over analyze(title) followed by analyze(text). A profile
// is immutable after `scan` and may be read from several threads at once.
class CorpusProfile {
 public:
  struct ScanOptions {
    // How many documents to reservoir-sample (Algorithm R); 0 keeps none (enough for every
    // category but sequential). The sampled token sequences are held in memory.
    std::uint64_t sampleDocs = 0;
    // Only documents with at least this many terms are eligible for the sample.
    std::uint32_t minSampleTokens = 1;
    // Seed of the sampler's std::mt19937_64 (same corpus + options -> same sample).
    std::uint64_t seed = 7;
  };

  // One pass over `corpus` with CorpusReader. Progress is stage "counting" in bytes of the file.
  // Throws Error(BadInput) for an empty corpus or a malformed line, Error(Io) when unreadable.
  static CorpusProfile scan(const std::filesystem::path& corpus, CorpusFormat format,
                            const ScanOptions& options, const ProgressFn& progress = {});

  const std::filesystem::path& corpus() const noexcept { return m_corpus; }
  const ScanOptions& options() const noexcept { return m_options; }

  std::uint64_t documents() const noexcept { return m_documents; }

  // Every distinct term, sorted bytewise; a term's id is its index here.
  const std::vector<std::string>& terms() const noexcept { return m_terms; }
  // Number of documents containing terms()[id] at least once.
  std::uint64_t documentFrequencyAt(std::uint32_t id) const noexcept { return m_df[id]; }
  // The same by term; 0 for a term the corpus does not contain.
  std::uint64_t documentFrequency(std::string_view term) const noexcept;

  // The sampled documents' term sequences as term ids, in reservoir-slot order (slot i holds the
  // last document Algorithm R put there). min(sampleDocs, eligibleDocuments()) entries.
  const std::vector<std::vector<std::uint32_t>>& sampledDocuments() const noexcept { return m_sampled; }
  // Documents that had at least minSampleTokens terms (0 when sampleDocs is 0).
  std::uint64_t eligibleDocuments() const noexcept { return m_eligible; }
  // How many outputs the sampler drew from its generator. Sequential sets continue the stream of
  // their own seed past this many outputs, which makes a single-set scan reproduce the sets of
  // versions that scanned per set (see docs/GENERATOR.md).
  std::uint64_t samplerDraws() const noexcept { return m_samplerDraws; }

 private:
  CorpusProfile() = default;

  std::filesystem::path m_corpus;
  ScanOptions m_options;
  std::uint64_t m_documents = 0;
  std::vector<std::string> m_terms;
  std::vector<std::uint64_t> m_df;
  std::vector<std::vector<std::uint32_t>> m_sampled;
  std::uint64_t m_eligible = 0;
  std::uint64_t m_samplerDraws = 0;
};

}  // namespace wandscope::engine
