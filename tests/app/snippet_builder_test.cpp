// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/snippet_builder.h"

#include <gtest/gtest.h>

namespace wandscope::test {
namespace {

using app::SnippetBuilder;

engine::ParsedQuery query(std::initializer_list<const char*> terms) {
  engine::ParsedQuery q;
  for (const char* t : terms) {
    engine::QueryTerm term;
    term.text = t;
    term.id = 0;
    q.terms.push_back(term);
  }
  return q;
}

QStringList highlighted(const QString& text, const QList<int>& spans) {
  QStringList out;
  for (int i = 0; i + 1 < spans.size(); i += 2) out << text.mid(spans[i], spans[i + 1]);
  return out;
}

TEST(SnippetBuilder, MatchesWordsTheWayTheIndexAnalyzesThem) {
  SnippetBuilder english(engine::AnalyzerKind::English, query({"run", "dog"}));
  const QString text = QStringLiteral("The Running dog sat; two dogs run, and a cat ran.");
  const auto s = english.build(text);
  EXPECT_EQ(s.text, text);
  EXPECT_EQ(highlighted(s.text, s.highlights),
            (QStringList{QStringLiteral("Running"), QStringLiteral("dog"), QStringLiteral("dogs"), QStringLiteral("run")}));

  SnippetBuilder plain(engine::AnalyzerKind::Plain, query({"alpha"}));
  EXPECT_EQ(highlighted(QStringLiteral("Alpha, ALPHA alphas"), plain.highlight(QStringLiteral("Alpha, ALPHA alphas"))),
            (QStringList{QStringLiteral("Alpha"), QStringLiteral("ALPHA")}));
}

TEST(SnippetBuilder, CutsAWindowAroundTheFirstMatch) {
  QString text;
  for (int i = 0; i < 500; ++i) text += QStringLiteral("filler%1 ").arg(i);
  text += QStringLiteral("needle ");
  for (int i = 0; i < 500; ++i) text += QStringLiteral("more%1 ").arg(i);
  SnippetBuilder b(engine::AnalyzerKind::Plain, query({"needle"}));
  const auto s = b.build(text, 200);
  EXPECT_TRUE(s.text.startsWith(QStringLiteral("\u2026")));
  EXPECT_TRUE(s.text.endsWith(QStringLiteral("\u2026")));
  EXPECT_LE(s.text.size(), 204);
  ASSERT_EQ(s.highlights.size(), 2);
  EXPECT_EQ(s.text.mid(s.highlights[0], s.highlights[1]), QStringLiteral("needle"));
}

TEST(SnippetBuilder, HandlesNoMatchNewlinesAndAstralCharacters) {
  SnippetBuilder b(engine::AnalyzerKind::Plain, query({"zeta"}));
  const auto none = b.build(QStringLiteral("nothing\nhere\tat all"));
  EXPECT_EQ(none.text, QStringLiteral("nothing here at all"));
  EXPECT_TRUE(none.highlights.isEmpty());
  const QString astral = QStringLiteral("\U0001D400\U0001D401 zeta \U0001F600 zeta");
  const auto s = b.build(astral);
  EXPECT_EQ(highlighted(s.text, s.highlights), (QStringList{QStringLiteral("zeta"), QStringLiteral("zeta")}));
  EXPECT_TRUE(b.build(QString()).text.isEmpty());
}

// A stored text with U+2028 lost everything after it in the results table (the cell's text
// layout ends a line there), and an escape or a bell drew as a box: every control character and
// line or paragraph separator reads as a space, the highlights where they were.
TEST(SnippetBuilder, ControlCharactersAndLineSeparatorsBecomeSpaces) {
  SnippetBuilder b(engine::AnalyzerKind::Plain, query({"zeta", "eta"}));
  const QString raw = QStringLiteral("alpha\u2028zeta\u001b[1mbeta\u0007\u0085gamma\u2029eta\u007f\u000b end");
  const auto s = b.build(raw);
  EXPECT_EQ(s.text, QStringLiteral("alpha zeta [1mbeta  gamma eta   end"));
  EXPECT_EQ(highlighted(s.text, s.highlights), (QStringList{QStringLiteral("zeta"), QStringLiteral("eta")}));
  EXPECT_EQ(SnippetBuilder::oneLine(QStringLiteral("a\u0000b\u009fc\u2028d")), QStringLiteral("a b c d"));
}

}  // namespace
}  // namespace wandscope::test
