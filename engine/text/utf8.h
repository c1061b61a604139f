// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wandscope::engine {

// Replaces each byte of malformed UTF-8.
inline constexpr char32_t kReplacementChar = U'\uFFFD';

// One step of decoding.
struct Utf8Char {
  char32_t codePoint;  // kReplacementChar when !valid
  std::size_t length;  // bytes consumed: 1..4, and always 1 when !valid
  bool valid;
};

// Decodes the character that starts at text[pos] (requires pos < text.size()).
//
// Well-formed means the sequences of Unicode's table 3-7: no overlong forms (C0, C1, E0 80..9F,
// F0 80..8F), no surrogates (ED A0..BF), nothing above U+10FFFF (F4 90.., F5..FF), no lone or
// missing continuation bytes. When the sequence at `pos` is not well-formed, only its first byte
// is consumed and reported invalid; decoding resumes at the next byte, so every byte of malformed
// input yields exactly one U+FFFD (e.g. "\xE2\x82" gives two, "\xED\xA0\x80" three).
Utf8Char decodeUtf8(std::string_view text, std::size_t pos) noexcept;

// Appends `cp` encoded as UTF-8. Values that are not Unicode scalar values (surrogates, above
// U+10FFFF) append U+FFFD instead.
void appendUtf8(std::string& out, char32_t cp);

// The number of bytes appendUtf8 appends for `cp` (1..4).
std::size_t utf8Length(char32_t cp) noexcept;

// True if decodeUtf8 finds no invalid byte in `text`.
bool isValidUtf8(std::string_view text) noexcept;

}  // namespace wandscope::engine
