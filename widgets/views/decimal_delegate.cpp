// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/decimal_delegate.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QStyle>

#include <algorithm>

namespace wandscope::widgets {
namespace {

bool rightAligned(const QStyleOptionViewItem& option) { return (option.displayAlignment & Qt::AlignRight) != 0; }

// The font the view draws the cell in: the model's FontRole over the view's, as
// QStyledItemDelegate::initStyleOption resolves it.
QFont cellFont(const QFont& base, const QModelIndex& index) {
  const QVariant v = index.data(Qt::FontRole);
  return v.isValid() ? qvariant_cast<QFont>(v).resolve(base) : base;
}

int textMargin(const QStyleOptionViewItem& option) {
  const QWidget* widget = option.widget;
  const QStyle* style = widget ? widget->style() : QApplication::style();
  // What QCommonStyle leaves on each side of an item view's text.
  return style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
}

}  // namespace

DecimalDelegate::DecimalDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QString DecimalDelegate::fractionOf(const QString& text) {
  const qsizetype point = text.indexOf(QLatin1Char('.'));
  return point < 0 ? QString() : text.mid(point);
}

void DecimalDelegate::watch(const QAbstractItemModel* model) const {
  if (m_watched.count(model) > 0) return;
  m_watched[model] = true;
  // Any change of the figures or the rows may change the widest fraction.
  const auto forget = [this, model] {
    for (auto it = m_widths.begin(); it != m_widths.end();) {
      it = std::get<0>(it->first) == model ? m_widths.erase(it) : std::next(it);
    }
  };
  connect(model, &QAbstractItemModel::modelReset, this, forget);
  connect(model, &QAbstractItemModel::dataChanged, this, forget);
  connect(model, &QAbstractItemModel::rowsInserted, this, forget);
  connect(model, &QAbstractItemModel::rowsRemoved, this, forget);
  connect(model, &QAbstractItemModel::layoutChanged, this, forget);
  connect(model, &QAbstractItemModel::columnsInserted, this, forget);
  connect(model, &QAbstractItemModel::columnsRemoved, this, forget);
  connect(model, &QObject::destroyed, this, [this, model, forget] {
    forget();
    m_watched.erase(model);
  });
}

int DecimalDelegate::columnFraction(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  const QAbstractItemModel* model = index.model();
  if (model == nullptr) return 0;
  watch(model);
  const auto key = std::make_tuple(model, index.column(), option.font.key());
  const auto it = m_widths.find(key);
  if (it != m_widths.end()) return it->second;
  int widest = 0;
  const int rows = model->rowCount(index.parent());
  for (int r = 0; r < rows; ++r) {
    const QModelIndex cell = model->index(r, index.column(), index.parent());
    const QString fraction = fractionOf(cell.data(Qt::DisplayRole).toString());
    if (!fraction.isEmpty()) widest = std::max(widest, QFontMetrics(cellFont(option.font, cell)).horizontalAdvance(fraction));
  }
  m_widths.emplace(key, widest);
  return widest;
}

int DecimalDelegate::shift(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  if (!rightAligned(opt) || opt.text.isEmpty()) return 0;
  const int own = QFontMetrics(opt.font).horizontalAdvance(fractionOf(opt.text));
  return std::max(0, columnFraction(option, index) - own);
}

QRect DecimalDelegate::textRect(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QWidget* widget = opt.widget;
  const QStyle* style = widget ? widget->style() : QApplication::style();
  const int margin = textMargin(opt);
  return style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin - shift(option, index), 0);
}

void DecimalDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  const int by = shift(option, index);
  if (by <= 0) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QRect rect = textRect(option, index);
  const QString text = opt.text;
  opt.text.clear();
  const QWidget* widget = opt.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);  // background, selection, focus

  // The text as QCommonStyle draws an item's: its colour group and role, elided if need be.
  QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
  if (group == QPalette::Normal && !(opt.state & QStyle::State_Active)) group = QPalette::Inactive;
  const bool selected = (opt.state & QStyle::State_Selected) != 0;
  painter->save();
  painter->setFont(opt.font);
  painter->setPen(opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
  painter->setClipRect(opt.rect);
  const QString shown = QFontMetrics(opt.font).elidedText(text, opt.textElideMode, std::max(rect.width(), 0));
  painter->drawText(rect, static_cast<int>(opt.displayAlignment), shown);
  painter->restore();
}

QSize DecimalDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QSize s = QStyledItemDelegate::sizeHint(option, index);
  s.setWidth(s.width() + shift(option, index));
  return s;
}

}  // namespace wandscope::widgets
