// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_reader.h"

#include "engine/core/error.h"
#include "engine/corpus/json_string.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/text_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_set>

namespace wandscope::engine {

namespace {

// The format of a query file: JSON lines when its name says so (.jsonl or .json, gzipped or not:
// a bad first line then gets the JSON error, not "missing tab"), else from its first non-empty
// line: '{' -> JSON lines, else TSV. An empty file reads as TSV (and yields no queries).
CorpusFormat detectQueryFormat(const std::filesystem::path& path) {
  if (fileNameEndsWith(path, {".jsonl", ".jsonl.gz", ".json", ".json.gz"})) return CorpusFormat::Beir;
  LineReader lines(path);
  std::string_view line;
  while (lines.next(line)) {
    for (const char c : line) {
      if (!isAsciiSpace(c)) return c == '{' ? CorpusFormat::Beir : CorpusFormat::MsMarco;
    }
  }
  return CorpusFormat::MsMarco;
}

// ASCII control characters other than the blanks: NUL, ESC, DEL and the rest. The blanks (tab,
// newline, ...) are whitespace, which a TREC run refuses when it is written and a dump holds
// (escaped); the others have no use in an id and would reach runs, reports and terminals raw (ESC
// starts a terminal escape sequence, NUL cuts a C string).
constexpr bool isControlNotBlank(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 || u == 0x7F) && !isAsciiSpace(c);
}

// The id quoted and escaped as a JSON string, so the message shows what the file holds.
std::string quotedId(std::string_view id) {
  std::string out;
  appendJsonString(out, id);
  return out;
}

}  // namespace

// The two query formats are the corpus formats minus the title, so the corpus reader does the
// parsing (same strict JSON, same error messages); a "title" key in a JSON query is ignored.
std::vector<QueryRecord> readQueries(const std::filesystem::path& path, BadLinePolicy policy,
                                     std::uint64_t* skippedLines) {
  const CorpusFormat format = detectQueryFormat(path);
  CorpusReader reader(path, format, policy);
  std::vector<QueryRecord> queries;
  std::unordered_set<std::string> seen;
  std::uint64_t duplicates = 0;
  std::uint64_t controls = 0;
  Document doc;
  while (reader.next(doc)) {
    // The reader has checked that the id is UTF-8; control characters are the queries' own rule.
    const auto control = std::find_if(doc.id.begin(), doc.id.end(), isControlNotBlank);
    if (control != doc.id.end()) {
      if (policy == BadLinePolicy::Stop) {
        throwBadInput(fmt::format("{}:{}: query id {} contains a control character (byte 0x{:02X} at byte {} of it)",
                                  path.string(), reader.lineNumber(), quotedId(doc.id),
                                  static_cast<unsigned char>(*control), control - doc.id.begin() + 1));
      }
      ++controls;
      continue;
    }
    if (!seen.insert(doc.id).second) {
      if (policy == BadLinePolicy::Stop) {
        throwBadInput(path.string() + ":" + std::to_string(reader.lineNumber()) +
                      ": duplicate query id " + doc.id);
      }
      ++duplicates;
      continue;
    }
    queries.push_back(QueryRecord{std::move(doc.id), std::move(doc.text)});
  }
  if (skippedLines != nullptr) *skippedLines = reader.skippedLines() + duplicates + controls;
  return queries;
}

}  // namespace wandscope::engine
