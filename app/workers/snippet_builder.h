// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/parsed_query.h"
#include "engine/text/analyzer.h"

#include <QList>
#include <QString>

#include <string>
#include <unordered_set>
#include <vector>

namespace wandscope::app {

struct Snippet {
  QString text;
  QList<int> highlights;  // (start, length) pairs of UTF-16 offsets into `text`
};

// Cuts a snippet out of a stored text around the first word that matches a query term, and marks
// every matching word in it. A word matches when the index's analyzer turns it into a query term,
// so "Running" matches the query "run" under the english analyzer exactly as the index does.
// Not thread-safe (it owns an Analyzer): one per worker thread.
class SnippetBuilder {
 public:
  SnippetBuilder(engine::AnalyzerKind kind, const engine::ParsedQuery& query);

  // About `maxChars` characters of `text` (whole words; "..." marks cut ends).
  Snippet build(const QString& text, int maxChars = 220);
  // Every matching word of `text` (all of it), e.g. for a title.
  QList<int> highlight(const QString& text);
  // `text` for one line of a table cell: every control character (C0, DEL, C1: newlines, tabs,
  // escapes) and line or paragraph separator (U+2028, U+2029) becomes a space, one for one, so
  // offsets into it stay those of `text`. A U+2028 left in made the cell's text layout end the
  // line there and the rest of the snippet vanished; an escape drew as a box.
  static QString oneLine(QString text);

  // Only this many leading characters of a text are searched for a match.
  static constexpr int kScanLimit = 20'000;

 private:
  struct Word {
    int start;
    int length;
  };
  static std::vector<Word> words(const QString& text, int limit);
  bool matches(QStringView word);

  engine::Analyzer m_analyzer;
  std::unordered_set<std::string> m_terms;
  std::vector<std::string> m_scratch;
};

}  // namespace wandscope::app
