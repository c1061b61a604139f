// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/qcustomplot_include.h"

#include <QString>
#include <QTimer>
#include <QVector>

namespace wandscope::widgets {

// A log-log distribution plot (terms per df bin, list length by rank, ...), following the house
// pattern for live QCustomPlot: data arrives in bulk through setSeriesData(), which only marks the
// plot dirty; a short timer replots with rpQueuedReplot when the plot is dirty and visible, so a
// burst of updates costs one replot and a hidden plot costs none. Colours follow the widget's
// palette (dark mode). The context menu exports PNG/SVG/PDF and resets the zoom; hovering a point
// shows its values.
class DistributionPlot : public QCustomPlot {
  Q_OBJECT
 public:
  enum class Style { Line, Steps, Points, LinePoints };

  explicit DistributionPlot(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setAxisLabels(const QString& x, const QString& y);
  void setLogarithmic(bool x, bool y);
  // Keys are whole numbers (rung indexes): a linear x axis ticks only at integers.
  void setIntegerKeys(bool integer);
  // Shown in the middle of the plot while no series has data.
  void setEmptyText(const QString& text);
  // Adds a series; returns its index for setSeriesData.
  int addSeries(const QString& name, Style style);
  // Replaces a series' points (keys ascending; non-positive values are dropped on log axes) and
  // schedules a replot.
  void setSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  // Appends points in bulk (keys ascending and after the series' last key, as live data arrives);
  // the same filtering and coalesced replot as setSeriesData.
  void appendSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  void clearData();
  // Shows the series legend in a row under the plot (never over the data); addSeries shows it
  // once there are two series.
  void setLegendVisible(bool visible);
  int seriesCount() const noexcept { return graphCount(); }
  int pointCount(int series) const;

  // Whether a replot is scheduled and not yet done (the plot is dirty), and how many coalesced
  // replots have run: for tests of the batching.
  bool replotPending() const noexcept { return m_dirty; }
  int replotCount() const noexcept { return m_replots; }

  // Writes the plot (see exportPlot); emits exported or exportFailed.
  bool exportTo(const QString& path, QString* error = nullptr);
  // The plot as PNG bytes at this size (for reports that embed it), current data included.
  QByteArray renderPng(int width, int height);

  // The interval of coalesced replots.
  static constexpr int kReplotIntervalMs = 80;

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);

 protected:
  bool event(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void scheduleReplot();
  void flush();
  void rescale();
  void applyPalette();
  void chooseExportFile();

  QTimer m_timer;
  bool m_dirty = false;
  int m_replots = 0;
  bool m_logX = true;
  bool m_logY = true;
  bool m_integerKeys = false;
  QCPTextElement* m_title = nullptr;
  QCPItemText* m_emptyLabel = nullptr;
  QVector<Style> m_styles;
};

}  // namespace wandscope::widgets
