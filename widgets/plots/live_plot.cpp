// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/live_plot.h"

#include "widgets/plot_export.h"
#include "widgets/plots/plot_style.h"

#include <QBuffer>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

#include <cmath>

namespace wandscope::widgets {

LivePlot::LivePlot(QWidget* parent, const QString& emptyText, bool subGrid)
    : QCustomPlot(parent), m_subGrid(subGrid) {
  setMinimumSize(260, 200);
  plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setBold(true);
  m_title = new QCPTextElement(this, QString(), titleFont);
  plotLayout()->addElement(0, 0, m_title);
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

  m_emptyLabel = new QCPItemText(this);
  m_emptyLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_emptyLabel->position->setCoords(0.5, 0.5);
  m_emptyLabel->setPositionAlignment(Qt::AlignCenter);
  m_emptyLabel->setClipToAxisRect(false);
  m_emptyLabel->setText(emptyText);

  m_timer.setSingleShot(true);
  m_timer.setInterval(kReplotIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, &LivePlot::flush);
}

void LivePlot::setTitle(const QString& title) {
  if (objectName().isEmpty() || objectName() == m_title->text()) setObjectName(title);
  m_title->setText(title);
  scheduleReplot();
}

QString LivePlot::title() const { return m_title->text(); }

void LivePlot::setValueLabel(const QString& label) {
  m_valueLabel = label;
  yAxis->setLabel(label);  // updateLayout takes it off again if it does not fit
  scheduleReplot();
}

bool LivePlot::valueLabelShown() const { return !yAxis->label().isEmpty(); }

void LivePlot::updateLayout() {
  QCustomPlot::updateLayout();
  const int room = axisRect()->height();
  const bool fits = QFontMetrics(yAxis->labelFont()).horizontalAdvance(m_valueLabel) <= room;
  const QString wanted = fits ? m_valueLabel : QString();
  if (yAxis->label() == wanted) return;
  yAxis->setLabel(wanted);
  QCustomPlot::updateLayout();
}

void LivePlot::setEmptyText(const QString& text) {
  m_emptyLabel->setText(text);
  scheduleReplot();
}

QString LivePlot::emptyText() const { return m_emptyLabel->text(); }

bool LivePlot::emptyTextShown() const { return m_emptyLabel->visible(); }

void LivePlot::setEmptyTextShown(bool shown) { m_emptyLabel->setVisible(shown); }

bool LivePlot::exportTo(const QString& path, QString* error) {
  settle();  // export what the data says, not a stale frame
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

QByteArray LivePlot::renderPng(int width, int height) {
  settle();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  toPixmap(width, height).save(&buffer, "PNG");
  return bytes;
}

QString LivePlot::toolTipAt(const QPointF& pos) const {
  double best = 10.0;  // pixels
  QString text;
  for (int i = 0; i < graphCount(); ++i) {
    const QCPGraph* g = graph(i);
    for (const auto& p : *g->data()) {
      const QPointF px = g->coordsToPixels(p.key, p.value);
      const double d = std::hypot(px.x() - pos.x(), px.y() - pos.y());
      if (d >= best) continue;
      const QString tip = pointToolTip(*g, p);
      if (tip.isEmpty()) continue;
      best = d;
      text = tip;
    }
  }
  return text.isEmpty() ? toolTip() : text;
}

void LivePlot::scheduleReplot() {
  m_dirty = true;
  if (!m_timer.isActive()) m_timer.start();
}

void LivePlot::flush() {
  if (!m_dirty || !isVisible()) return;  // showEvent schedules it again
  rescale();
  replot(QCustomPlot::rpQueuedReplot);
  m_dirty = false;
  ++m_replots;
}

void LivePlot::settle() {
  if (!m_dirty) return;
  rescale();
  m_dirty = false;
}

void LivePlot::applyPalette() {
  const QPalette p = palette();
  setBackground(p.brush(QPalette::Base));
  axisRect()->setBackground(p.brush(QPalette::Base));
  styleAxis(xAxis, p, m_subGrid);
  styleAxis(yAxis, p, m_subGrid);
  m_title->setTextColor(p.color(QPalette::Text));
  m_emptyLabel->setColor(p.color(QPalette::Disabled, QPalette::Text));
  legend->setBrush(p.brush(QPalette::Base));
  legend->setBorderPen(Qt::NoPen);  // never over the data: no frame needed
  legend->setTextColor(p.color(QPalette::Text));
  styleSeries(isDarkPalette(p));
}

bool LivePlot::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QCustomPlot::event(event);
  const auto* help = static_cast<QHelpEvent*>(event);
  const QString text = toolTipAt(help->pos());
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(help->globalPos(), text, this);
  }
  return true;
}

void LivePlot::changeEvent(QEvent* event) {
  QCustomPlot::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
    applyPalette();
    scheduleReplot();
  }
}

void LivePlot::resizeEvent(QResizeEvent* event) {
  QCustomPlot::resizeEvent(event);
  scheduleReplot();
}

void LivePlot::showEvent(QShowEvent* event) {
  QCustomPlot::showEvent(event);
  if (m_dirty) m_timer.start();
}

void LivePlot::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(QStringLiteral("Export as PNG, SVG or PDF\u2026"), this, &LivePlot::chooseExportFile);
  menu.addAction(QStringLiteral("Reset zoom"), this, [this] {
    rescale();
    replot(QCustomPlot::rpQueuedReplot);
  });
  menu.exec(event->globalPos());
}

void LivePlot::chooseExportFile() {
  const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export plot"),
                                                    QDir::home().filePath(exportFileName()), plotExportFilter());
  if (!path.isEmpty()) exportTo(path);
}

}  // namespace wandscope::widgets
