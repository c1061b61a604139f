// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/snippet_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <QTextLayout>

namespace wandscope::widgets {

SnippetDelegate::SnippetDelegate(int highlightsRole, QObject* parent)
    : QStyledItemDelegate(parent), m_highlightsRole(highlightsRole) {}

QColor SnippetDelegate::highlightColor(const QPalette& palette) {
  const bool dark = palette.color(QPalette::Base).lightness() < 128;
  return dark ? QColor(0x8a, 0x66, 0x10) : QColor(0xff, 0xe0, 0x82);
}

QList<QTextLayout::FormatRange> SnippetDelegate::highlightFormats(const QList<int>& highlights, int textLength,
                                                                  const QPalette& palette, bool selected) {
  QList<QTextLayout::FormatRange> formats;
  for (int i = 0; i + 1 < highlights.size(); i += 2) {
    const int start = std::max(0, highlights[i]);
    const int end = std::min(textLength, highlights[i] + highlights[i + 1]);
    if (end <= start) continue;
    QTextLayout::FormatRange r;
    r.start = start;
    r.length = end - start;
    r.format.setFontWeight(QFont::Bold);
    if (!selected) {
      r.format.setBackground(highlightColor(palette));
      r.format.setForeground(palette.color(QPalette::Text));
    }
    formats.push_back(r);
  }
  return formats;
}

void SnippetDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  const QVariant highlightData = index.data(m_highlightsRole);
  if (!highlightData.isValid()) {  // not a snippet cell: the standard look
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QString text = opt.text;
  opt.text.clear();
  const QWidget* widget = opt.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);  // background, selection, focus

  const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(2, 0, -2, 0);
  if (text.isEmpty() || rect.width() <= 0) return;
  const bool selected = opt.state & QStyle::State_Selected;
  const auto highlights = highlightData.value<QList<int>>();

  QTextLayout layout(text, opt.font);
  QTextOption to;
  to.setWrapMode(QTextOption::NoWrap);
  layout.setTextOption(to);
  layout.setFormats(highlightFormats(highlights, static_cast<int>(text.size()), opt.palette, selected));
  layout.beginLayout();
  QTextLine line = layout.createLine();
  layout.endLayout();
  if (!line.isValid()) return;

  painter->save();
  painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
  const QFontMetrics fm(opt.font);
  const double y = rect.top() + (rect.height() - line.height()) / 2.0;
  if (line.naturalTextWidth() <= rect.width()) {
    painter->setClipRect(rect);
    layout.draw(painter, QPointF(rect.left(), y));
  } else {
    // Cut at a character boundary that leaves room for the ellipsis.
    const QString ellipsis = QStringLiteral("\u2026");
    const int room = rect.width() - fm.horizontalAdvance(ellipsis);
    const int cut = line.xToCursor(room, QTextLine::CursorBetweenCharacters);
    const double cutX = line.cursorToX(cut);
    painter->setClipRect(QRectF(rect.left(), rect.top(), std::max(0.0, cutX), rect.height()));
    layout.draw(painter, QPointF(rect.left(), y));
    painter->setClipRect(rect);
    painter->drawText(QPointF(rect.left() + cutX, y + fm.ascent()), ellipsis);
  }
  painter->restore();
}

QSize SnippetDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QSize s = QStyledItemDelegate::sizeHint(option, index);
  // Bold highlights are wider than the plain text the base class measured.
  s.setWidth(std::min(s.width() + s.width() / 10, 900));
  return s;
}

}  // namespace wandscope::widgets
