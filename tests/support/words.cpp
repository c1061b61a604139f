// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/words.h"

#include <sstream>

namespace wandscope::test {

std::vector<std::string> splitSpaces(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

void asciiTerms(const std::string& text, std::vector<std::string>& out) {
  std::string term;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      term += c;
    } else if (c >= 'A' && c <= 'Z') {
      term += static_cast<char>(c - 'A' + 'a');
    } else if (!term.empty()) {
      out.push_back(term);
      term.clear();
    }
  }
  if (!term.empty()) out.push_back(term);
}

}  // namespace wandscope::test
