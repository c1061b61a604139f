// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Escaping for the text reports the engine writes. Report fields carry untrusted text (query ids
// and query text from a query file, target specs, build ids a plugin reports, host names), so
// every writer of a structured text format escapes through these functions.

#include <string>
#include <string_view>

namespace wandscope::engine {

// One CSV field (RFC 4180): unchanged unless it holds a comma, a double quote, CR or LF; then
// enclosed in double quotes with each double quote doubled.
std::string csvField(std::string_view text);

// Text for HTML element content and double- or single-quoted attribute values: & < > " ' become
// &amp; &lt; &gt; &quot; &#39;. Everything else (UTF-8 included) passes through.
std::string htmlEscape(std::string_view text);

// Text for one cell of a Markdown (GitHub) table: a '|' would end the cell and a line break the
// row, so '|' becomes "\|" and CR/LF become spaces. Everything else passes through.
std::string markdownCell(std::string_view text);

}  // namespace wandscope::engine
