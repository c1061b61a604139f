// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/utf8.h"

namespace wandscope::engine {
namespace {

constexpr Utf8Char kInvalid{kReplacementChar, 1, false};

constexpr bool isContinuation(unsigned char b) noexcept {
  return (b & 0xC0) == 0x80;
}

constexpr bool isScalarValue(char32_t cp) noexcept {
  return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

}  // namespace

Utf8Char decodeUtf8(std::string_view text, std::size_t pos) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + pos;
  const std::size_t avail = text.size() - pos;
  const unsigned char b0 = p[0];
  if (b0 < 0x80) return {b0, 1, true};

  // The lead byte fixes the length and the allowed range of the second byte (Unicode table 3-7);
  // that range is what excludes overlong forms, surrogates and values above U+10FFFF.
  std::size_t length = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  char32_t cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    cp = b0 & 0x1Fu;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    cp = b0 & 0x0Fu;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    cp = b0 & 0x07u;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return kInvalid;  // 80..BF (lone continuation), C0, C1, F5..FF
  }
  if (avail < length || p[1] < lo || p[1] > hi) return kInvalid;
  cp = (cp << 6) | (p[1] & 0x3Fu);
  for (std::size_t i = 2; i < length; ++i) {
    if (!isContinuation(p[i])) return kInvalid;
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  return {cp, length, true};
}

std::size_t utf8Length(char32_t cp) noexcept {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000 || !isScalarValue(cp)) return 3;  // U+FFFD replaces non-scalar values
  return 4;
}

void appendUtf8(std::string& out, char32_t cp) {
  if (!isScalarValue(cp)) cp = kReplacementChar;
  char buf[4];
  std::size_t n = 0;
  if (cp < 0x80) {
    buf[n++] = static_cast<char>(cp);
  } else if (cp < 0x800) {
    buf[n++] = static_cast<char>(0xC0 | (cp >> 6));
    buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    buf[n++] = static_cast<char>(0xE0 | (cp >> 12));
    buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    buf[n++] = static_cast<char>(0xF0 | (cp >> 18));
    buf[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  }
  out.append(buf, n);
}

bool isValidUtf8(std::string_view text) noexcept {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const Utf8Char c = decodeUtf8(text, pos);
    if (!c.valid) return false;
    pos += c.length;
  }
  return true;
}

}  // namespace wandscope::engine
