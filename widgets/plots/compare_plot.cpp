// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/compare_plot.h"

#include "engine/bench/compare_types.h"
#include "engine/core/wording.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <QFontMetrics>

namespace wandscope::widgets {
namespace {

// Target i's colour: A, B, then B2, B3, ...
QColor targetColor(int i, bool dark) {
  if (i == 0) return dark ? QColor(0x6c, 0xb4, 0xf0) : QColor(0x1f, 0x77, 0xb4);
  if (i == 1) return dark ? QColor(0xff, 0xa6, 0x4d) : QColor(0xe6, 0x6a, 0x00);
  // B2, B3, ...: the next colours of the same (Tableau) cycle, lighter in dark mode.
  static const QColor light[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                 QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22)};
  static const QColor darker[] = {QColor(0x7d, 0xd8, 0x7d), QColor(0xc5, 0xa5, 0xe8), QColor(0xd0, 0x9c, 0x8f),
                                  QColor(0xf5, 0xa8, 0xdb), QColor(0x7e, 0xe0, 0xec), QColor(0xe0, 0xe0, 0x6e)};
  const auto k = static_cast<std::size_t>(i - 2) % std::size(light);
  return dark ? darker[k] : light[k];
}

QCPScatterStyle::ScatterShape seriesShape(int i) {
  static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare,
                                                         QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                                                         QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCross};
  return shapes[static_cast<std::size_t>(i) % std::size(shapes)];
}

// "A", "B", "B2", ...: the report's own target labels.
QString seriesLabel(int i) {
  return QString::fromStdString(engine::CompareReport::targetLabel(static_cast<std::size_t>(i)));
}

}  // namespace

ComparePlot::ComparePlot(QWidget* parent)
    : LivePlot(parent, QStringLiteral("No query set finished yet"), /*subGrid=*/false) {
  setTitle(QStringLiteral("CPU ms/query per query set"));
  // The legend in its own row between the title and the axis rect: it never covers a point.
  plotLayout()->insertRow(1);
  plotLayout()->addElement(1, 0, legend);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(2);
  legend->setMargins(QMargins(4, 0, 4, 0));
  legend->setIconSize(20, 10);
  legend->setIconTextPadding(4);
  plotLayout()->setRowStretchFactor(0, 0.001);
  plotLayout()->setRowStretchFactor(1, 0.001);
  plotLayout()->setRowSpacing(0);
  legend->setVisible(true);

  m_names = QStringList{QStringLiteral("A"), QStringLiteral("B")};
  for (const QString& name : m_names) addGraph()->setName(name);
  m_ticker.reset(new QCPAxisTickerText);
  xAxis->setTicker(m_ticker);
  xAxis->setTickLabelRotation(0);
  xAxis->setLabel(QStringLiteral("query set"));
  setValueLabel(QStringLiteral("CPU ms/query"));
  xAxis->grid()->setVisible(false);
  axisRect()->setRangeZoom(Qt::Vertical);
  axisRect()->setRangeDrag(Qt::Vertical);
  applyPalette();
  rescale();
}

void ComparePlot::setCategoryLabel(const QString& label) {
  xAxis->setLabel(label);
  scheduleReplot();
}

void ComparePlot::setTargets(const QString& a, const QString& b) { setTargets(QStringList{a, b}); }

void ComparePlot::setTargets(const QStringList& targets) {
  const int n = std::max(2, static_cast<int>(targets.size()));
  while (graphCount() > n) removeGraph(graphCount() - 1);
  while (graphCount() < n) addGraph();
  m_names.clear();
  for (int i = 0; i < n; ++i) {
    m_names << (i < targets.size() ? QStringLiteral("%1: %2").arg(seriesLabel(i), targets[i]) : seriesLabel(i));
  }
  fitLegend();
  applyPalette();
  scheduleReplot();
}

QString ComparePlot::valueText(double ms) {
  return std::isfinite(ms) && ms > 0 ? QString::fromStdString(engine::significant(ms)) + QStringLiteral(" ms")
                                     : QStringLiteral("\u2014");
}

QString ComparePlot::metricName() const {
  // The value label without its unit, which valueText() writes: "p50 latency (ms)" -> "p50
  // latency". valueLabel(), not the axis': a short plot takes the axis label off.
  QString name = valueLabel();
  if (name.endsWith(QLatin1String(" (ms)"))) name.chop(5);
  return name;
}

QString ComparePlot::pointText(int series, int set) const {
  if (series < 0 || series >= graphCount() || set < 0 || set >= m_sets.size()) return {};
  for (const auto& p : *graph(series)->data()) {
    if (p.key == static_cast<double>(set)) return pointToolTip(*graph(series), p);
  }
  return {};
}

QString ComparePlot::seriesName(int series) const {
  return series >= 0 && series < graphCount() ? m_names.value(series) : QString();
}

QString ComparePlot::legendText(int series) const {
  return series >= 0 && series < graphCount() ? graph(series)->name() : QString();
}

void ComparePlot::fitLegend() {
  // One row: with three targets in a 300-pixel plot the legend took two rows (and ran past the
  // right edge), out of a data area of 80 pixels. Each entry gets an equal share of the width;
  // the full names are in the point tooltips and the target rows above.
  const int n = graphCount();
  if (n == 0) return;
  const QMargins itemMargins = legend->item(0) ? legend->item(0)->margins() : QMargins(7, 5, 7, 4);
  const int share = (width() - legend->margins().left() - legend->margins().right()) / n;
  const int room = std::max(share - legend->iconSize().width() - legend->iconTextPadding() - itemMargins.left() -
                                itemMargins.right() - 2,
                            0);
  const QFontMetrics metrics(legend->font());
  for (int i = 0; i < n; ++i) {
    const QString full = m_names.value(i, seriesLabel(i));
    // Never less than the label itself ("B2"): it is what the table calls the target.
    const QString text = metrics.horizontalAdvance(full) <= room
                             ? full
                             : std::max(metrics.elidedText(full, Qt::ElideRight, room), seriesLabel(i),
                                        [](const QString& a, const QString& b) { return a.size() < b.size(); });
    if (graph(i)->name() != text) graph(i)->setName(text);
  }
  if (legend->wrap() != n) {
    legend->setWrap(n);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // lays the entries out again
  }
}

void ComparePlot::addSet(const QString& querySet, double a, double b) { addSet(querySet, std::vector<double>{a, b}); }

void ComparePlot::addSet(const QString& querySet, const std::vector<double>& values) {
  const double key = static_cast<double>(m_sets.size());
  m_sets << querySet;
  m_ticker->addTick(key, querySet);
  for (int i = 0; i < graphCount() && static_cast<std::size_t>(i) < values.size(); ++i) {
    const double v = values[static_cast<std::size_t>(i)];
    if (std::isfinite(v) && v > 0) graph(i)->addData(key, v);
  }
  scheduleReplot();
}

void ComparePlot::setPoint(const QString& category, int series, double value) {
  if (series < 0 || series >= graphCount()) return;
  qsizetype i = m_sets.indexOf(category);
  if (i < 0) {
    i = m_sets.size();
    m_sets << category;
    m_ticker->addTick(static_cast<double>(i), category);
  }
  const double key = static_cast<double>(i);
  QCPGraph* g = graph(series);
  g->data()->remove(key);
  if (std::isfinite(value) && value > 0) g->addData(key, value);
  scheduleReplot();
}

void ComparePlot::clearData() {
  m_sets.clear();
  m_ticker->clear();
  for (int i = 0; i < graphCount(); ++i) graph(i)->data()->clear();
  scheduleReplot();
}

int ComparePlot::pointCount(int series) const {
  return series >= 0 && series < graphCount() ? graph(series)->dataCount() : 0;
}

double ComparePlot::value(int series, int set) const {
  if (series < 0 || series >= graphCount()) return std::numeric_limits<double>::quiet_NaN();
  for (const auto& p : *graph(series)->data()) {
    if (p.key == static_cast<double>(set)) return p.value;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

void ComparePlot::rescale() {
  fitLegend();
  double hi = 0;
  bool any = false;
  for (int i = 0; i < graphCount(); ++i) {
    for (const auto& p : *graph(i)->data()) {
      hi = std::max(hi, p.value);
      any = true;
    }
  }
  setEmptyTextShown(!any);
  // Many sets: slanted names, so neighbours do not hide each other.
  xAxis->setTickLabelRotation(m_sets.size() > 4 ? -25 : 0);
  // Sets at 0, 1, ...: half a step of room on each side; values from 0 so heights compare.
  xAxis->setRange(-0.5, std::max(0.5, static_cast<double>(m_sets.size()) - 0.5));
  yAxis->setRange(0, any ? hi * 1.15 : 1);
  // A tick label every 28 pixels at most: a short plot (Compare with three targets on an 800-pixel
  // screen) printed five labels one over another.
  yAxis->ticker()->setTickCount(std::clamp(axisRect()->height() / 28, 2, 5));
}

void ComparePlot::styleSeries(bool dark) {
  for (int i = 0; i < graphCount(); ++i) {
    const QColor c = targetColor(i, dark);
    QCPGraph* g = graph(i);
    g->setPen(QPen(c, 2));
    g->setLineStyle(QCPGraph::lsLine);
    // Different marker shapes too, so the series stay apart without colour.
    g->setScatterStyle(QCPScatterStyle(seriesShape(i), c, c, 8));
  }
}

QString ComparePlot::pointToolTip(const QCPGraph& g, const QCPGraphData& p) const {
  const int set = static_cast<int>(p.key);
  if (set < 0 || set >= m_sets.size()) return {};
  QString name = g.name();
  for (int i = 0; i < graphCount(); ++i) {
    if (graph(i) == &g) name = m_names.value(i, name);  // the full name, not the legend's
  }
  return QStringLiteral("<b>%1</b><br>%2: %3 (%4)")
      .arg(name.toHtmlEscaped(), m_sets[set].toHtmlEscaped(), valueText(p.value), metricName().toHtmlEscaped());
}

}  // namespace wandscope::widgets
