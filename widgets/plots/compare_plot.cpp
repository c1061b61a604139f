// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/compare_plot.h"

#include "engine/bench/compare_stats.h"
#include "engine/bench/compare_types.h"
#include "engine/core/wording.h"
#include "widgets/plots/plot_style.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <QFontMetrics>
#include <QHelpEvent>
#include <QToolTip>

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
  // Entries close together (the default 8 + 14 pixels around each name made a second row of two
  // names that fit in one): every pixel of a 400-pixel plot counts.
  legend->setColumnSpacing(10);
  legend->setRowSpacing(0);
  plotLayout()->setRowStretchFactor(0, 0.001);
  plotLayout()->setRowStretchFactor(1, 0.001);
  plotLayout()->setRowSpacing(0);
  legend->setVisible(true);

  // The benefit panel under the figures: its caption, then its axis rect, whose category axis
  // carries the query set names for both (the figures' axis keeps its ticks, not their labels).
  m_benefitTitle = new QCPTextElement(this, QString());
  m_benefitTitle->setMargins(QMargins(4, 2, 4, 0));
  plotLayout()->addElement(3, 0, m_benefitTitle);
  m_benefitRect = new QCPAxisRect(this);
  plotLayout()->addElement(4, 0, m_benefitRect);
  m_benefitMargins = m_benefitRect->minimumMargins();
  // The benefit's rect also holds the category names (slanted when many) and the axis label: 3 to
  // the figures' 2 gives the two data areas about the same height.
  plotLayout()->setRowStretchFactor(3, 0.001);
  plotLayout()->setRowStretchFactor(2, 2);
  plotLayout()->setRowStretchFactor(4, 3);
  auto* margins = new QCPMarginGroup(this);
  axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_benefitRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_benefitRect->setRangeZoom(Qt::Vertical);
  m_benefitRect->setRangeDrag(Qt::Vertical);
  QCPAxis* benefitKeys = m_benefitRect->axis(QCPAxis::atBottom);
  QCPAxis* benefitValues = m_benefitRect->axis(QCPAxis::atLeft);
  benefitKeys->grid()->setVisible(false);
  benefitValues->setLabel(QStringLiteral("A/B"));
  m_one = new QCPItemStraightLine(this);
  m_one->setClipAxisRect(m_benefitRect);
  for (QCPItemPosition* p : {m_one->point1, m_one->point2}) p->setAxes(benefitKeys, benefitValues);
  m_one->point1->setCoords(0, 1);
  m_one->point2->setCoords(1, 1);
  m_benefitEmpty = new QCPItemText(this);
  m_benefitEmpty->setClipAxisRect(m_benefitRect);
  m_benefitEmpty->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_benefitEmpty->position->setAxisRect(m_benefitRect);
  m_benefitEmpty->position->setCoords(0.5, 0.5);
  m_benefitEmpty->setText(QStringLiteral("Each B's benefit vs A appears with its row"));

  m_ticker.reset(new QCPAxisTickerText);
  xAxis->setTicker(m_ticker);
  xAxis->setTickLabels(false);
  benefitKeys->setTicker(m_ticker);
  benefitKeys->setTickLabelRotation(0);
  benefitKeys->setLabel(QStringLiteral("query set"));
  setValueLabel(QStringLiteral("CPU ms/query"));
  xAxis->grid()->setVisible(false);
  axisRect()->setRangeZoom(Qt::Vertical);
  axisRect()->setRangeDrag(Qt::Vertical);
  setTargets(QStringList{});  // A and B, named by their labels until the targets are known
  applyPalette();
  rescale();
}

void ComparePlot::setCategoryLabel(const QString& label) {
  m_benefitRect->axis(QCPAxis::atBottom)->setLabel(label);
  scheduleReplot();
}

QString ComparePlot::categoryLabel() const { return m_benefitRect->axis(QCPAxis::atBottom)->label(); }

void ComparePlot::setTargets(const QString& a, const QString& b) { setTargets(QStringList{a, b}); }

void ComparePlot::setTargets(const QStringList& targets) {
  const auto n = static_cast<std::size_t>(std::max(2, static_cast<int>(targets.size())));
  while (m_series.size() > n) {
    removePlottable(m_bars.back());
    removeGraph(m_ratios.back());
    removeGraph(m_series.back());
    m_bars.pop_back();
    m_ratios.pop_back();
    m_series.pop_back();
  }
  while (m_series.size() < n) {
    m_series.push_back(addGraph(xAxis, yAxis));
    const bool first = m_series.size() == 1;  // A: the ratios' reference, no benefit of its own
    QCPGraph* ratio = first ? nullptr : addGraph(m_benefitRect->axis(QCPAxis::atBottom), m_benefitRect->axis(QCPAxis::atLeft));
    QCPErrorBars* bars = nullptr;
    if (ratio) {
      ratio->removeFromLegend();
      ratio->setLineStyle(QCPGraph::lsNone);
      bars = new QCPErrorBars(ratio->keyAxis(), ratio->valueAxis());
      bars->removeFromLegend();
      bars->setDataPlottable(ratio);
      bars->setErrorType(QCPErrorBars::etValueError);
      // Wider than the marker: a bar shorter than its point still shows its whiskers at both
      // sides of it (a point without an interval has none).
      bars->setWhiskerWidth(kWhiskerWidth);
      bars->setSymbolGap(0);
    }
    m_ratios.push_back(ratio);
    m_bars.push_back(bars);
  }
  for (auto it = m_estimates.begin(); it != m_estimates.end();) {
    it = it->first.first >= static_cast<int>(n) ? m_estimates.erase(it) : std::next(it);
  }
  m_names.clear();
  for (int i = 0; i < static_cast<int>(n); ++i) {
    m_names << (i < targets.size() ? QStringLiteral("%1: %2").arg(seriesLabel(i), targets[i]) : seriesLabel(i));
  }
  rebuildBenefits();
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
  if (series < 0 || series >= seriesCount() || set < 0 || set >= m_sets.size()) return {};
  const QCPGraph* g = m_series[static_cast<std::size_t>(series)];
  for (const auto& p : *g->data()) {
    if (p.key == static_cast<double>(set)) return pointToolTip(*g, p);
  }
  return {};
}

QString ComparePlot::seriesName(int series) const {
  return series >= 0 && series < seriesCount() ? m_names.value(series) : QString();
}

QString ComparePlot::legendText(int series) const {
  return series >= 0 && series < seriesCount() ? m_series[static_cast<std::size_t>(series)]->name() : QString();
}

QRect ComparePlot::legendRect(int series) const {
  if (series < 0 || series >= seriesCount()) return {};
  const QCPAbstractLegendItem* item = legend->itemWithPlottable(m_series[static_cast<std::size_t>(series)]);
  return item && legend->visible() ? item->outerRect() : QRect();
}

QString ComparePlot::legendToolTipAt(const QPointF& pos) const {
  for (int i = 0; i < seriesCount(); ++i) {
    if (!legendRect(i).contains(pos.toPoint())) continue;
    return QStringLiteral("<b>%1</b>").arg(m_names.value(i, seriesLabel(i)).toHtmlEscaped()) +
           (i == 0 ? QStringLiteral("<br>The baseline every B is compared with") : QString());
  }
  return {};
}

bool ComparePlot::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = legendToolTipAt(help->pos());
    if (!text.isEmpty()) {
      QToolTip::showText(help->globalPos(), text, this);
      return true;
    }
  }
  return LivePlot::event(event);
}

void ComparePlot::fitLegend() {
  // Every name whole where the width allows: elided to equal shares of one row, a 300-pixel plot
  // showed "B: builtin:..." and "B2: builtin:...", and nothing told the user which colour was
  // which build. As many columns as the whole names fit, then more rows (a row is some 17 pixels
  // of the plot's height); a name wider than the whole plot is elided in the middle, keeping its
  // label ("B2") and the end of its spec, and its entry's tooltip has it all.
  const int n = seriesCount();
  if (n == 0) return;
  // A row is the text and the pixel under it an underscore needs (none clipped "bulk_and" to
  // "bulk and"): three rows cost 48 pixels.
  const QMargins itemMargins(2, 0, 2, 1);
  const QFontMetrics metrics(legend->font());
  const int chrome = legend->iconSize().width() + legend->iconTextPadding() + itemMargins.left() + itemMargins.right() + 2;
  const int room = std::max(width() - legend->margins().left() - legend->margins().right(), 0);
  std::vector<int> widths;
  for (int i = 0; i < n; ++i) widths.push_back(metrics.horizontalAdvance(m_names.value(i, seriesLabel(i))) + chrome);
  int columns = n;
  for (; columns > 1; --columns) {
    int total = legend->columnSpacing() * (columns - 1);
    for (int c = 0; c < columns; ++c) {
      int column = 0;
      for (int i = c; i < n; i += columns) column = std::max(column, widths[static_cast<std::size_t>(i)]);
      total += column;
    }
    if (total <= room) break;
  }
  for (int i = 0; i < n; ++i) {
    const QString full = m_names.value(i, seriesLabel(i));
    // Never less than the label itself ("B2"): it is what the table calls the target.
    const QString text = widths[static_cast<std::size_t>(i)] <= room
                             ? full
                             : std::max(metrics.elidedText(full, Qt::ElideMiddle, std::max(room - chrome, 0)),
                                        seriesLabel(i),
                                        [](const QString& a, const QString& b) { return a.size() < b.size(); });
    QCPGraph* g = m_series[static_cast<std::size_t>(i)];
    if (g->name() != text) g->setName(text);
    if (QCPAbstractLegendItem* item = legend->itemWithPlottable(g); item && item->margins() != itemMargins) {
      item->setMargins(itemMargins);
    }
  }
  if (legend->wrap() != columns) {
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // lays the entries out again
  }
}

void ComparePlot::addSet(const QString& querySet, double a, double b) { addSet(querySet, std::vector<double>{a, b}); }

void ComparePlot::addSet(const QString& querySet, const std::vector<double>& values) {
  const double key = static_cast<double>(m_sets.size());
  m_sets << querySet;
  m_ticker->addTick(key, querySet);
  for (std::size_t i = 0; i < m_series.size() && i < values.size(); ++i) {
    const double v = values[i];
    if (std::isfinite(v) && v > 0) m_series[i]->addData(key, v);
  }
  scheduleReplot();
}

int ComparePlot::categoryIndex(const QString& category) {
  qsizetype i = m_sets.indexOf(category);
  if (i < 0) {
    i = m_sets.size();
    m_sets << category;
    m_ticker->addTick(static_cast<double>(i), category);
  }
  return static_cast<int>(i);
}

void ComparePlot::setPoint(const QString& category, int series, double value) {
  if (series < 0 || series >= seriesCount()) return;
  const double key = static_cast<double>(categoryIndex(category));
  QCPGraph* g = m_series[static_cast<std::size_t>(series)];
  g->data()->remove(key);
  if (std::isfinite(value) && value > 0) g->addData(key, value);
  scheduleReplot();
}

void ComparePlot::clearData() {
  m_sets.clear();
  m_ticker->clear();
  for (QCPGraph* g : m_series) g->data()->clear();
  m_estimates.clear();
  rebuildBenefits();
  scheduleReplot();
}

int ComparePlot::pointCount(int series) const {
  return series >= 0 && series < seriesCount() ? m_series[static_cast<std::size_t>(series)]->dataCount() : 0;
}

double ComparePlot::value(int series, int set) const {
  if (series < 0 || series >= seriesCount()) return std::numeric_limits<double>::quiet_NaN();
  for (const auto& p : *m_series[static_cast<std::size_t>(series)]->data()) {
    if (p.key == static_cast<double>(set)) return p.value;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

void ComparePlot::setBenefit(const QString& category, int series, const engine::RatioEstimate& estimate) {
  if (series < 1 || series >= seriesCount()) return;
  const int set = categoryIndex(category);
  if (std::isfinite(estimate.ratio) && estimate.ratio > 0) {
    m_estimates[{series, set}] = estimate;
  } else {
    m_estimates.erase({series, set});
  }
  rebuildBenefits();
  scheduleReplot();
}

double ComparePlot::benefitOffset(int series) const {
  // The Bs of a category side by side, m_benefitStep of a category apart, centred on it: their
  // bars would hide one another on the same spot.
  const int bs = seriesCount() - 1;
  return (static_cast<double>(series - 1) - static_cast<double>(bs - 1) / 2.0) * m_benefitStep;
}

void ComparePlot::rebuildBenefits() {
  for (std::size_t i = 1; i < m_ratios.size(); ++i) {
    QVector<double> keys, values, minus, plus;
    for (const auto& [at, e] : m_estimates) {  // ordered by series, then set: keys ascending
      if (at.first != static_cast<int>(i)) continue;
      keys << static_cast<double>(at.second) + benefitOffset(at.first);
      values << e.ratio;
      // The bar's ends are the interval's bounds; NaN (no interval) draws no bar.
      const bool interval = std::isfinite(e.ciLow) && std::isfinite(e.ciHigh);
      minus << (interval ? e.ratio - e.ciLow : std::numeric_limits<double>::quiet_NaN());
      plus << (interval ? e.ciHigh - e.ratio : std::numeric_limits<double>::quiet_NaN());
    }
    m_ratios[i]->setData(keys, values, /*alreadySorted=*/true);
    m_bars[i]->setData(minus, plus);
  }
  // The noise floor per category: [1 / (1 + f), 1 + f], the band a verdict "no-difference" needs
  // the whole interval inside (the A/A calibration may have raised f for the category).
  for (QCPItemRect* band : m_bands) removeItem(band);
  m_bands.clear();
  std::map<int, double> floors;
  for (const auto& [at, e] : m_estimates) {
    if (std::isfinite(e.noiseFloor) && e.noiseFloor > 0) floors[at.second] = std::max(floors[at.second], e.noiseFloor);
  }
  const QColor shade = palette().color(QPalette::Text);
  for (const auto& [set, floor] : floors) {
    auto* band = new QCPItemRect(this);
    band->setLayer(QStringLiteral("grid"));
    band->setClipAxisRect(m_benefitRect);
    for (QCPItemPosition* p : {band->topLeft, band->bottomRight}) {
      p->setAxes(m_benefitRect->axis(QCPAxis::atBottom), m_benefitRect->axis(QCPAxis::atLeft));
    }
    band->topLeft->setCoords(static_cast<double>(set) - 0.45, 1 + floor);
    band->bottomRight->setCoords(static_cast<double>(set) + 0.45, 1 / (1 + floor));
    QColor fill = shade;
    fill.setAlpha(28);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    band->setSelectable(false);
    m_bands.push_back(band);
  }
}

int ComparePlot::benefitCount(int series) const {
  return series >= 1 && series < seriesCount() ? m_ratios[static_cast<std::size_t>(series)]->dataCount() : 0;
}

double ComparePlot::benefit(int series, int set) const {
  const auto it = m_estimates.find({series, set});
  if (it == m_estimates.end() || series >= seriesCount()) return std::numeric_limits<double>::quiet_NaN();
  // What the graph draws (not the stored estimate), so a test sees the plot's own data.
  const double key = static_cast<double>(set) + benefitOffset(series);
  for (const auto& p : *m_ratios[static_cast<std::size_t>(series)]->data()) {
    if (p.key == key) return p.value;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::optional<std::pair<double, double>> ComparePlot::benefitInterval(int series, int set) const {
  if (series < 1 || series >= seriesCount()) return std::nullopt;
  const QCPGraph* g = m_ratios[static_cast<std::size_t>(series)];
  const QCPErrorBars* bars = m_bars[static_cast<std::size_t>(series)];
  const double key = static_cast<double>(set) + benefitOffset(series);
  int index = 0;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it, ++index) {
    if (it->key != key) continue;
    if (index >= bars->data()->size()) return std::nullopt;
    const QCPErrorBarsData& e = bars->data()->at(index);
    if (std::isnan(e.errorMinus) || std::isnan(e.errorPlus)) return std::nullopt;
    return std::make_pair(it->value - e.errorMinus, it->value + e.errorPlus);
  }
  return std::nullopt;
}

QString ComparePlot::benefitText(int series, int set) const {
  const auto it = m_estimates.find({series, set});
  if (it == m_estimates.end() || set < 0 || set >= m_sets.size()) return {};
  const engine::RatioEstimate& e = it->second;
  QString text = QStringLiteral("<b>%1</b><br>%2: %3 (%4), benefit vs A in %5: the ratio A/B")
                     .arg(m_names.value(series).toHtmlEscaped(), m_sets[set].toHtmlEscaped(),
                          QString::fromStdString(engine::speedupText(e.ratio)),
                          QString::fromStdString(engine::percentText(e.ratio)), metricName().toHtmlEscaped());
  if (std::isfinite(e.ciLow) && std::isfinite(e.ciHigh)) {
    text += QStringLiteral("<br>Bar: the report's 95 % bootstrap interval of the ratio, %1")
                .arg(QString::fromStdString(engine::intervalText(e.ciLow, e.ciHigh)));
    // An interval of a few per cent on an axis spanning 0.6 to 1.2 is a bar of a few pixels, which
    // the marker covers but for its whiskers: say it is there, how long, and how to see it.
    const QCPAxis* values = m_benefitRect->axis(QCPAxis::atLeft);
    const double pixels = std::abs(values->coordToPixel(e.ciHigh) - values->coordToPixel(e.ciLow));
    if (m_benefitRect->height() > 0 && pixels < kBenefitMarkerSize + 2) {
      text += QStringLiteral("<br>At this scale the bar is %1 px, no longer than the point's marker: its whiskers "
                             "show beside it. Roll the mouse wheel over the panel to zoom the A/B axis.")
                  .arg(std::lround(pixels));
    }
    if (e.noiseFloor > 0) {
      text += QStringLiteral("<br>Grey band: the noise floor ±%1 %").arg(e.noiseFloor * 100, 0, 'f', 1);
    }
    if (!e.verdict.empty()) text += QStringLiteral("; verdict: %1").arg(QString::fromStdString(e.verdict));
  } else {
    text += QStringLiteral("<br>No bar: the report has no interval for this row (recorded runs are not "
                           "interleaved, so not paired samples)");
  }
  return text;
}

QString ComparePlot::benefitCaption() const {
  std::size_t withInterval = 0;
  for (const auto& [at, e] : m_estimates) {
    if (std::isfinite(e.ciLow) && std::isfinite(e.ciHigh)) ++withInterval;
  }
  // Short: the plot is some 300 pixels wide beside the table; the hover texts say the rest.
  const QString what = QStringLiteral("Benefit vs A (A/B)");
  if (m_estimates.empty() || withInterval == m_estimates.size()) return what + QStringLiteral(", bars: 95 % bootstrap CI");
  if (withInterval == 0) return what + QStringLiteral(", no intervals in the report");
  return what + QStringLiteral(", bars: 95 % CI where reported");
}

double ComparePlot::categoryPixels() const {
  // The key range is the categories with half a step of room each side (rescale).
  const double categories = std::max(1.0, static_cast<double>(m_sets.size()));
  // Before the first layout the rect has no width: the widget's, less typical axis margins.
  const int pixels = m_benefitRect->width() > 0 ? m_benefitRect->width() : width() - 70;
  return std::max(pixels, 1) / categories;
}

void ComparePlot::fitCategoryLabels() {
  // Slanted names at -25 degrees in a 300-pixel plot ran into each other and took the height of
  // four lines. Level when every name fits beside its neighbours; else on two or three
  // alternating lines (a name then has two or three categories of width: "rare+common-3" fits two
  // categories of 50 pixels), each line costing less height than slanting; slanted only beyond.
  QCPAxis* keys = m_benefitRect->axis(QCPAxis::atBottom);
  const QFontMetrics metrics(keys->tickLabelFont());
  const int gap = metrics.horizontalAdvance(QLatin1Char(' ')) + 2;
  std::vector<int> widths;
  for (const QString& set : m_sets) widths.push_back(metrics.horizontalAdvance(set));
  const double n = std::max(1.0, static_cast<double>(widths.size()));
  // The width from the rect's left edge to the widget's: the right margin is only the room this
  // function makes for the outer names (the right axis is hidden), which depends on the lines.
  const double room = m_benefitRect->width() > 0 ? m_benefitRect->width() + m_benefitRect->margins().right() - 2
                                                 : width() - 70.0;
  // Room right of the rect for the last name of each line, centred on its tick (half a category
  // from the edge, another category for each line before).
  const auto rightNeed = [&](std::size_t lines, double per) {
    double need = 0;
    for (std::size_t j = 0; j < lines && j < widths.size(); ++j) {
      need = std::max(need, widths[widths.size() - 1 - j] / 2.0 - (static_cast<double>(j) + 0.5) * per);
    }
    return need + 4;
  };
  const auto perFor = [&](std::size_t lines) {
    double per = room / n;
    for (int k = 0; k < 3; ++k) per = (room - rightNeed(lines, per)) / n;
    return per;
  };
  const auto fits = [&](std::size_t lines) {
    const double per = perFor(lines);
    for (std::size_t i = 0; i + lines < widths.size(); ++i) {
      if ((widths[i] + widths[i + lines]) / 2.0 + gap > per * static_cast<double>(lines)) return false;
    }
    return true;
  };
  std::size_t lines = 1;
  while (lines <= 3 && !fits(lines)) ++lines;
  m_categoryLabels = lines == 1 ? CategoryLabels::Level : lines <= 3 ? CategoryLabels::Staggered : CategoryLabels::Slanted;
  keys->setTickLabelRotation(m_categoryLabels == CategoryLabels::Slanted ? -30 : 0);
  m_ticker->clear();
  for (qsizetype i = 0; i < m_sets.size(); ++i) {
    const qsizetype line = lines <= 3 ? i % static_cast<qsizetype>(lines) : 0;
    m_ticker->addTick(static_cast<double>(i), QString(line, QLatin1Char('\n')) + m_sets[i]);
  }
  const int right = lines <= 3 ? static_cast<int>(std::ceil(rightNeed(lines, perFor(lines)))) : 0;
  const QMargins least(m_benefitMargins.left(), m_benefitMargins.top(), std::max(right, m_benefitMargins.right()),
                       m_benefitMargins.bottom());
  if (m_benefitRect->minimumMargins() != least) m_benefitRect->setMinimumMargins(least);
}

void ComparePlot::rescaleBenefits() {
  QCPAxis* keys = m_benefitRect->axis(QCPAxis::atBottom);
  QCPAxis* values = m_benefitRect->axis(QCPAxis::atLeft);
  keys->setRange(xAxis->range());
  fitCategoryLabels();
  // The Bs of a category at least a whisker and a bit apart where the category is wide enough
  // (0.12 of a 50-pixel category put their markers over each other), together within 0.7 of it.
  const int bs = seriesCount() - 1;
  const double step = bs > 1 ? std::min(std::max(0.12, (kWhiskerWidth + 3) / categoryPixels()), 0.7 / (bs - 1)) : 0.12;
  if (step != m_benefitStep) {
    m_benefitStep = step;
    rebuildBenefits();
  }
  // 1 always in view, every bar whole and the floor bands.
  double lo = 1, hi = 1;
  for (const auto& [at, e] : m_estimates) {
    for (const double v : {e.ratio, e.ciLow, e.ciHigh, 1 + e.noiseFloor, 1 / (1 + e.noiseFloor)}) {
      if (std::isfinite(v) && v > 0) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  const double pad = std::max((hi - lo) * 0.15, 0.02);
  values->setRange(std::max(0.0, lo - pad), hi + pad);
  values->ticker()->setTickCount(std::clamp(m_benefitRect->height() / 28, 2, 4));
  // The value label only where it fits beside the axis, as LivePlot does for the figures'.
  values->setLabel(m_benefitRect->height() >= QFontMetrics(values->labelFont()).horizontalAdvance(QStringLiteral("A/B")) + 8
                       ? QStringLiteral("A/B")
                       : QString());
  m_benefitEmpty->setVisible(m_estimates.empty());
  // The caption on one line, elided to the width (the hover texts say it all).
  const QFontMetrics metrics(m_benefitTitle->font());
  const QString caption = metrics.elidedText(benefitCaption(), Qt::ElideRight, std::max(width() - 12, 40));
  if (m_benefitTitle->text() != caption) m_benefitTitle->setText(caption);
}

void ComparePlot::rescale() {
  fitLegend();
  double hi = 0;
  bool any = false;
  for (const QCPGraph* g : m_series) {
    for (const auto& p : *g->data()) {
      hi = std::max(hi, p.value);
      any = true;
    }
  }
  setEmptyTextShown(!any);
  // Sets at 0, 1, ...: half a step of room on each side; values from 0 so heights compare.
  xAxis->setRange(-0.5, std::max(0.5, static_cast<double>(m_sets.size()) - 0.5));
  yAxis->setRange(0, any ? hi * 1.15 : 1);
  // A tick label every 28 pixels at most: a short plot (Compare with three targets on an 800-pixel
  // screen) printed five labels one over another.
  yAxis->ticker()->setTickCount(std::clamp(axisRect()->height() / 28, 2, 5));
  rescaleBenefits();
}

void ComparePlot::styleSeries(bool dark) {
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    const QColor c = targetColor(static_cast<int>(i), dark);
    QCPGraph* g = m_series[i];
    g->setPen(QPen(c, 2));
    g->setLineStyle(QCPGraph::lsLine);
    // Different marker shapes too, so the series stay apart without colour.
    g->setScatterStyle(QCPScatterStyle(seriesShape(static_cast<int>(i)), c, c, 8));
    if (m_ratios[i] == nullptr) continue;
    m_ratios[i]->setPen(QPen(c, 2));
    m_ratios[i]->setScatterStyle(QCPScatterStyle(seriesShape(static_cast<int>(i)), c, c, kBenefitMarkerSize));
    m_bars[i]->setPen(QPen(c, 1.5));
  }
  // The benefit panel follows the palette as LivePlot styles the figures' axes.
  if (m_benefitRect == nullptr) return;
  const QPalette p = palette();
  m_benefitRect->setBackground(p.brush(QPalette::Base));
  styleAxis(m_benefitRect->axis(QCPAxis::atBottom), p, false);
  styleAxis(m_benefitRect->axis(QCPAxis::atLeft), p, false);
  m_benefitTitle->setTextColor(p.color(QPalette::Text));
  m_benefitEmpty->setColor(p.color(QPalette::Disabled, QPalette::Text));
  m_one->setPen(QPen(p.color(QPalette::Text), 1, Qt::DashLine));
  rebuildBenefits();  // the bands' shade
}

QString ComparePlot::pointToolTip(const QCPGraph& g, const QCPGraphData& p) const {
  for (std::size_t i = 1; i < m_ratios.size(); ++i) {
    if (m_ratios[i] == &g) {
      const int series = static_cast<int>(i);
      return benefitText(series, static_cast<int>(std::lround(p.key - benefitOffset(series))));
    }
  }
  const int set = static_cast<int>(p.key);
  if (set < 0 || set >= m_sets.size()) return {};
  QString name = g.name();
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    if (m_series[i] == &g) name = m_names.value(static_cast<int>(i), name);  // the full name, not the legend's
  }
  return QStringLiteral("<b>%1</b><br>%2: %3 (%4)")
      .arg(name.toHtmlEscaped(), m_sets[set].toHtmlEscaped(), valueText(p.value), metricName().toHtmlEscaped());
}

}  // namespace wandscope::widgets
