// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 decoding/encoding (engine/text/utf8.h) and the generated Unicode tables
// (engine/text/unicode_tables.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/text/unicode_tables.h"
#include "engine/text/utf8.h"

namespace wandscope::test {
namespace {

using engine::appendUtf8;
using engine::decodeUtf8;
using engine::isTokenChar;
using engine::isValidUtf8;
using engine::kReplacementChar;
using engine::toLowerSimple;
using engine::Utf8Char;
using engine::utf8Length;

struct DecodedText {
  std::vector<char32_t> codePoints;
  int invalid = 0;
};

DecodedText decodeText(std::string_view text) {
  DecodedText d;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const Utf8Char c = decodeUtf8(text, pos);
    EXPECT_GE(c.length, 1u);
    EXPECT_LE(c.length, 4u);
    if (!c.valid) {
      EXPECT_EQ(c.length, 1u);
      EXPECT_EQ(c.codePoint, kReplacementChar);
      ++d.invalid;
    }
    d.codePoints.push_back(c.codePoint);
    pos += c.length;
  }
  EXPECT_EQ(pos, text.size());
  return d;
}

std::string encode(char32_t cp) {
  std::string s;
  appendUtf8(s, cp);
  return s;
}

// An independent decoder of one sequence at the start of `s`: take the length from the lead
// byte's bit pattern, require continuation bytes, then reject overlong forms, surrogates and
// values above U+10FFFF. Returns the code point, or nothing if the first byte is invalid.
std::optional<char32_t> oracleDecode(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  std::size_t length = 0;
  char32_t cp = 0;
  if (b0 < 0x80) return b0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    cp = b0 & 0x1Fu;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    cp = b0 & 0x0Fu;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    cp = b0 & 0x07u;
  } else {
    return std::nullopt;
  }
  if (s.size() < length) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const std::size_t minimal = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  if (minimal != length || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  return cp;
}

TEST(Utf8Test, DecodesValidSequencesAtEveryLengthBoundary) {
  const std::vector<std::pair<std::string, char32_t>> cases = {
      {"\x00", 0x0},
      {"\x7F", 0x7F},
      {"\xC2\x80", 0x80},
      {"\xC3\xA9", 0xE9},
      {"\xDF\xBF", 0x7FF},
      {"\xE0\xA0\x80", 0x800},
      {"\xE2\x82\xAC", 0x20AC},
      {"\xED\x9F\xBF", 0xD7FF},
      {"\xEE\x80\x80", 0xE000},
      {"\xEF\xBF\xBD", 0xFFFD},
      {"\xEF\xBF\xBF", 0xFFFF},
      {"\xF0\x90\x80\x80", 0x10000},
      {"\xF0\x9D\x84\x9E", 0x1D11E},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF},
  };
  for (const auto& [bytes, cp] : cases) {
    // "\x00" as a literal would be empty; build the one-byte string explicitly.
    const std::string text = cp == 0 ? std::string(1, '\0') : bytes;
    SCOPED_TRACE(testing::Message() << "U+" << std::hex << static_cast<std::uint32_t>(cp));
    const Utf8Char c = decodeUtf8(text, 0);
    EXPECT_TRUE(c.valid);
    EXPECT_EQ(c.codePoint, cp);
    EXPECT_EQ(c.length, text.size());
    EXPECT_EQ(encode(cp), text);
    EXPECT_EQ(utf8Length(cp), text.size());
    EXPECT_TRUE(isValidUtf8(text));
  }
}

TEST(Utf8Test, EveryInvalidByteBecomesOneReplacementChar) {
  struct Case {
    const char* name;
    std::string bytes;
    int invalid;
  };
  const std::vector<Case> cases = {
      {"lone continuation", "\x80", 1},
      {"two continuations", "\xBF\x80", 2},
      {"truncated 2-byte at end", "\xC3", 1},
      {"truncated 2-byte before ASCII",
       "\xC3"
       "A",
       1},
      {"truncated 3-byte", "\xE2\x82", 2},
      {"truncated 4-byte", "\xF0\x9F\x98", 3},
      {"overlong NUL C0 80", "\xC0\x80", 2},
      {"overlong C1 BF", "\xC1\xBF", 2},
      {"overlong E0 80 80", "\xE0\x80\x80", 3},
      {"overlong E0 9F BF", "\xE0\x9F\xBF", 3},
      {"overlong F0 80 80 80", "\xF0\x80\x80\x80", 4},
      {"overlong F0 8F BF BF", "\xF0\x8F\xBF\xBF", 4},
      {"surrogate ED A0 80", "\xED\xA0\x80", 3},
      {"surrogate ED BF BF", "\xED\xBF\xBF", 3},
      {"above U+10FFFF F4 90 80 80", "\xF4\x90\x80\x80", 4},
      {"F5 lead", "\xF5\x80\x80\x80", 4},
      {"F8 lead", "\xF8", 1},
      {"FE", "\xFE", 1},
      {"FF", "\xFF", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const DecodedText d = decodeText(c.bytes);
    EXPECT_EQ(d.invalid, c.invalid);
    const auto expectedAscii = static_cast<std::size_t>(c.invalid) < c.bytes.size() ? 1u : 0u;
    EXPECT_EQ(d.codePoints.size(), static_cast<std::size_t>(c.invalid) + expectedAscii);
    EXPECT_FALSE(isValidUtf8(c.bytes));
  }
}

TEST(Utf8Test, ValidTextAroundInvalidBytesSurvives) {
  const DecodedText d = decodeText("a\xC3\xA9\xE2\x82z\xF0\x9D\x84\x9E");
  const std::vector<char32_t> expected = {U'a', 0xE9,   kReplacementChar, kReplacementChar,
                                          U'z', 0x1D11E};
  EXPECT_EQ(d.codePoints, expected);
  EXPECT_EQ(d.invalid, 2);
}

TEST(Utf8Test, EncodeDecodeRoundTripsEveryScalarValue) {
  std::string s;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    s.clear();
    appendUtf8(s, cp);
    ASSERT_EQ(s.size(), utf8Length(cp)) << std::hex << static_cast<std::uint32_t>(cp);
    const Utf8Char c = decodeUtf8(s, 0);
    ASSERT_TRUE(c.valid) << std::hex << static_cast<std::uint32_t>(cp);
    ASSERT_EQ(c.codePoint, cp);
    ASSERT_EQ(c.length, s.size());
  }
}

TEST(Utf8Test, NonScalarValuesEncodeAsReplacementChar) {
  EXPECT_EQ(encode(0xD800), "\xEF\xBF\xBD");
  EXPECT_EQ(encode(0xDFFF), "\xEF\xBF\xBD");
  EXPECT_EQ(encode(0x110000), "\xEF\xBF\xBD");
  EXPECT_EQ(encode(0xFFFFFFFF), "\xEF\xBF\xBD");
  EXPECT_EQ(utf8Length(0x110000), 3u);
}

// Every sequence of up to 3 bytes with a non-ASCII lead, plus 4-byte sequences over the
// interesting values of each continuation position, against the independent oracle.
TEST(Utf8Test, AgreesWithOracleOnShortSequences) {
  std::string s(3, '\0');
  for (unsigned b0 = 0x80; b0 <= 0xFF; ++b0) {
    for (unsigned b1 = 0; b1 <= 0xFF; ++b1) {
      for (unsigned b2 = 0; b2 <= 0xFF; ++b2) {
        s[0] = static_cast<char>(b0);
        s[1] = static_cast<char>(b1);
        s[2] = static_cast<char>(b2);
        for (std::size_t len = 1; len <= 3; ++len) {
          const std::string_view v(s.data(), len);
          const Utf8Char c = decodeUtf8(v, 0);
          const std::optional<char32_t> expected = oracleDecode(v);
          ASSERT_EQ(c.valid, expected.has_value()) << std::hex << b0 << ' ' << b1 << ' ' << b2;
          if (expected) {
            ASSERT_EQ(c.codePoint, *expected);
          }
        }
      }
    }
  }
  const unsigned interesting[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
  std::string t(4, '\0');
  for (unsigned b0 = 0xF0; b0 <= 0xFF; ++b0) {
    for (unsigned b1 : interesting) {
      for (unsigned b2 : interesting) {
        for (unsigned b3 : interesting) {
          t[0] = static_cast<char>(b0);
          t[1] = static_cast<char>(b1);
          t[2] = static_cast<char>(b2);
          t[3] = static_cast<char>(b3);
          const Utf8Char c = decodeUtf8(t, 0);
          const std::optional<char32_t> expected = oracleDecode(t);
          ASSERT_EQ(c.valid, expected.has_value())
              << std::hex << b0 << ' ' << b1 << ' ' << b2 << ' ' << b3;
          if (expected) {
            ASSERT_EQ(c.codePoint, *expected);
            ASSERT_EQ(c.length, 4u);
          }
        }
      }
    }
  }
}

TEST(Utf8Test, DecodesFromAnOffsetWithoutReadingPastTheView) {
  const std::string text = "x\xE2\x82\xAC";
  EXPECT_EQ(decodeUtf8(text, 1).codePoint, 0x20ACu);
  // The view ends inside the sequence: truncated, even though the bytes exist in memory.
  EXPECT_FALSE(decodeUtf8(std::string_view(text).substr(0, 3), 1).valid);
}

TEST(UnicodeTablesTest, VersionIsTheOneTokensDependOn) {
  EXPECT_STREQ(engine::unicodeVersion(), "14.0.0");
}

TEST(UnicodeTablesTest, TokenCharsAtCategoryBoundaries) {
  // ASCII: letters and digits only.
  for (char32_t cp = 0; cp < 0x80; ++cp) {
    const bool alnum =
        (cp >= U'0' && cp <= U'9') || (cp >= U'A' && cp <= U'Z') || (cp >= U'a' && cp <= U'z');
    EXPECT_EQ(isTokenChar(cp), alnum) << static_cast<std::uint32_t>(cp);
  }
  const std::vector<std::pair<char32_t, bool>> cases = {
      {0x00A0, false},   // NO-BREAK SPACE (Zs)
      {0x00AA, true},    // FEMININE ORDINAL INDICATOR (Lo)
      {0x00B2, false},   // SUPERSCRIPT TWO (No)
      {0x00B5, true},    // MICRO SIGN (Ll)
      {0x00B7, false},   // MIDDLE DOT (Po)
      {0x00BF, false},   // INVERTED QUESTION MARK (Po)
      {0x00C0, true},    // first Latin-1 letter
      {0x00D7, false},   // MULTIPLICATION SIGN (Sm) between two letter ranges
      {0x00F7, false},   // DIVISION SIGN (Sm)
      {0x02C1, true},    // MODIFIER LETTER REVERSED GLOTTAL STOP (Lm)
      {0x02C2, false},   // MODIFIER LETTER LEFT ARROWHEAD (Sk)
      {0x0300, true},    // COMBINING GRAVE ACCENT (Mn)
      {0x0378, false},   // unassigned
      {0x0660, true},    // ARABIC-INDIC DIGIT ZERO (Nd)
      {0x0903, true},    // DEVANAGARI SIGN VISARGA (Mc)
      {0x20DD, true},    // COMBINING ENCLOSING CIRCLE (Me)
      {0x200D, false},   // ZERO WIDTH JOINER (Cf)
      {0x2014, false},   // EM DASH (Pd)
      {0x2160, false},   // ROMAN NUMERAL ONE (Nl)
      {0x30FC, true},    // KATAKANA-HIRAGANA PROLONGED SOUND MARK (Lm)
      {0x4E00, true},    // first CJK unified ideograph
      {0x9FFF, true},    // last CJK unified ideograph (added in Unicode 14)
      {0xAC00, true},    // HANGUL SYLLABLE GA
      {0xE000, false},   // private use
      {0xFF0C, false},   // FULLWIDTH COMMA
      {0xFF10, true},    // FULLWIDTH DIGIT ZERO (Nd)
      {0xFFFD, false},   // REPLACEMENT CHARACTER (So)
      {0x1D7CE, true},   // MATHEMATICAL BOLD DIGIT ZERO (Nd)
      {0x1F600, false},  // GRINNING FACE (So)
      {0x20000, true},   // CJK Extension B, first
      {0x2A6DF, true},   // CJK Extension B, last
      {0x2A6E0, false},  // unassigned after it
      {0xD800, false},   // surrogate
      {0x10FFFF, false}, {0x110000, false}, {0xFFFFFFFF, false},
  };
  for (const auto& [cp, expected] : cases) {
    EXPECT_EQ(isTokenChar(cp), expected) << "U+" << std::hex << static_cast<std::uint32_t>(cp);
  }
}

TEST(UnicodeTablesTest, SimpleLowercaseMapping) {
  const std::vector<std::pair<char32_t, char32_t>> cases = {
      {U'A', U'a'},
      {U'Z', U'z'},
      {U'@', U'@'},
      {U'[', U'['},
      {U'a', U'a'},
      {U'5', U'5'},
      {0x00C0, 0x00E0},
      {0x00D6, 0x00F6},
      {0x00D7, 0x00D7},
      {0x00DE, 0x00FE},
      {0x00DF, 0x00DF},
      {0x0100, 0x0101},
      {0x0101, 0x0101},
      {0x012E, 0x012F},
      {0x0178, 0x00FF},
      {0x023A, 0x2C65},
      {0x0391, 0x03B1},
      {0x03A3, 0x03C3},
      {0x03C2, 0x03C2},
      {0x0400, 0x0450},
      {0x0410, 0x0430},
      {0x042F, 0x044F},
      {0x13A0, 0xAB70},
      {0x1E9E, 0x00DF},
      {0x2126, 0x03C9},
      {0x212A, U'k'},
      {0x2160, 0x2170},
      {0x24B6, 0x24D0},
      {0xFF21, 0xFF41},
      {0x10400, 0x10428},
      {0x1E900, 0x1E922},
      {0xFFFD, 0xFFFD},
      // Python lowercases U+0130 to two code points ("i" + U+0307): not a simple mapping.
      {0x0130, 0x0130},
      {0xD800, 0xD800},
      {0x110000, 0x110000},
  };
  for (const auto& [cp, lower] : cases) {
    EXPECT_EQ(toLowerSimple(cp), lower) << "U+" << std::hex << static_cast<std::uint32_t>(cp);
  }
}

// What the analyzer relies on for "re-analyzing a token yields the token".
TEST(UnicodeTablesTest, LowercasingIsIdempotentAndKeepsTokenChars) {
  int mapped = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const char32_t lower = toLowerSimple(cp);
    if (lower == cp) continue;
    ++mapped;
    ASSERT_EQ(toLowerSimple(lower), lower) << std::hex << static_cast<std::uint32_t>(cp);
    ASSERT_EQ(isTokenChar(lower), isTokenChar(cp)) << std::hex << static_cast<std::uint32_t>(cp);
  }
  EXPECT_EQ(mapped, 1432);  // the count the generator reports for Unicode 14.0.0
}

}  // namespace
}  // namespace wandscope::test
