// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"

#include "engine/core/wording.h"


#include <algorithm>
#include <cmath>
#include <limits>

namespace wandscope::widgets {
namespace {

QColor seriesColor(int i, bool dark) {
  static const QColor light[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xe6, 0x6a, 0x00), QColor(0x2c, 0xa0, 0x2c),
                                 QColor(0xa0, 0x30, 0xa0)};
  static const QColor darkColors[] = {QColor(0x6c, 0xb4, 0xf0), QColor(0xff, 0xa6, 0x4d),
                                      QColor(0x7e, 0xd3, 0x7e), QColor(0xe0, 0x8c, 0xe0)};
  return dark ? darkColors[i % 4] : light[i % 4];
}

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
  for (auto [axis, log] : {std::pair{xAxis, x}, std::pair{yAxis, y}}) {
    if (log) {
      axis->setScaleType(QCPAxis::stLogarithmic);
      axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
      axis->setNumberFormat(QStringLiteral("eb"));  // 10^n, "beautiful" powers
      axis->setNumberPrecision(0);
    } else if (axis == xAxis && m_integerKeys) {
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

void DistributionPlot::setIntegerKeys(bool integer) {
  m_integerKeys = integer;
  setLogarithmic(m_logX, m_logY);  // re-creates the tickers
}

int DistributionPlot::addSeries(const QString& name, Style style) {
  QCPGraph* g = addGraph();
  g->setName(name);
  m_styles.push_back(style);
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

int DistributionPlot::pointCount(int series) const {
  if (series < 0 || series >= graphCount()) return 0;
  return graph(series)->dataCount();
}

void DistributionPlot::rescale() {
  double kMin = std::numeric_limits<double>::infinity(), kMax = -kMin;
  double vMin = kMin, vMax = -kMin;
  bool any = false;
  for (int i = 0; i < graphCount(); ++i) {
    for (const auto& p : *graph(i)->data()) {
      kMin = std::min(kMin, p.key);
      kMax = std::max(kMax, p.key);
      vMin = std::min(vMin, p.value);
      vMax = std::max(vMax, p.value);
      any = true;
    }
  }
  setEmptyTextShown(!any);
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
  xAxis->setRange(range(kMin, kMax, m_logX));
  yAxis->setRange(range(vMin, vMax, m_logY));
}

void DistributionPlot::styleSeries(bool dark) {
  for (int i = 0; i < graphCount(); ++i) {
    QCPGraph* g = graph(i);
    const QColor c = seriesColor(i, dark);
    g->setPen(QPen(c, 2));
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
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 4));
        break;
      case Style::LinePoints:
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 6));
        break;
    }
  }
}

QString DistributionPlot::pointToolTip(const QCPGraph& g, const QCPGraphData& p) const {
  return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
      .arg(g.name().toHtmlEscaped(), xAxis->label().toHtmlEscaped(), formatNumber(p.key),
           valueLabel().toHtmlEscaped(), formatNumber(p.value));  // the axis drops it when short
}

QString DistributionPlot::exportFileName() const {
  QString base = title().isEmpty() ? QStringLiteral("plot") : title();
  base.replace(QLatin1Char(' '), QLatin1Char('-'));
  return base + QStringLiteral(".png");
}

}  // namespace wandscope::widgets
