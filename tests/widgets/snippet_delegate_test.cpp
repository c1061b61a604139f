// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/result_table_model.h"
#include "widgets/views/snippet_delegate.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>
#include <QTableView>
#include <QTest>

namespace wandscope::test {
namespace {

using widgets::SnippetDelegate;

TEST(SnippetDelegate, FormatsClipToTheText) {
  const QPalette light;
  const auto formats = SnippetDelegate::highlightFormats({0, 3, 5, 10, -2, 1, 7, 0}, 8, light, false);
  ASSERT_EQ(formats.size(), 2);
  EXPECT_EQ(formats[0].start, 0);
  EXPECT_EQ(formats[0].length, 3);
  EXPECT_EQ(formats[1].start, 5);
  EXPECT_EQ(formats[1].length, 3);  // clipped at the text's end
  EXPECT_EQ(formats[0].format.fontWeight(), QFont::Bold);
  EXPECT_TRUE(formats[0].format.background().style() != Qt::NoBrush);
}

TEST(SnippetDelegate, HighlightColourFollowsThePalette) {
  QPalette dark;
  dark.setColor(QPalette::Base, QColor(20, 20, 20));
  QPalette light;
  light.setColor(QPalette::Base, QColor(250, 250, 250));
  EXPECT_LT(SnippetDelegate::highlightColor(dark).lightness(), SnippetDelegate::highlightColor(light).lightness());
}

TEST(SnippetDelegate, PaintsSnippetsInATable) {
  widgets::ResultTableModel model;
  model.setSnapshot(makeSnapshot());
  QTableView view;
  view.setModel(&model);
  view.setItemDelegate(new SnippetDelegate(widgets::ResultTableModel::HighlightsRole, &view));
  view.resize(500, 200);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  // Narrow snippet column: elided; wide: whole. Neither may crash or paint nothing.
  for (int width : {40, 600}) {
    view.setColumnWidth(model.column(widgets::ResultTableModel::Column::Snippet), width);
    const QImage image = view.grab().toImage();
    EXPECT_FALSE(image.isNull());
  }
  const QSize hint = view.itemDelegate()->sizeHint(QStyleOptionViewItem(),
                                                  model.index(0, model.column(widgets::ResultTableModel::Column::Snippet)));
  EXPECT_GT(hint.width(), 0);
  EXPECT_GT(hint.height(), 0);
}

}  // namespace
}  // namespace wandscope::test
