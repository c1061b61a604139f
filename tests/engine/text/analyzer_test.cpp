// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/analyzer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/text/unicode_tables.h"
#include "engine/text/utf8.h"

namespace wandscope::test {
namespace {

using engine::Analyzer;
using engine::AnalyzerKind;
using engine::AnalyzerStats;
using testing::ElementsAre;
using testing::IsEmpty;

constexpr std::size_t kMax = Analyzer::kMaxTokenBytes;

std::vector<std::string> plain(std::string_view text, AnalyzerStats* stats = nullptr) {
  Analyzer analyzer(AnalyzerKind::Plain);
  std::vector<std::string> out;
  analyzer.analyze(text, out, stats);
  return out;
}

std::vector<std::string> english(std::string_view text, AnalyzerStats* stats = nullptr) {
  Analyzer analyzer(AnalyzerKind::English);
  std::vector<std::string> out;
  analyzer.analyze(text, out, stats);
  return out;
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// The rules written as directly as possible: decode every character, keep runs of token chars,
// lowercase, drop runs longer than kMax bytes. The Plain analyzer must agree on any input.
struct Reference {
  std::vector<std::string> tokens;
  std::uint64_t invalid = 0;
  std::uint64_t overlong = 0;
};

Reference referenceTokens(std::string_view text) {
  Reference r;
  std::string token;
  auto flush = [&] {
    if (token.size() > kMax) {
      ++r.overlong;
    } else if (!token.empty()) {
      r.tokens.push_back(token);
    }
    token.clear();
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    const engine::Utf8Char c = engine::decodeUtf8(text, pos);
    pos += c.length;
    if (!c.valid) ++r.invalid;
    if (c.valid && engine::isTokenChar(c.codePoint)) {
      engine::appendUtf8(token, engine::toLowerSimple(c.codePoint));
    } else {
      flush();
    }
  }
  flush();
  return r;
}

// Random text built from pieces that stress the analyzer's path switches.
std::string randomText(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {
      "a",
      "Z",
      "q",
      "7",
      " ",
      ",",
      "'",
      "-",
      "_",
      "\n",
      "\t",
      "\xC3\xA9",          // é
      "\xC3\x89",          // É
      "\xCE\xA3",          // Σ
      "\xD0\x96",          // Ж
      "\xE6\x9D\xB1",      // 東
      "\xCC\x81",          // combining acute
      "\xC2\xA0",          // no-break space
      "\xE2\x80\x94",      // em dash
      "\xF0\x9F\x98\x80",  // emoji
      "\xE2\x84\xAA",      // Kelvin sign (3 bytes, lowercases to 1)
      "\xC8\xBA",          // U+023A (2 bytes, lowercases to 3)
      "\xC4\xB0",          // U+0130 (no simple lowercase)
      "\xEF\xBF\xBD",      // a real U+FFFD
      "\x80",
      "\xC3",
      "\xE2\x82",
      "\xF0\x9F\x98",
      "\xC0\x80",
      "\xED\xA0\x80",
      "\xF5",
      "\xFF",
  };
  std::uniform_int_distribution<int> mode(0, 3);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<std::size_t> length(0, 200);
  std::string text;
  const std::size_t n = length(rng);
  switch (mode(rng)) {
    case 0:  // raw bytes
      for (std::size_t i = 0; i < n; ++i) text.push_back(static_cast<char>(byte(rng)));
      break;
    case 1:  // pieces
      for (std::size_t i = 0; i < n; ++i) text += pieces[pick(rng)];
      break;
    case 2:  // long letter runs around the 64-byte limit, with pieces between
      for (std::size_t i = 0; i < n / 20 + 1; ++i) {
        text.append(std::uniform_int_distribution<std::size_t>(50, 80)(rng), 'x');
        text += pieces[pick(rng)];
      }
      break;
    default:  // pieces and raw bytes mixed
      for (std::size_t i = 0; i < n; ++i) {
        if (byte(rng) < 64) {
          text.push_back(static_cast<char>(byte(rng)));
        } else {
          text += pieces[pick(rng)];
        }
      }
      break;
  }
  return text;
}

TEST(AnalyzerTest, AsciiSplitsOnNonAlphanumericsAndLowercases) {
  EXPECT_THAT(plain("Hello, World! 42abc"), ElementsAre("hello", "world", "42abc"));
  EXPECT_THAT(plain("don't"), ElementsAre("don", "t"));
  EXPECT_THAT(plain("a-b_c.d/e:f@g"), ElementsAre("a", "b", "c", "d", "e", "f", "g"));
  EXPECT_THAT(plain("3.14\t2024\nMiXeD"), ElementsAre("3", "14", "2024", "mixed"));
  EXPECT_THAT(plain("  repeated repeated  "), ElementsAre("repeated", "repeated"));
  EXPECT_THAT(plain(""), IsEmpty());
  EXPECT_THAT(plain(" ,.;!?\x7F"), IsEmpty());
  EXPECT_THAT(plain(std::string("a\0b", 3)), ElementsAre("a", "b"));
}

TEST(AnalyzerTest, LowercasesAccentedGreekAndCyrillic) {
  EXPECT_THAT(plain("\xC3\x89"
                    "clair"),
              ElementsAre("\xC3\xA9"
                          "clair"));  // Éclair
  EXPECT_THAT(plain("CAF\xC3\x89 cr\xC3\xA8me"),
              ElementsAre("caf\xC3\xA9", "cr\xC3\xA8me"));  // CAFÉ crème
  // ΑΘΗΝΑ ΟΔΟΣ: the simple mapping gives σ, never the final ς.
  EXPECT_THAT(
      plain("\xCE\x91\xCE\x98\xCE\x97\xCE\x9D\xCE\x91 \xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3"),
      ElementsAre("\xCE\xB1\xCE\xB8\xCE\xB7\xCE\xBD\xCE\xB1", "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83"));
  // МОСКВА Привет
  EXPECT_THAT(plain("\xD0\x9C\xD0\x9E\xD0\xA1\xD0\x9A\xD0\x92\xD0\x90 "
                    "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"),
              ElementsAre("\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0",
                          "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"));
  // KELVIN SIGN lowercases to ASCII k.
  EXPECT_THAT(plain("5\xE2\x84\xAA"), ElementsAre("5k"));
}

TEST(AnalyzerTest, CjkLettersAreTokenChars) {
  // 東京タワー (the prolonged sound mark is Lm) and 中文，测试 (fullwidth comma separates).
  EXPECT_THAT(plain("\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x82\xBF\xE3\x83\xAF\xE3\x83\xBC"),
              ElementsAre("\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x82\xBF\xE3\x83\xAF\xE3\x83\xBC"));
  EXPECT_THAT(plain("\xE4\xB8\xAD\xE6\x96\x87\xEF\xBC\x8C\xE6\xB5\x8B\xE8\xAF\x95"),
              ElementsAre("\xE4\xB8\xAD\xE6\x96\x87", "\xE6\xB5\x8B\xE8\xAF\x95"));
  // ASCII then CJK in one run: one token.
  EXPECT_THAT(plain("abc\xE6\x9D\xB1"), ElementsAre("abc\xE6\x9D\xB1"));
}

TEST(AnalyzerTest, CombiningMarksStayInsideTokens) {
  // "E" + COMBINING ACUTE + "COLE" -> "e" + COMBINING ACUTE + "cole"
  EXPECT_THAT(plain("E\xCC\x81"
                    "COLE x"),
              ElementsAre("e\xCC\x81"
                          "cole",
                          "x"));
  // A mark at the start of a run is part of it too.
  EXPECT_THAT(plain(" \xCC\x81"
                    "a"),
              ElementsAre("\xCC\x81"
                          "a"));
}

TEST(AnalyzerTest, NonLettersSeparate) {
  EXPECT_THAT(plain("a\xC2\xA0"
                    "b"),
              ElementsAre("a", "b"));  // NO-BREAK SPACE
  EXPECT_THAT(plain("a\xE2\x82\xAC"
                    "b"),
              ElementsAre("a", "b"));  // €
  EXPECT_THAT(plain("a\xF0\x9F\x98\x80"
                    "b"),
              ElementsAre("a", "b"));  // emoji
  EXPECT_THAT(plain("a\xE2\x80\x94"
                    "b"),
              ElementsAre("a", "b"));  // em dash
  EXPECT_THAT(plain("a\xC2\xB7"
                    "b"),
              ElementsAre("a", "b"));  // middle dot
  EXPECT_THAT(plain("a\xC2\xB2"
                    "b"),
              ElementsAre("a", "b"));  // superscript two (No)
  EXPECT_THAT(plain("a\xE2\x80\x8D"
                    "b"),
              ElementsAre("a", "b"));             // zero width joiner
  EXPECT_THAT(plain("\xE2\x85\xAB"), IsEmpty());  // ROMAN NUMERAL TWELVE
  // A real U+FFFD separates but is not an invalid byte.
  AnalyzerStats stats;
  EXPECT_THAT(plain("a\xEF\xBF\xBD"
                    "b",
                    &stats),
              ElementsAre("a", "b"));
  EXPECT_EQ(stats.invalidBytes, 0u);
}

TEST(AnalyzerTest, InvalidUtf8IsReplacedCountedAndSeparates) {
  struct Case {
    const char* name;
    std::string bytes;
    std::uint64_t invalid;
  };
  // "ab" INVALID "cd" (literals split so hex escapes do not swallow the letters).
  const std::vector<Case> cases = {
      {"lone continuation", "\x80", 1},          {"truncated 2-byte", "\xC3", 1},
      {"truncated 3-byte", "\xE2\x82", 2},       {"truncated 4-byte", "\xF0\x9F\x98", 3},
      {"overlong C0 80", "\xC0\x80", 2},         {"overlong E0 80 80", "\xE0\x80\x80", 3},
      {"surrogate ED A0 80", "\xED\xA0\x80", 3}, {"F5 lead", "\xF5", 1},
      {"F5 sequence", "\xF5\x80\x80\x80", 4},    {"FF", "\xFF", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    AnalyzerStats stats;
    EXPECT_THAT(plain("ab" + c.bytes + "cd", &stats), ElementsAre("ab", "cd"));
    EXPECT_EQ(stats.invalidBytes, c.invalid);
    EXPECT_EQ(stats.tokens, 2u);
    // Inside non-ASCII tokens (the general path) and at the very end of the text.
    stats = {};
    EXPECT_THAT(plain("\xC3\xA9" + c.bytes + "\xC3\xA9", &stats),
                ElementsAre("\xC3\xA9", "\xC3\xA9"));
    EXPECT_EQ(stats.invalidBytes, c.invalid);
    stats = {};
    EXPECT_THAT(plain("caf\xC3\xA9" + c.bytes, &stats), ElementsAre("caf\xC3\xA9"));
    EXPECT_EQ(stats.invalidBytes, c.invalid);
    stats = {};
    EXPECT_THAT(plain(c.bytes, &stats), IsEmpty());
    EXPECT_EQ(stats.invalidBytes, c.invalid);
  }
  // A truncated sequence right after an ASCII run: the run is finished on the general path.
  AnalyzerStats stats;
  EXPECT_THAT(plain("Caf\xC3", &stats), ElementsAre("caf"));
  EXPECT_EQ(stats.invalidBytes, 1u);
}

TEST(AnalyzerTest, OverlongTokensAreSkippedNotTruncated) {
  AnalyzerStats stats;
  EXPECT_THAT(plain(std::string(kMax, 'A'), &stats), ElementsAre(std::string(kMax, 'a')));
  EXPECT_EQ(stats.overlongTokens, 0u);
  EXPECT_THAT(plain("x " + std::string(kMax + 1, 'a') + " y", &stats), ElementsAre("x", "y"));
  EXPECT_EQ(stats.overlongTokens, 1u);
  EXPECT_EQ(stats.tokens, 3u);

  // Multi-byte characters count in bytes: 32 x é = 64 bytes.
  const std::string e = "\xC3\xA9";
  EXPECT_THAT(plain(repeat(e, 32)), ElementsAre(repeat(e, 32)));
  EXPECT_THAT(plain(repeat(e, 32) + "a"), IsEmpty());
  // ASCII run continued by a non-ASCII character: 62 + 2 bytes kept, 63 + 2 skipped.
  EXPECT_THAT(plain(std::string(62, 'a') + e), ElementsAre(std::string(62, 'a') + e));
  stats = {};
  EXPECT_THAT(plain(std::string(63, 'a') + e + " ok", &stats), ElementsAre("ok"));
  EXPECT_EQ(stats.overlongTokens, 1u);
  // A huge token is skipped once, whatever path it takes.
  stats = {};
  EXPECT_THAT(plain(std::string(1 << 20, 'a') + e + std::string(1000, 'b') + " ok", &stats),
              ElementsAre("ok"));
  EXPECT_EQ(stats.overlongTokens, 1u);

  // The limit applies after lowercasing: KELVIN SIGN is 3 bytes but lowercases to "k";
  // U+023A is 2 bytes but lowercases to U+2C65, 3 bytes.
  const std::string kelvin = "\xE2\x84\xAA";
  EXPECT_THAT(plain(repeat(kelvin, kMax)), ElementsAre(std::string(kMax, 'k')));
  EXPECT_THAT(plain(repeat("\xC8\xBA", 21)), ElementsAre(repeat("\xE2\xB1\xA5", 21)));
  EXPECT_THAT(plain(repeat("\xC8\xBA", 22)), IsEmpty());
}

TEST(AnalyzerTest, StatsAccumulateOverCalls) {
  Analyzer analyzer;
  std::vector<std::string> out;
  AnalyzerStats stats;
  analyzer.analyze("one two \xFF", out, &stats);
  analyzer.analyze("three " + std::string(100, 'x'), out, &stats);
  analyzer.analyze("four", out, nullptr);
  EXPECT_THAT(out, ElementsAre("one", "two", "three", "four"));
  EXPECT_EQ(stats.tokens, 3u);
  EXPECT_EQ(stats.invalidBytes, 1u);
  EXPECT_EQ(stats.overlongTokens, 1u);
  EXPECT_EQ(stats.stopWords, 0u);
}

TEST(AnalyzerTest, EnglishRemovesStopWordsAndStems) {
  AnalyzerStats stats;
  EXPECT_THAT(english("The running connections are Relational", &stats),
              ElementsAre("run", "connect", "relat"));
  EXPECT_EQ(stats.stopWords, 2u);
  EXPECT_EQ(stats.tokens, 3u);
  EXPECT_THAT(english("caresses ponies"), ElementsAre("caress", "poni"));
  EXPECT_THAT(english("generalizations"), ElementsAre("gener"));
  // Plain keeps stop words and does not stem.
  EXPECT_THAT(plain("The running"), ElementsAre("the", "running"));
}

TEST(AnalyzerTest, EnglishChecksStopWordsBeforeStemming) {
  // "this" is a stop word (its stem "thi" is not); "thes" is not (its stem "the" is).
  AnalyzerStats stats;
  EXPECT_THAT(english("this thes", &stats), ElementsAre("the"));
  EXPECT_EQ(stats.stopWords, 1u);
}

TEST(AnalyzerTest, EnglishNeverEmitsAnEmptyStem) {
  // Porter stems the word "s" to nothing; the token stays "s".
  EXPECT_THAT(english("s S's"), ElementsAre("s", "s", "s"));
}

TEST(AnalyzerTest, EnglishStemsNonAsciiTokens) {
  EXPECT_THAT(english("CAF\xC3\x89ING"), ElementsAre("caf\xC3\xA9"));
}

// The English analyzer caches stems in a fixed-size table; many distinct words force evictions
// and collisions, which must never change a result.
TEST(AnalyzerTest, EnglishResultsDoNotDependOnHistory) {
  std::vector<std::string> words;
  const char* suffixes[] = {"", "s", "ing", "ed", "ation", "ness", "ies", "ly"};
  for (int i = 0; i < 4000; ++i) {
    std::string stem;
    for (int v = i; v > 0 || stem.empty(); v /= 7) stem.push_back("bcdfglmnprst"[v % 7]);
    stem.insert(1, "a");
    for (const char* suffix : suffixes) words.push_back(stem + suffix);
  }
  std::string forward;
  std::string backward;
  for (std::size_t i = 0; i < words.size(); ++i) {
    forward += words[i] + ' ';
    backward += words[words.size() - 1 - i] + ' ';
  }
  Analyzer reused(AnalyzerKind::English);
  std::vector<std::string> first;
  std::vector<std::string> again;
  std::vector<std::string> reversed;
  reused.analyze(forward, first);
  reused.analyze(forward, again);
  reused.analyze(backward, reversed);
  std::reverse(reversed.begin(), reversed.end());
  ASSERT_EQ(first.size(), words.size());
  EXPECT_EQ(again, first);
  EXPECT_EQ(reversed, first);
  // The oracle: a fresh analyzer, whose cache is empty, for a sample of the words.
  for (std::size_t i = 0; i < words.size(); i += 61) {
    SCOPED_TRACE(words[i]);
    std::vector<std::string> alone;
    Analyzer(AnalyzerKind::English).analyze(words[i], alone);
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(first[i], alone[0]);
  }
  std::vector<std::string> sample;
  Analyzer(AnalyzerKind::English).analyze("bacing bacation bacness", sample);
  EXPECT_THAT(sample, ElementsAre("bace", "bacat", "bac"));
}

TEST(AnalyzerTest, EnglishStopListIsLucenes33Words) {
  const std::vector<std::string_view> expected = {
      "a",   "an",    "and",  "are",   "as",    "at",   "be",   "but", "by",  "for",  "if",
      "in",  "into",  "is",   "it",    "no",    "not",  "of",   "on",  "or",  "such", "that",
      "the", "their", "then", "there", "these", "they", "this", "to",  "was", "will", "with"};
  const auto& words = engine::englishStopWords();
  EXPECT_EQ(words.size(), 33u);
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  EXPECT_EQ(words, expected);
  for (std::string_view w : words) {
    SCOPED_TRACE(std::string(w));
    AnalyzerStats stats;
    std::string upper(w);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](char c) { return static_cast<char>(c - 'a' + 'A'); });
    EXPECT_THAT(english(std::string(w) + " " + upper, &stats), IsEmpty());
    EXPECT_EQ(stats.stopWords, 2u);
    EXPECT_THAT(plain(w), ElementsAre(std::string(w)));
  }
}

TEST(AnalyzerTest, NamesAndIdentities) {
  EXPECT_EQ(Analyzer(AnalyzerKind::Plain).identity(), "plain/1");
  EXPECT_EQ(Analyzer(AnalyzerKind::English).identity(), "english-porter-lucene33/1");
  EXPECT_EQ(Analyzer().kind(), AnalyzerKind::Plain);
  for (AnalyzerKind kind : {AnalyzerKind::Plain, AnalyzerKind::English}) {
    EXPECT_EQ(Analyzer::parseKind(Analyzer::kindName(kind)), kind);
    EXPECT_EQ(Analyzer::kindFromIdentity(Analyzer(kind).identity()), kind);
  }
  EXPECT_STREQ(Analyzer::kindName(AnalyzerKind::Plain), "plain");
  EXPECT_STREQ(Analyzer::kindName(AnalyzerKind::English), "english");
}

TEST(AnalyzerTest, UnknownNamesThrowTheRightErrorKind) {
  try {
    Analyzer::parseKind("french");
    FAIL() << "parseKind accepted 'french'";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_STREQ(e.what(), "unknown analyzer 'french' (expected plain or english)");
  }
  EXPECT_THROW(Analyzer::parseKind("Plain"), engine::Error);
  for (std::string_view identity : {"plain/2", "english/1", "", "plain"}) {
    try {
      Analyzer::kindFromIdentity(identity);
      FAIL() << "kindFromIdentity accepted '" << identity << "'";
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
    }
  }
}

TEST(AnalyzerTest, MovingKeepsTheStemmer) {
  Analyzer a(AnalyzerKind::English);
  Analyzer b(std::move(a));
  std::vector<std::string> out;
  b.analyze("the connections", out);
  EXPECT_THAT(out, ElementsAre("connect"));
  Analyzer c;
  c = std::move(b);
  EXPECT_EQ(c.kind(), AnalyzerKind::English);
  out.clear();
  c.analyze("running", out);
  EXPECT_THAT(out, ElementsAre("run"));
}

TEST(AnalyzerTest, PlainMatchesReferenceOnRandomInput) {
  constexpr std::uint64_t kBaseSeed = 0x5EED'A11A'0001ull;
  Analyzer analyzer;
  for (std::uint64_t iteration = 0; iteration < 3000; ++iteration) {
    const std::uint64_t seed = kBaseSeed + iteration;
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const std::string text = randomText(rng);
    std::vector<std::string> out;
    AnalyzerStats stats;
    analyzer.analyze(text, out, &stats);
    const Reference expected = referenceTokens(text);
    ASSERT_EQ(out, expected.tokens);
    ASSERT_EQ(stats.invalidBytes, expected.invalid);
    ASSERT_EQ(stats.overlongTokens, expected.overlong);
    ASSERT_EQ(stats.tokens, out.size());
  }
}

TEST(AnalyzerTest, TokensOfRandomInputAreCleanAndStable) {
  constexpr std::uint64_t kBaseSeed = 0x5EED'A11A'0002ull;
  Analyzer plainAnalyzer(AnalyzerKind::Plain);
  Analyzer englishAnalyzer(AnalyzerKind::English);
  for (std::uint64_t iteration = 0; iteration < 3000; ++iteration) {
    const std::uint64_t seed = kBaseSeed + iteration;
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const std::string text = randomText(rng);
    for (Analyzer* analyzer : {&plainAnalyzer, &englishAnalyzer}) {
      std::vector<std::string> out;
      analyzer->analyze(text, out);
      for (const std::string& token : out) {
        SCOPED_TRACE(token);
        ASSERT_FALSE(token.empty());
        ASSERT_LE(token.size(), kMax);
        ASSERT_TRUE(engine::isValidUtf8(token));
        std::size_t pos = 0;
        while (pos < token.size()) {
          const engine::Utf8Char c = engine::decodeUtf8(token, pos);
          ASSERT_TRUE(engine::isTokenChar(c.codePoint));
          ASSERT_EQ(engine::toLowerSimple(c.codePoint), c.codePoint);
          pos += c.length;
        }
        if (analyzer == &plainAnalyzer) {
          std::vector<std::string> again;
          AnalyzerStats stats;
          plainAnalyzer.analyze(token, again, &stats);
          ASSERT_THAT(again, ElementsAre(token));
          ASSERT_EQ(stats.invalidBytes + stats.overlongTokens, 0u);
        }
      }
    }
  }
}

}  // namespace
}  // namespace wandscope::test
