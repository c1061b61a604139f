// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wandscope::test {

// The whitespace-separated words of `text`, in order.
std::vector<std::string> splitSpaces(const std::string& text);

// Appends the terms of `text` recounted without the engine's analyzer: lowercased runs of ASCII
// letters and digits (the generated corpora are ASCII, where this is exactly the plain analyzer's
// rule).
void asciiTerms(const std::string& text, std::vector<std::string>& out);

}  // namespace wandscope::test
