// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QString>
#include <QStyledItemDelegate>

#include <map>
#include <tuple>

namespace wandscope::widgets {

// Draws a right-aligned column of decimal figures so that their decimal points line up. The
// figures are formatFigure's - the shortest decimal that reads back as the same f32, exactly what
// `wandscope-cli search` prints: "1146.3198", "6.1975584", "3", "12.5" - so their decimals vary,
// and right-aligned they stood out of line by up to seven digits. Fixed decimals would either drop
// digits the CLI shows or print zeros the f32 does not have; instead each cell is drawn as it is,
// moved left by the width its fraction ("." and what follows) lacks against the widest fraction of
// its column. A figure without a fraction ends where the others' points are. The text stays the
// model's (a copied cell is the CLI's figure), only where it is drawn changes; the size hint
// includes the shift, so a column sized to its contents shows every figure whole. Cells that are
// not right-aligned are drawn as usual.
class DecimalDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  explicit DecimalDelegate(QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The rectangle the cell's text is drawn in, right-aligned (its right edge is where the text
  // ends): the style's text rectangle less its margins and the cell's shift. `option` as a view
  // passes it (rect, font, widget), before the model's roles are applied.
  QRect textRect(const QStyleOptionViewItem& option, const QModelIndex& index) const;
  // The pixels the cell is moved left: the widest fraction of its column minus its own.
  int shift(const QStyleOptionViewItem& option, const QModelIndex& index) const;
  // "." and the digits after it ("" for "3", "\u2013" or an empty cell).
  static QString fractionOf(const QString& text);

 private:
  // The widest fraction of the index's column in pixels, each row in its own font (a bold sum row
  // too); cached until the model changes.
  int columnFraction(const QStyleOptionViewItem& option, const QModelIndex& index) const;
  void watch(const QAbstractItemModel* model) const;

  // (model, column, the view's font) -> widest fraction.
  mutable std::map<std::tuple<const QAbstractItemModel*, int, QString>, int> m_widths;
  mutable std::map<const QAbstractItemModel*, bool> m_watched;
};

}  // namespace wandscope::widgets
