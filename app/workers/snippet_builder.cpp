// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/snippet_builder.h"

#include <algorithm>

namespace wandscope::app {
namespace {

// Whether the code point at `i` belongs to a word (letters, marks, digits: the analyzer's token
// characters), and its length in UTF-16 units.
bool wordCharAt(const QString& text, int i, int* units) {
  const QChar c = text[i];
  if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
    *units = 2;
    const char32_t ucs = QChar::surrogateToUcs4(c, text[i + 1]);
    return QChar::isLetterOrNumber(ucs) || QChar::isMark(ucs);
  }
  *units = 1;
  return c.isLetterOrNumber() || c.isMark();
}

}  // namespace

SnippetBuilder::SnippetBuilder(engine::AnalyzerKind kind, const engine::ParsedQuery& query) : m_analyzer(kind) {
  for (const auto& t : query.terms) m_terms.insert(t.text);
}

std::vector<SnippetBuilder::Word> SnippetBuilder::words(const QString& text, int limit) {
  std::vector<Word> out;
  const int n = std::min(static_cast<int>(text.size()), limit);
  int i = 0;
  while (i < n) {
    int units = 1;
    if (!wordCharAt(text, i, &units)) {
      i += units;
      continue;
    }
    const int start = i;
    while (i < n && wordCharAt(text, i, &units)) i += units;
    out.push_back(Word{start, i - start});
  }
  return out;
}

bool SnippetBuilder::matches(QStringView word) {
  if (m_terms.empty()) return false;
  m_scratch.clear();
  m_analyzer.analyze(word.toUtf8().toStdString(), m_scratch);
  return std::any_of(m_scratch.begin(), m_scratch.end(), [&](const std::string& t) { return m_terms.count(t) > 0; });
}

QList<int> SnippetBuilder::highlight(const QString& text) {
  QList<int> out;
  for (const Word& w : words(text, kScanLimit)) {
    if (matches(QStringView(text).mid(w.start, w.length))) out << w.start << w.length;
  }
  return out;
}

QString SnippetBuilder::oneLine(QString text) {
  for (QChar& c : text) {
    const QChar::Category cat = c.category();
    if (cat == QChar::Other_Control || cat == QChar::Separator_Line || cat == QChar::Separator_Paragraph) {
      c = QLatin1Char(' ');
    }
  }
  return text;
}

Snippet SnippetBuilder::build(const QString& raw, int maxChars) {
  // Stored texts may contain newlines, tabs and other control characters: one line in a table cell.
  const QString text = oneLine(raw);
  const auto all = words(text, kScanLimit);
  std::vector<bool> hit(all.size(), false);
  std::size_t first = all.size();
  for (std::size_t i = 0; i < all.size(); ++i) {
    hit[i] = matches(QStringView(text).mid(all[i].start, all[i].length));
    if (hit[i] && first == all.size()) first = i;
  }

  // The window starts a few words before the first match (or at the start) and ends after
  // maxChars characters, on word boundaries.
  int begin = 0;
  if (first != all.size()) {
    std::size_t w = first;
    while (w > 0 && all[first].start - all[w - 1].start <= maxChars / 4) --w;
    begin = all[w].start;
  }
  int end = std::min(static_cast<int>(text.size()), begin + maxChars);
  if (end < text.size()) {
    // Do not cut a word: end at the last word that fits.
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      if (it->start + it->length <= end && it->start >= begin) {
        end = it->start + it->length;
        break;
      }
    }
  }
  Snippet s;
  const bool cutFront = begin > 0;
  const bool cutBack = end < text.size();
  if (cutFront) s.text += QStringLiteral("\u2026");
  const int shift = static_cast<int>(s.text.size()) - begin;
  s.text += text.mid(begin, end - begin);
  if (cutBack) s.text += QStringLiteral("\u2026");
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!hit[i] || all[i].start < begin || all[i].start + all[i].length > end) continue;
    s.highlights << all[i].start + shift << all[i].length;
  }
  return s;
}

}  // namespace wandscope::app
