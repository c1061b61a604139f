// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/analyzer.h"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <functional>
#include <new>
#include <string>

#include "engine/core/error.h"
#include "engine/text/unicode_tables.h"
#include "engine/text/utf8.h"

namespace wandscope::engine {
namespace {

constexpr std::string_view kPlainIdentity = "plain/1";
constexpr std::string_view kEnglishIdentity = "english-porter-lucene33/1";

// Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, sorted for binary search.
constexpr std::array<std::string_view, 33> kStopWords = {
    "a",   "an",    "and",  "are",   "as",    "at",   "be",   "but", "by",  "for",  "if",
    "in",  "into",  "is",   "it",    "no",    "not",  "of",   "on",  "or",  "such", "that",
    "the", "their", "then", "there", "these", "they", "this", "to",  "was", "will", "with"};
constexpr std::size_t kLongestStopWord = 5;

static_assert(std::is_sorted(kStopWords.begin(), kStopWords.end()));

bool isStopWord(std::string_view token) noexcept {
  // Tokens longer than the longest stop word skip the search.
  return token.size() <= kLongestStopWord &&
         std::binary_search(kStopWords.begin(), kStopWords.end(), token);
}

// The ASCII fast path: for ASCII letters and digits (the only ASCII token chars) the lowercased
// byte, for every other byte 0. Bytes >= 0x80 are 0 too and take the UTF-8 path.
constexpr std::array<unsigned char, 256> kAsciiToken = [] {
  std::array<unsigned char, 256> table{};
  for (unsigned c = '0'; c <= '9'; ++c) table[c] = static_cast<unsigned char>(c);
  for (unsigned c = 'a'; c <= 'z'; ++c) table[c] = static_cast<unsigned char>(c);
  for (unsigned c = 'A'; c <= 'Z'; ++c) table[c] = static_cast<unsigned char>(c - 'A' + 'a');
  return table;
}();

constexpr std::size_t kMaxTokenBytes = Analyzer::kMaxTokenBytes;

// Splits `text` into lowercased tokens and calls emit(std::string_view) for each one of at most
// kMaxTokenBytes bytes, counting invalid bytes and overlong tokens in `stats`. The view passed to
// `emit` is valid only during the call. `scratch` is reused for tokens with non-ASCII characters.
//
// Why two paths: nearly all corpus text is ASCII, where a token is a run of bytes found by one
// table lookup per byte and copied once. A token that meets a byte >= 0x80 is finished on the
// general path, which decodes code points and looks them up in the Unicode tables.
template <typename Emit>
void tokenize(std::string_view text, AnalyzerStats& stats, std::string& scratch, Emit&& emit) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  char ascii[kMaxTokenBytes];
  while (i < n) {
    const std::size_t start = i;
    if (p[i] < 0x80) {
      if (kAsciiToken[p[i]] == 0) {
        ++i;
        continue;
      }
      do {
        ++i;
      } while (i < n && kAsciiToken[p[i]] != 0);
      const std::size_t length = i - start;
      if (i == n || p[i] < 0x80) {
        if (length > kMaxTokenBytes) {
          ++stats.overlongTokens;
          continue;
        }
        for (std::size_t k = 0; k < length; ++k) {
          ascii[k] = static_cast<char>(kAsciiToken[p[start + k]]);
        }
        emit(std::string_view(ascii, length));
        continue;
      }
      // The run stopped at a byte >= 0x80, which may continue the token.
      scratch.clear();
      for (std::size_t k = 0; k < std::min(length, kMaxTokenBytes + 1); ++k) {
        scratch.push_back(static_cast<char>(kAsciiToken[p[start + k]]));
      }
    } else {
      const Utf8Char c = decodeUtf8(text, i);
      i += c.length;
      if (!c.valid) {
        ++stats.invalidBytes;
        continue;
      }
      if (!isTokenChar(c.codePoint)) continue;
      scratch.clear();
      appendUtf8(scratch, toLowerSimple(c.codePoint));
    }

    // The general path, until the first non-token character (consumed here, being a separator).
    // Once the token is known to be overlong it is only scanned, not stored.
    while (i < n) {
      const unsigned char b = p[i];
      if (b < 0x80) {
        ++i;
        const unsigned char lower = kAsciiToken[b];
        if (lower == 0) break;
        if (scratch.size() <= kMaxTokenBytes) scratch.push_back(static_cast<char>(lower));
        continue;
      }
      const Utf8Char c = decodeUtf8(text, i);
      i += c.length;
      if (!c.valid) {
        ++stats.invalidBytes;
        break;
      }
      if (!isTokenChar(c.codePoint)) break;
      if (scratch.size() <= kMaxTokenBytes) appendUtf8(scratch, toLowerSimple(c.codePoint));
    }
    if (scratch.size() > kMaxTokenBytes) {
      ++stats.overlongTokens;
      continue;
    }
    emit(std::string_view(scratch));
  }
}

}  // namespace

// libstemmer's Porter stemmer. It keeps per-instance state and returns a buffer it owns, so
// each Analyzer has its own.
//
// Why a cache: libstemmer costs several times more than tokenizing, and word frequencies are
// Zipfian, so a small direct-mapped table of recent (word, stem) pairs answers most calls. Slots
// are overwritten in place; words and stems of up to 15 bytes stay in std::string's inline
// buffer, so a miss usually does not allocate either.
struct Analyzer::Stemmer {
  static constexpr std::size_t kCacheSlots = 8192;  // a power of two; 8192 x 64 bytes = 512 KiB

  struct Slot {
    std::string word;  // empty: unused (tokens are never empty)
    std::string stem;
  };

  Stemmer() : m_stemmer(sb_stemmer_new("porter", "UTF_8")) {
    if (m_stemmer == nullptr) throwInternal("libstemmer: cannot create the porter stemmer");
  }
  ~Stemmer() { sb_stemmer_delete(m_stemmer); }
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;

  // The stem of a non-empty `word`, never empty; valid until the next call.
  std::string_view stem(std::string_view word) {
    if (m_cache.empty()) m_cache.resize(kCacheSlots);  // on first use: construction stays cheap
    Slot& slot = m_cache[std::hash<std::string_view>{}(word) & (kCacheSlots - 1)];
    if (slot.word != word) {
      const sb_symbol* s =
          sb_stemmer_stem(m_stemmer, reinterpret_cast<const sb_symbol*>(word.data()),
                          static_cast<int>(word.size()));
      if (s == nullptr) throw std::bad_alloc();
      const auto length = static_cast<std::size_t>(sb_stemmer_length(m_stemmer));
      // Porter stems the one-letter word "s" to nothing; such a word is kept unstemmed.
      if (length == 0) return word;
      slot.word.clear();  // if an assign below throws, the slot stays unused, not wrong
      slot.stem.assign(reinterpret_cast<const char*>(s), length);
      slot.word.assign(word);
    }
    return slot.stem;
  }

  sb_stemmer* m_stemmer;
  std::vector<Slot> m_cache;
};

Analyzer::Analyzer(AnalyzerKind kind) : m_kind(kind) {
  if (m_kind == AnalyzerKind::English) m_stemmer = std::make_unique<Stemmer>();
}

Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer&& other) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&& other) noexcept = default;

std::string Analyzer::identity() const {
  return std::string(m_kind == AnalyzerKind::English ? kEnglishIdentity : kPlainIdentity);
}

void Analyzer::analyze(std::string_view text, std::vector<std::string>& out, AnalyzerStats* stats) {
  AnalyzerStats local;
  const std::size_t before = out.size();
  std::string scratch;
  if (m_kind == AnalyzerKind::Plain) {
    tokenize(text, local, scratch, [&out](std::string_view token) { out.emplace_back(token); });
  } else {
    // A moved-from English analyzer has no stemmer; give it a new one rather than crash.
    if (!m_stemmer) m_stemmer = std::make_unique<Stemmer>();
    Stemmer& stemmer = *m_stemmer;
    tokenize(text, local, scratch, [&](std::string_view token) {
      // Stop words are matched before stemming, as Lucene's EnglishAnalyzer does.
      if (isStopWord(token)) {
        ++local.stopWords;
        return;
      }
      out.emplace_back(stemmer.stem(token));
    });
  }
  if (stats != nullptr) {
    stats->tokens += out.size() - before;
    stats->invalidBytes += local.invalidBytes;
    stats->overlongTokens += local.overlongTokens;
    stats->stopWords += local.stopWords;
  }
}

AnalyzerKind Analyzer::parseKind(std::string_view name) {
  if (name == "plain") return AnalyzerKind::Plain;
  if (name == "english") return AnalyzerKind::English;
  throwUsage("unknown analyzer '" + std::string(name) + "' (expected plain or english)");
}

const char* Analyzer::kindName(AnalyzerKind kind) noexcept {
  switch (kind) {
    case AnalyzerKind::Plain:
      return "plain";
    case AnalyzerKind::English:
      return "english";
  }
  return "plain";
}

AnalyzerKind Analyzer::kindFromIdentity(std::string_view identity) {
  if (identity == kPlainIdentity) return AnalyzerKind::Plain;
  if (identity == kEnglishIdentity) return AnalyzerKind::English;
  throwIndex("unknown analyzer identity '" + std::string(identity) + "' (this build knows " +
             std::string(kPlainIdentity) + " and " + std::string(kEnglishIdentity) + ")");
}

const std::vector<std::string_view>& englishStopWords() {
  static const std::vector<std::string_view> words(kStopWords.begin(), kStopWords.end());
  return words;
}

}  // namespace wandscope::engine
