// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace wandscope::engine {

// Appends `s` as a JSON string, quotes included: '"' and '\' escaped, the ASCII control
// characters and DEL as \n, \t, ... or \u00XX, so a line holding it stays one line and a message
// quoting it shows what the file holds. Bytes that are not UTF-8 (an id of an index built before
// ids were checked) become U+FFFD, as the analyzer reads them, so the text stays valid JSON.
void appendJsonString(std::string& out, std::string_view s);

}  // namespace wandscope::engine
