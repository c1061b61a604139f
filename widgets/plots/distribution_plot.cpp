// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"

#include "engine/core/wording.h"
#include "widgets/plots/plot_style.h"
#include "widgets/rate_format.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

namespace wandscope::widgets {
namespace {

QColor seriesColor(int i, bool dark) {
  static const QColor light[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xe6, 0x6a, 0x00), QColor(0x2c, 0xa0, 0x2c),
                                 QColor(0xa0, 0x30, 0xa0), QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf)};
  static const QColor darkColors[] = {QColor(0x6c, 0xb4, 0xf0), QColor(0xff, 0xa6, 0x4d), QColor(0x7e, 0xd3, 0x7e),
                                      QColor(0xe0, 0x8c, 0xe0), QColor(0xd0, 0x9c, 0x8f), QColor(0x7e, 0xe0, 0xec)};
  constexpr int kColours = static_cast<int>(std::size(light));
  return dark ? darkColors[i % kColours] : light[i % kColours];
}

// setSeriesLook's marks: the pen's dash and the marker's shape of a variant.
Qt::PenStyle variantPen(int variant) {
  switch (variant) {
    case 1: return Qt::DashLine;
    case 2: return Qt::DotLine;
    default: return Qt::SolidLine;
  }
}

QCPScatterStyle::ScatterShape variantShape(int variant) {
  switch (variant) {
    case 1: return QCPScatterStyle::ssSquare;
    case 2: return QCPScatterStyle::ssTriangle;
    default: return QCPScatterStyle::ssDisc;
  }
}

// A legend entry that is no series' own (DistributionPlot::LegendKey): a short line in the key's
// colour and dash with its marker, as a series' entry draws it, then the name.
class KeyLegendItem : public QCPAbstractLegendItem {
 public:
  KeyLegendItem(QCPLegend* legend, DistributionPlot::LegendKey key)
      : QCPAbstractLegendItem(legend), m_key(std::move(key)) {}

  QString text() const {
    return QFontMetrics(mFont).elidedText(m_key.name, Qt::ElideMiddle, DistributionPlot::kLegendKeyMaxWidth);
  }
  bool newRow() const noexcept { return m_key.newRow; }

 protected:
  void draw(QCPPainter* painter) override {
    const QSize icon = mParentLegend->iconSize();
    const QString name = text();
    painter->setFont(mFont);
    painter->setPen(QPen(mTextColor));
    const QRect textRect = painter->fontMetrics().boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, name);
    painter->drawText(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(), textRect.width(),
                      std::max(textRect.height(), icon.height()), Qt::TextDontClip, name);
    const QColor c = m_key.colour < 0 ? mTextColor : seriesColor(m_key.colour, isDarkPalette(mParentPlot->palette()));
    const QRectF iconRect(mRect.topLeft(), icon);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    painter->setPen(QPen(c, 2, variantPen(m_key.variant)));
    painter->drawLine(QLineF(iconRect.left(), iconRect.center().y(), iconRect.right(), iconRect.center().y()));
    if (m_key.variant >= 0) {
      const QCPScatterStyle marks(variantShape(m_key.variant), c, c, 6);
      marks.applyTo(painter, painter->pen());
      marks.drawShape(painter, iconRect.center());
    }
    painter->restore();
  }

  QSize minimumOuterSizeHint() const override {
    const QSize icon = mParentLegend->iconSize();
    const QRect textRect = QFontMetrics(mFont).boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text());
    return {icon.width() + mParentLegend->iconTextPadding() + textRect.width() + mMargins.left() + mMargins.right(),
            std::max(textRect.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
  }

 private:
  DistributionPlot::LegendKey m_key;
};

// As the reports write figures (engine::significant): "0.00003", "2,500,000", never an exponent.
QString formatNumber(double v) { return QString::fromStdString(engine::significant(v)); }

// A linear axis's tick labels in the same form as the points' tooltips: QCustomPlot's own labels
// drop the digit grouping ("60000" shed requests) and turn to powers of ten from a million.
class SignificantTicker : public QCPAxisTicker {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    // A tick computed as 0.1 * 3 is 0.30000000000000004; one near zero of a symmetric range is
    // a rounding residue of 0.
    return formatNumber(std::abs(tick) < 1e-12 ? 0.0 : tick);
  }
};

// A key as the ticks and the tooltips write it: a rate as report.md writes rates, else a number.
QString keyLabel(double key, bool rates) { return rates ? formatRate(key) : formatNumber(key); }

// Ticks at the keys the plot holds (KeyTicks::AtKeys, AtRates), from the lowest up, leaving out a
// key whose label would come within kGap pixels of the last one kept: a crowded ladder keeps every
// other rung rather than writing labels over each other. The labels' room is measured on the axis
// as laid out (chosenFor says for which length).
class KeysTicker : public QCPAxisTicker {
 public:
  KeysTicker(const QCPAxis* axis, bool rates) : m_axis(axis), m_rates(rates) {}

  // Ascending, each once.
  void setKeys(QVector<double> keys) { m_keys = std::move(keys); }
  // The axis length (pixels) the ticks were last chosen for; -1 before the first time.
  int chosenFor() const noexcept { return m_chosenFor; }
  QString text(double key) const { return keyLabel(key, m_rates); }

 protected:
  QVector<double> createTickVector(double, const QCPRange& range) override {
    constexpr double kGap = 10;
    const QFontMetricsF metrics(m_axis->tickLabelFont());
    m_chosenFor = m_axis->axisRect()->width();
    QVector<double> ticks;
    double end = -std::numeric_limits<double>::infinity();  // the last label's right edge
    for (const double key : m_keys) {
      if (!range.contains(key)) continue;
      const double half = metrics.horizontalAdvance(text(key)) / 2;
      const double at = m_axis->coordToPixel(key);
      if (at - half < end + kGap) continue;
      ticks.push_back(key);
      end = at + half;
    }
    return ticks;
  }
  int getSubTickCount(double) override { return 0; }
  QString getTickLabel(double tick, const QLocale&, QChar, int) override { return text(tick); }

 private:
  const QCPAxis* m_axis;  // owns the ticker
  bool m_rates;
  QVector<double> m_keys;
  int m_chosenFor = -1;
};

}  // namespace

DistributionPlot::DistributionPlot(QWidget* parent)
    : LivePlot(parent, QStringLiteral("No data"), /*subGrid=*/true) {
  // The legend lives in its own row under the axis rect while shown (setLegendVisible), never
  // inside it: inside, it covered the newest points of live plots.
  axisRect()->insetLayout()->take(legend);
  axisRect()->insetLayout()->simplify();
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(3);
  legend->setRowSpacing(0);
  legend->setColumnSpacing(8);
  legend->setIconSize(18, 9);
  legend->setMargins(QMargins(4, 0, 4, 2));
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
  legend->setFont(legendFont);
  legend->setVisible(false);
  setNoAntialiasingOnDrag(true);
  setLogarithmic(true, true);
  applyPalette();
  rescale();
}

void DistributionPlot::setAxisLabels(const QString& x, const QString& y) {
  xAxis->setLabel(x);
  setValueLabel(y);
}

void DistributionPlot::setLogarithmic(bool x, bool y) {
  m_logX = x;
  m_logY = y;
  const bool atKeys = m_keyTicks == KeyTicks::AtKeys || m_keyTicks == KeyTicks::AtRates;
  for (auto [axis, log] : {std::pair{xAxis, x}, std::pair{yAxis, y}}) {
    if (axis == xAxis && atKeys) {
      axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
      axis->setTicker(QSharedPointer<QCPAxisTicker>(new KeysTicker(axis, m_keyTicks == KeyTicks::AtRates)));
    } else if (log) {
      axis->setScaleType(QCPAxis::stLogarithmic);
      axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
      axis->setNumberFormat(QStringLiteral("eb"));  // 10^n, "beautiful" powers
      axis->setNumberPrecision(0);
    } else if (axis == xAxis && m_keyTicks == KeyTicks::Integers) {
      axis->setScaleType(QCPAxis::stLinear);
      auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
      ticker->setTickStep(1.0);
      ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, 5, 10 ... when crowded
      axis->setTicker(ticker);
      axis->setNumberFormat(QStringLiteral("f"));
      axis->setNumberPrecision(0);
    } else {
      axis->setScaleType(QCPAxis::stLinear);
      axis->setTicker(QSharedPointer<QCPAxisTicker>(new SignificantTicker));
    }
  }
  scheduleReplot();
}

void DistributionPlot::setKeyTicks(KeyTicks ticks) {
  m_keyTicks = ticks;
  setLogarithmic(m_logX, m_logY);  // re-creates the key axis' ticker for the new kind of ticks
}

QString DistributionPlot::keyText(double key) const {
  return keyLabel(key, m_keyTicks == KeyTicks::AtRates);
}

int DistributionPlot::addSeries(const QString& name, Style style) {
  QCPGraph* g = addGraph();
  g->setName(name);
  if (!m_keys.isEmpty()) g->removeFromLegend();  // the keys stand for it
  m_styles.push_back(style);
  m_colours.push_back(graphCount() - 1);
  m_variants.push_back(0);
  m_toolTipNames.push_back(QString());
  setLegendVisible(graphCount() > 1);
  applyPalette();
  scheduleReplot();
  return graphCount() - 1;
}

void DistributionPlot::setLegendVisible(bool visible) {
  const bool placed = legend->layout() == plotLayout();
  if (visible && !placed) {
    const int row = plotLayout()->rowCount();  // under the title and the axis rect
    plotLayout()->insertRow(row);
    plotLayout()->addElement(row, 0, legend);
    plotLayout()->setRowStretchFactor(row, 0.001);
  } else if (!visible && placed) {
    plotLayout()->take(legend);
    plotLayout()->simplify();
  }
  legend->setVisible(visible);
  scheduleReplot();
}

void DistributionPlot::setSeriesData(int series, const QVector<double>& keys, const QVector<double>& values) {
  if (series < 0 || series >= graphCount()) return;
  graph(series)->data()->clear();
  appendSeriesData(series, keys, values);
}

void DistributionPlot::appendSeriesData(int series, const QVector<double>& keys, const QVector<double>& values) {
  if (series < 0 || series >= graphCount()) return;
  QVector<double> k;
  QVector<double> v;
  const auto n = std::min(keys.size(), values.size());
  k.reserve(n);
  v.reserve(n);
  for (qsizetype i = 0; i < n; ++i) {
    if ((m_logX && !(keys[i] > 0)) || (m_logY && !(values[i] > 0))) continue;  // log axes: positive only
    k.push_back(keys[i]);
    v.push_back(values[i]);
  }
  if (!k.isEmpty()) graph(series)->addData(k, v, true);
  scheduleReplot();
}

void DistributionPlot::clearData() {
  for (int i = 0; i < graphCount(); ++i) graph(i)->data()->clear();
  scheduleReplot();
}

void DistributionPlot::clearSeries() {
  setLegendKeys({});
  clearGraphs();
  m_styles.clear();
  m_colours.clear();
  m_variants.clear();
  m_toolTipNames.clear();
  setLegendVisible(false);
}

void DistributionPlot::setSeriesLook(int series, int colour, int variant) {
  if (series < 0 || series >= graphCount()) return;
  m_colours[series] = colour;
  m_variants[series] = variant;
  applyPalette();
  scheduleReplot();
}

void DistributionPlot::setSeriesToolTipName(int series, const QString& name) {
  if (series < 0 || series >= graphCount()) return;
  m_toolTipNames[series] = name;
}

void DistributionPlot::setLegendKeys(const QVector<LegendKey>& keys) {
  m_keys = keys;
  legend->clearItems();
  if (m_keys.isEmpty()) {
    for (int i = 0; i < graphCount(); ++i) graph(i)->addToLegend();
  } else {
    for (const LegendKey& key : m_keys) legend->addItem(new KeyLegendItem(legend, key));
  }
  scheduleReplot();
}

QStringList DistributionPlot::legendTexts() const {
  QStringList texts;
  if (!legend->visible()) return texts;
  for (int i = 0; i < legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = legend->item(i);
    if (const auto* key = dynamic_cast<const KeyLegendItem*>(item)) {
      texts << key->text();
    } else if (auto* own = qobject_cast<QCPPlottableLegendItem*>(item)) {
      texts << own->plottable()->name();
    }
  }
  return texts;
}

int DistributionPlot::pointCount(int series) const {
  if (series < 0 || series >= graphCount()) return 0;
  return graph(series)->dataCount();
}

void DistributionPlot::rescale() {
  double kMin = std::numeric_limits<double>::infinity(), kMax = -kMin;
  double vMin = kMin, vMax = -kMin;
  bool any = false;
  // The keys themselves only for ticks at the keys (a df histogram holds thousands of points).
  const auto ticker = xAxis->ticker().dynamicCast<KeysTicker>();
  QVector<double> keys;
  for (int i = 0; i < graphCount(); ++i) {
    for (const auto& p : *graph(i)->data()) {
      if (ticker) keys.push_back(p.key);
      kMin = std::min(kMin, p.key);
      kMax = std::max(kMax, p.key);
      vMin = std::min(vMin, p.value);
      vMax = std::max(vMax, p.value);
      any = true;
    }
  }
  setEmptyTextShown(!any);
  if (ticker) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    ticker->setKeys(keys);
  }
  if (!any) {
    xAxis->setRange(m_logX ? 1 : 0, m_logX ? 1000 : 1);
    yAxis->setRange(m_logY ? 1 : 0, m_logY ? 1000 : 1);
    return;
  }
  auto range = [](double lo, double hi, bool log) {
    // Log axes span whole decades at least: a narrower range gets sub-decade labels
    // ("2·10^1" twice) that crowd a small plot.
    if (log) {
      return QCPRange(std::min(lo / 1.6, std::pow(10.0, std::floor(std::log10(lo)))),
                      std::max(hi * 1.6, std::pow(10.0, std::ceil(std::log10(hi)))));
    }
    // At least 1 % of the value each side: a nearly flat series (RSS to the kB) must not get
    // ticks like 154.599, 154.6, 154.601.
    const double pad = hi > lo ? std::max(0.05 * (hi - lo), 0.01 * std::max(std::abs(lo), std::abs(hi)))
                               : std::max(1.0, std::abs(hi) * 0.1);
    return QCPRange(lo - pad, hi + pad);
  };
  yAxis->setRange(range(vMin, vMax, m_logY));
  if (!ticker) {
    xAxis->setRange(range(kMin, kMax, m_logX));
    return;
  }
  // The ticks are the keys themselves, not whole decades: the range only leaves room for the
  // outer keys' labels, centred on them (a tenth of the span each side).
  if (m_logX) {
    const double ratio = kMax > kMin ? std::max(1.2, std::pow(kMax / kMin, 0.1)) : 2.0;
    xAxis->setRange(kMin / ratio, kMax * ratio);
  } else {
    const double pad = kMax > kMin ? 0.1 * (kMax - kMin) : std::max(1.0, std::abs(kMax) * 0.1);
    xAxis->setRange(kMin - pad, kMax + pad);
  }
}

void DistributionPlot::styleSeries(bool dark) {
  for (int i = 0; i < graphCount(); ++i) {
    QCPGraph* g = graph(i);
    const QColor c = seriesColor(m_colours.value(i, i), dark);
    const int variant = m_variants.value(i, 0);
    g->setPen(QPen(c, 2, variantPen(variant)));
    g->setBrush(Qt::NoBrush);
    g->setScatterStyle(QCPScatterStyle::ssNone);
    switch (m_styles.value(i, Style::Line)) {
      case Style::Line: g->setLineStyle(QCPGraph::lsLine); break;
      case Style::Steps: {
        g->setLineStyle(QCPGraph::lsStepLeft);
        QColor fill = c;
        fill.setAlpha(60);
        g->setBrush(fill);
        break;
      }
      case Style::Points:
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(variantShape(variant), c, c, 4));
        break;
      case Style::LinePoints:
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle(variantShape(variant), c, c, 6));
        break;
    }
  }
}

QString DistributionPlot::pointToolTip(const QCPGraph& g, const QCPGraphData& p) const {
  QString name = g.name();
  for (int i = 0; i < graphCount(); ++i) {
    if (graph(i) == &g && !m_toolTipNames.value(i).isEmpty()) name = m_toolTipNames.value(i);
  }
  return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
      .arg(name.toHtmlEscaped(), xAxis->label().toHtmlEscaped(), keyText(p.key),
           valueLabel().toHtmlEscaped(), formatNumber(p.value));  // the axis drops it when short
}

void DistributionPlot::updateLayout() {
  fitLegendColumns();
  LivePlot::updateLayout();
  // Ticks at the keys are chosen for the axis's length before the layout sets it: the first
  // layout at a new size chose them for the old one (too many labels when the plot shrank).
  const auto ticker = xAxis->ticker().dynamicCast<KeysTicker>();
  if (ticker && ticker->chosenFor() != axisRect()->width()) LivePlot::updateLayout();
}

void DistributionPlot::fitLegendColumns() {
  if (!legend->visible() || legend->layout() != plotLayout()) return;
  struct Entry {
    QCPLayoutElement* item;
    int width;
    bool newRow;
  };
  QVector<Entry> entries;
  for (int i = 0; i < legend->elementCount(); ++i) {
    QCPLayoutElement* item = legend->elementAt(i);
    if (item == nullptr) continue;
    const auto* key = dynamic_cast<const KeyLegendItem*>(item);
    entries.push_back({item, item->minimumOuterSizeHint().width(), key != nullptr && key->newRow()});
  }
  if (entries.isEmpty()) return;
  const int room = viewport().width() - legend->margins().left() - legend->margins().right();
  // Each entry's row and column for at most `columns` to a row, breaking at newRow when `breaks`.
  auto place = [&](int columns, bool breaks) {
    QVector<QPoint> cells;
    int row = 0, column = 0;
    for (const Entry& e : entries) {
      if (column > 0 && (column == columns || (breaks && e.newRow))) {
        ++row;
        column = 0;
      }
      cells.push_back(QPoint(column++, row));
    }
    return cells;
  };
  auto width = [&](const QVector<QPoint>& cells) {
    QVector<int> column;
    for (int i = 0; i < entries.size(); ++i) {
      if (cells[i].x() >= column.size()) column.resize(cells[i].x() + 1, 0);
      column[cells[i].x()] = std::max(column[cells[i].x()], entries[i].width);
    }
    int total = static_cast<int>(column.size() - 1) * legend->columnSpacing();
    for (const int w : column) total += w;
    return total;
  };
  const auto n = static_cast<int>(entries.size());
  QVector<QPoint> cells = place(n, false);
  for (int columns = n; columns >= 1 && width(cells) > room; --columns) cells = place(columns, true);
  int used = 0;  // columns
  bool placed = true;
  for (int i = 0; i < n; ++i) {
    const QPoint c = cells[i];
    used = std::max(used, c.x() + 1);
    placed = placed && c.y() < legend->rowCount() && c.x() < legend->columnCount() &&
             legend->element(c.y(), c.x()) == entries[i].item;
  }
  if (placed && legend->rowCount() == cells.back().y() + 1 && legend->columnCount() == used) return;
  for (const Entry& e : entries) legend->take(e.item);
  legend->simplify();
  for (int i = 0; i < n; ++i) legend->addElement(cells[i].y(), cells[i].x(), entries[i].item);
}

QString DistributionPlot::exportFileName() const {
  QString base = title().isEmpty() ? QStringLiteral("plot") : title();
  base.replace(QLatin1Char(' '), QLatin1Char('-'));
  return base + QStringLiteral(".png");
}

}  // namespace wandscope::widgets
