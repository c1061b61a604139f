// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The whitespace rules the line-oriented readers (corpus, queries, qrels, runs) share: the six
// ASCII blanks of C's isspace in the "C" locale, never the locale's.
#include <cstddef>
#include <string_view>
#include <vector>

namespace wandscope::engine {

constexpr bool isAsciiSpace(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

constexpr std::string_view trimAsciiSpace(std::string_view s) noexcept {
  while (!s.empty() && isAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// True for an empty line and for one of blanks only.
constexpr bool isBlankLine(std::string_view line) noexcept { return trimAsciiSpace(line).empty(); }

// The fields of `line` separated by runs of blanks (TREC run and qrels files), into `fields`.
inline void splitAtAsciiSpace(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isAsciiSpace(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !isAsciiSpace(line[i])) ++i;
    fields.push_back(line.substr(start, i - start));
  }
}

}  // namespace wandscope::engine
