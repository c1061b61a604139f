// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

enum class AnalyzerKind {
  Plain,    // tokens = runs of Unicode letters/marks/decimal digits, lowercased
  English,  // Plain + Lucene's 33-word English stop list + the Porter stemmer (libstemmer "porter")
};

// What the analyzer dropped or repaired; summed over calls when the same object is passed again.
struct AnalyzerStats {
  std::uint64_t tokens = 0;           // tokens produced
  std::uint64_t invalidBytes = 0;     // invalid UTF-8 bytes replaced by U+FFFD (a separator)
  std::uint64_t overlongTokens = 0;   // tokens longer than kMaxTokenBytes, skipped
  std::uint64_t stopWords = 0;        // stop words removed (English only)
};

// Turns text into index terms. The exact rules are in docs/SCORING.md ("Analysis"); the index
// records `identity()` and refuses to open with a different analyzer.
//
// Not thread-safe (the Porter stemmer keeps per-instance state): use one Analyzer per thread.
// Construction is cheap.
class Analyzer {
 public:
  // Tokens longer than this many UTF-8 bytes (after lowercasing) are skipped and counted.
  static constexpr std::size_t kMaxTokenBytes = 64;

  explicit Analyzer(AnalyzerKind kind = AnalyzerKind::Plain);
  ~Analyzer();
  Analyzer(Analyzer&& other) noexcept;
  Analyzer& operator=(Analyzer&& other) noexcept;
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  AnalyzerKind kind() const noexcept { return m_kind; }
  // A stable identity string for the index header, e.g. "plain/1" or "english-porter-lucene33/1".
  // It changes whenever the rules change in a way that changes tokens.
  std::string identity() const;

  // Appends the terms of `text` to `out` in text order (duplicates kept).
  void analyze(std::string_view text, std::vector<std::string>& out, AnalyzerStats* stats = nullptr);

  // "plain" / "english"; parseKind throws Error(Usage) naming the valid values.
  static AnalyzerKind parseKind(std::string_view name);
  static const char* kindName(AnalyzerKind kind) noexcept;
  // The analyzer kind an identity string denotes; throws Error(Index) if unknown.
  static AnalyzerKind kindFromIdentity(std::string_view identity);

 private:
  struct Stemmer;
  AnalyzerKind m_kind;
  std::unique_ptr<Stemmer> m_stemmer;
};

// The stop list of the English analyzer (Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), sorted.
const std::vector<std::string_view>& englishStopWords();

}  // namespace wandscope::engine
