// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"

#include "widgets/plot_export.h"
#include "widgets/plots/plot_style.h"

#include <QBuffer>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

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

QString formatNumber(double v) {
  if (std::abs(v) >= 1e6 || (std::abs(v) < 1e-3 && v != 0)) return QString::number(v, 'g', 4);
  if (v == std::floor(v)) return QLocale().toString(static_cast<qlonglong>(v));
  return QLocale().toString(v, 'f', 3);
}

}  // namespace

DistributionPlot::DistributionPlot(QWidget* parent) : QCustomPlot(parent) {
  setMinimumSize(260, 200);
  plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setBold(true);
  m_title = new QCPTextElement(this, QString(), titleFont);
  plotLayout()->addElement(0, 0, m_title);

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
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  setNoAntialiasingOnDrag(true);

  m_emptyLabel = new QCPItemText(this);
  m_emptyLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_emptyLabel->position->setCoords(0.5, 0.5);
  m_emptyLabel->setPositionAlignment(Qt::AlignCenter);
  m_emptyLabel->setClipToAxisRect(false);
  m_emptyLabel->setText(QStringLiteral("No data"));

  setLogarithmic(true, true);
  m_timer.setSingleShot(true);
  m_timer.setInterval(kReplotIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, &DistributionPlot::flush);
  applyPalette();
  rescale();
}

void DistributionPlot::setTitle(const QString& title) {
  m_title->setText(title);
  setObjectName(title);
  scheduleReplot();
}

void DistributionPlot::setAxisLabels(const QString& x, const QString& y) {
  xAxis->setLabel(x);
  yAxis->setLabel(y);
  scheduleReplot();
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
      axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
      axis->setNumberFormat(QStringLiteral("gb"));
      axis->setNumberPrecision(6);
    }
  }
  scheduleReplot();
}

void DistributionPlot::setIntegerKeys(bool integer) {
  m_integerKeys = integer;
  setLogarithmic(m_logX, m_logY);  // re-creates the tickers
}

void DistributionPlot::setEmptyText(const QString& text) {
  m_emptyLabel->setText(text);
  scheduleReplot();
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

bool DistributionPlot::exportTo(const QString& path, QString* error) {
  if (m_dirty) {  // export what the data says, not a stale frame
    rescale();
    m_dirty = false;
  }
  QString message;
  const bool ok = exportPlot(*this, path, &message);
  if (ok) {
    emit exported(path);
  } else {
    emit exportFailed(message);
  }
  if (error) *error = message;
  return ok;
}

QByteArray DistributionPlot::renderPng(int width, int height) {
  if (m_dirty) {
    rescale();
    m_dirty = false;
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  toPixmap(width, height).save(&buffer, "PNG");
  return bytes;
}

void DistributionPlot::scheduleReplot() {
  m_dirty = true;
  if (!m_timer.isActive()) m_timer.start();
}

void DistributionPlot::flush() {
  if (!m_dirty) return;
  if (!isVisible()) return;  // showEvent schedules it again
  rescale();
  replot(QCustomPlot::rpQueuedReplot);
  m_dirty = false;
  ++m_replots;
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
  m_emptyLabel->setVisible(!any);
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

void DistributionPlot::applyPalette() {
  const QPalette p = palette();
  const bool dark = isDarkPalette(p);
  setBackground(p.brush(QPalette::Base));
  axisRect()->setBackground(p.brush(QPalette::Base));
  styleAxis(xAxis, p, true);
  styleAxis(yAxis, p, true);
  m_title->setTextColor(p.color(QPalette::Text));
  m_emptyLabel->setColor(p.color(QPalette::Disabled, QPalette::Text));
  legend->setBrush(p.brush(QPalette::Base));
  legend->setBorderPen(Qt::NoPen);  // under the plot, not over it: no frame needed
  legend->setTextColor(p.color(QPalette::Text));
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

bool DistributionPlot::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QPointF pos = help->pos();
    double best = 10.0;  // pixels
    QString text;
    for (int i = 0; i < graphCount(); ++i) {
      const QCPGraph* g = graph(i);
      for (const auto& p : *g->data()) {
        const QPointF px = g->coordsToPixels(p.key, p.value);
        const double d = std::hypot(px.x() - pos.x(), px.y() - pos.y());
        if (d < best) {
          best = d;
          text = QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
                     .arg(g->name().toHtmlEscaped(), xAxis->label().toHtmlEscaped(), formatNumber(p.key),
                          yAxis->label().toHtmlEscaped(), formatNumber(p.value));
        }
      }
    }
    if (text.isEmpty()) text = toolTip();
    if (text.isEmpty()) {
      QToolTip::hideText();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QCustomPlot::event(event);
}

void DistributionPlot::changeEvent(QEvent* event) {
  QCustomPlot::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
    applyPalette();
    scheduleReplot();
  }
}

void DistributionPlot::showEvent(QShowEvent* event) {
  QCustomPlot::showEvent(event);
  if (m_dirty) m_timer.start();
}

void DistributionPlot::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(QStringLiteral("Export as PNG, SVG or PDF\u2026"), this, &DistributionPlot::chooseExportFile);
  menu.addAction(QStringLiteral("Reset zoom"), this, [this] {
    rescale();
    replot(QCustomPlot::rpQueuedReplot);
  });
  menu.exec(event->globalPos());
}

void DistributionPlot::chooseExportFile() {
  QString base = m_title->text().isEmpty() ? QStringLiteral("plot") : m_title->text();
  base.replace(QLatin1Char(' '), QLatin1Char('-'));
  const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export plot"),
                                                    QDir::home().filePath(base + QStringLiteral(".png")),
                                                    plotExportFilter());
  if (!path.isEmpty()) exportTo(path);
}

}  // namespace wandscope::widgets
