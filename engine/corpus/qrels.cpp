// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/qrels.h"

#include "engine/core/error.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/text_fields.h"

#include <charconv>
#include <string_view>
#include <vector>

namespace wandscope::engine {

namespace {

// Fields separated by single tabs, each trimmed (BEIR TSV); runs of blanks (TREC) go through
// splitAtAsciiSpace.
void splitTabs(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  for (;;) {
    const std::size_t tab = line.find('\t');
    fields.push_back(trimAsciiSpace(line.substr(0, tab)));
    if (tab == std::string_view::npos) break;
    line.remove_prefix(tab + 1);
  }
}

bool parseInt(std::string_view text, int& value) noexcept {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

enum class QrelsFormat { BeirTsv, Trec };

}  // namespace

// Format: a first non-empty line starting with "query-id" is the BEIR header. Otherwise a first
// line of exactly three tab-separated fields is BEIR TSV without a header; anything else is TREC.
Qrels readQrels(const std::filesystem::path& path, BadLinePolicy policy,
                std::uint64_t* skippedLines) {
  LineReader lines(path);
  Qrels qrels;
  std::uint64_t skipped = 0;
  std::vector<std::string_view> fields;
  bool first = true;
  QrelsFormat format = QrelsFormat::Trec;

  const auto fail = [&](const std::string& what) {
    if (policy == BadLinePolicy::Stop) {
      throwBadInput(path.string() + ":" + std::to_string(lines.lineNumber()) + ": " + what);
    }
    ++skipped;
  };

  std::string_view line;
  while (lines.next(line)) {
    if (isBlankLine(line)) continue;
    if (first) {
      first = false;
      if (trimAsciiSpace(line).starts_with("query-id")) {
        format = QrelsFormat::BeirTsv;
        continue;  // the header
      }
      splitTabs(line, fields);
      format = fields.size() == 3 ? QrelsFormat::BeirTsv : QrelsFormat::Trec;
    }
    std::string_view query;
    std::string_view doc;
    std::string_view grade;
    const char* gradeName = nullptr;
    if (format == QrelsFormat::BeirTsv) {
      splitTabs(line, fields);
      if (fields.size() != 3) {
        fail("expected 3 tab-separated fields (query-id, corpus-id, score), found " +
             std::to_string(fields.size()));
        continue;
      }
      query = fields[0];
      doc = fields[1];
      grade = fields[2];
      gradeName = "score";
      if (query.empty()) {
        fail("empty query-id");
        continue;
      }
      if (doc.empty()) {
        fail("empty corpus-id");
        continue;
      }
    } else {
      splitAtAsciiSpace(line, fields);
      if (fields.size() != 4) {
        fail("expected 4 fields (qid iteration docid relevance), found " +
             std::to_string(fields.size()));
        continue;
      }
      query = fields[0];
      doc = fields[2];
      grade = fields[3];
      gradeName = "relevance";
    }
    int value = 0;
    if (!parseInt(grade, value)) {
      fail(std::string(gradeName) + " '" + std::string(grade) + "' is not an integer");
      continue;
    }
    // A repeated pair keeps the last grade.
    qrels.judgements[std::string(query)][std::string(doc)] = value;
  }
  if (skippedLines != nullptr) *skippedLines = skipped;
  return qrels;
}

}  // namespace wandscope::engine
