// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/qcustomplot_include.h"

#include <QByteArray>
#include <QPointF>
#include <QString>
#include <QTimer>

namespace wandscope::widgets {

// What every QCustomPlot of the workbench shares, following the house pattern for live plots:
// updates only mark the plot dirty (scheduleReplot); a short timer replots with rpQueuedReplot
// when it is dirty and visible, so a burst of updates costs one replot and a hidden plot none
// (showEvent catches up). A bold title row on top, a text in the middle of the axis rect while
// there is no data, colours from the widget's palette (dark mode too), a context menu that exports
// PNG/SVG/PDF and resets the zoom, and a tooltip naming the point under the pointer.
//
// A plot supplies its data, how its axes fit it (rescale), its series' look (styleSeries), what a
// point's tooltip says and the file name an export proposes.
class LivePlot : public QCustomPlot {
  Q_OBJECT
 public:
  // The interval of coalesced replots.
  static constexpr int kReplotIntervalMs = 80;

  // Also names the object after its title, unless it was given another name.
  void setTitle(const QString& title);
  QString title() const;
  // The value (y) axis's label. Drawn only while the axis rect is tall enough for it: a label
  // longer than its axis was cut at both ends ("CPU ms/que" in the Compare page's plot at
  // 1280x800), and the title names the quantity. valueLabelShown says whether it is drawn.
  void setValueLabel(const QString& label);
  QString valueLabel() const { return m_valueLabel; }
  bool valueLabelShown() const;
  // Shown in the middle of the axis rect while no series has data.
  void setEmptyText(const QString& text);
  QString emptyText() const;
  bool emptyTextShown() const;

  // Whether a replot is scheduled and not yet done (the plot is dirty), and how many coalesced
  // replots have run: for tests of the batching.
  bool replotPending() const noexcept { return m_dirty; }
  int replotCount() const noexcept { return m_replots; }

  // Writes the plot (see exportPlot), current data included; emits exported or exportFailed.
  bool exportTo(const QString& path, QString* error = nullptr);
  // The plot as PNG bytes at this size (for reports that embed it), current data included.
  QByteArray renderPng(int width, int height);
  // The tooltip for a pointer at `pos` (widget pixels): the nearest point within 10 pixels, else
  // the widget's own tooltip (empty when it has none).
  QString toolTipAt(const QPointF& pos) const;

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);

 protected:
  // `subGrid`: whether the axes draw a fainter sub-grid (log axes do).
  LivePlot(QWidget* parent, const QString& emptyText, bool subGrid);

  void scheduleReplot();
  // Styles the plot from the palette, then calls styleSeries. Subclasses call it at the end of
  // their constructor and whenever they add series.
  void applyPalette();

  // Fits the axes to the data; hides the empty text when there is some.
  virtual void rescale() = 0;
  // Each series' pen, brush and markers for a dark or light palette.
  virtual void styleSeries(bool dark) = 0;
  // The rich-text tooltip of point p of graph g; empty when the point has none.
  virtual QString pointToolTip(const QCPGraph& g, const QCPGraphData& p) const = 0;
  // The file name the export dialog proposes (in the home directory).
  virtual QString exportFileName() const = 0;

  void setEmptyTextShown(bool shown);

  bool event(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  // A new size refits the axes (a plot's tick count may follow its height).
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  // Lays the plot out, then drops or restores the value label for the axis rect's height (which
  // the label, drawn beside the axis, does not change) and lays the margins out again if it did.
  void updateLayout() override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void flush();
  // Fits the axes now when an update is pending (before an export), without a replot.
  void settle();
  void chooseExportFile();

  QTimer m_timer;
  bool m_dirty = false;
  int m_replots = 0;
  bool m_subGrid = false;
  QCPTextElement* m_title = nullptr;
  QCPItemText* m_emptyLabel = nullptr;
  QString m_valueLabel;
};

}  // namespace wandscope::widgets
