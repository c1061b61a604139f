// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPalette>
#include <QStyledItemDelegate>
#include <QTextLayout>

namespace wandscope::widgets {

// Draws a result snippet on one line with the query terms highlighted. The highlight ranges come
// from the model as QList<int> (start, length) pairs under `highlightsRole`; text that does not
// fit is elided with "..." at the end. Cells without that role are drawn as usual, so it can be a
// view's delegate for every column.
class SnippetDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  explicit SnippetDelegate(int highlightsRole, QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The text formats for `highlights` (bold on a highlight colour suited to `palette`); ranges
  // outside [0, textLength) are clipped and empty ones dropped.
  static QList<QTextLayout::FormatRange> highlightFormats(const QList<int>& highlights, int textLength,
                                                          const QPalette& palette, bool selected);
  // The background of a highlighted word for a palette (light or dark).
  static QColor highlightColor(const QPalette& palette);

 private:
  int m_highlightsRole;
};

}  // namespace wandscope::widgets
