// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Character properties the analyzer needs, for every code point. The definitions live in
// unicode_tables.cpp, which scripts/gen_unicode_tables.py generates from one Unicode version;
// tokens depend on that version, so changing it changes the analyzer identity.

namespace wandscope::engine {

// True for general categories L* (letters), M* (marks) and Nd (decimal digits); false for
// everything else, including unassigned code points, surrogates and values above U+10FFFF.
bool isTokenChar(char32_t cp) noexcept;

// The simple (one-to-one) lowercase mapping: Python's str.lower() of the single code point when
// that is a single code point, otherwise `cp` itself (e.g. U+0130 stays U+0130). Lowercasing a
// token char yields a token char, and toLowerSimple(toLowerSimple(c)) == toLowerSimple(c).
char32_t toLowerSimple(char32_t cp) noexcept;

// The Unicode version the tables were generated from, e.g. "14.0.0".
const char* unicodeVersion() noexcept;

}  // namespace wandscope::engine
