// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_reader.h"

#include "engine/core/error.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/text_fields.h"

#include <string>
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
  Document doc;
  while (reader.next(doc)) {
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
  if (skippedLines != nullptr) *skippedLines = reader.skippedLines() + duplicates;
  return queries;
}

}  // namespace wandscope::engine
