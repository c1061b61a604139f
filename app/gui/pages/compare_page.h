// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/compare_job.h"
#include "app/workers/load_job.h"
#include "widgets/models/query_diff_snapshot.h"

#include <QElapsedTimer>
#include <QTimer>

#include <optional>
#include <string>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QToolButton;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;

namespace wandscope::widgets {
class ComparePlot;
class NoticeBar;
class RatioTableModel;
class ResultDiffView;
}  // namespace wandscope::widgets

namespace wandscope::app {

class CompareController;

// Compare: two or more engine builds (or switches, or peers) on the same queries, interleaved in
// one process as `wandscope-cli compare` runs them (docs/COMPARE.md). Pick targets A and B
// (built-in choices, any `builtin:opt=v` text, a plugin file the user chose, a peer) and, with
// "Add target", further ones B2, B3, ... (each compared against A), a profile and the
// repetitions, with or without the A/A calibration; Start runs it on the CompareController's
// worker thread. Each finished query set adds a progress line, a point per target to the plot and
// its rows to the ratio table (benefit of each B vs A, 95 % interval, verdict, result equality);
// an open-loop profile plots each target's due-time p50 per offered rate instead, refined after
// every rung of its ladders. Afterwards the result-diff panel answers any query of the comparison
// by A and the chosen B side by side, differing queries first, with explain where the target
// provides it. A
// finished comparison is stored in the run history (WorkbenchContext::history). Export writes
// report.md, report.json, report.csv and report.html as the CLI does.
//
// History's "Compare..." shows two recorded runs here instead (showRecordedComparison): their
// figures side by side with the ratio, without a re-run, interval or result diff.
class ComparePage : public Page {
  Q_OBJECT
 public:
  ComparePage(const WorkbenchContext& context, CompareController* controller, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("compare"); }
  QString title() const override { return QStringLiteral("Compare"); }
  QList<QAction*> menuActions() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  void prepareScreenshot() override;

  // Documents of the embedded default dataset the quick comparison runs on.
  void setDefaultDocs(quint64 docs);
  // Targets A and B only (any further targets are removed).
  void setTargets(const QString& a, const QString& b);
  // A, B, then B2, B3, ... (at least two).
  void setTargets(const QStringList& targets);
  // Adds a target row (B2, B3, ...) showing `spec`; false at the limit (kMaxTargets).
  bool addTarget(const QString& spec = QStringLiteral("builtin"));
  // Removes the last further target (B2, ...); false when only A and B are left.
  bool removeTarget();
  QStringList targets() const;
  static constexpr int kMaxTargets = 8;
  void selectProfileFile(const QString& path);
  void setRepetitions(int repetitions);
  void setWarmPasses(int passes);
  void setAa(bool aa);
  // The comparison the controls describe (profile loaded, targets validated); nullopt and `error`
  // set when it cannot run.
  std::optional<CompareJob> currentJob(QString* error = nullptr) const;

  // Two recorded runs side by side (History's Compare...).
  void showRecordedComparison(const RunReportPtr& a, const RunReportPtr& b);
  // A comparison from the run history (History's Open comparison): its tables and plot as stored,
  // exportable in every format, no result diff (per-query results are not stored).
  void showStoredComparison(const CompareReportPtr& report);
  bool exportReportTo(const QString& dir, QString* error = nullptr);

  // Result-diff panel: choose the B to put beside A (1 = B, 2 = B2, ...), a query set (by name)
  // and a query (row of the query list).
  bool selectVersus(int target);
  int versus() const;
  bool selectQuerySet(const QString& name);
  bool selectQuery(int row);
  void setShowIdentical(bool show);

  widgets::RatioTableModel* ratioModel() const noexcept { return m_ratios; }
  widgets::ComparePlot* plot() const noexcept { return m_plot; }
  widgets::ResultDiffView* diffView() const noexcept { return m_diffView; }
  QComboBox* querySetList() const noexcept { return m_setList; }
  QComboBox* versusList() const noexcept { return m_versus; }
  QListWidget* queryList() const noexcept { return m_queryList; }
  QString progressText() const;
  // Whole lines the progress box shows at its current height.
  int progressLines() const;
  QTableView* ratioView() const noexcept { return m_ratioView; }
  // The two views under the controls: the figures (plot, ratio table, runner lines) and the
  // result diff.
  QTabWidget* views() const noexcept { return m_views; }
  static constexpr int kFiguresTab = 0;
  static constexpr int kResultDiffTab = 1;
  // The plot's minimum height (see the constructor).
  static constexpr int kPlotMinimumHeight = 260;
  // The Figures tab's splitter, the plot | the ratio table over the progress box. Until the user
  // drags its handle the table gets the width its columns need and the plot the rest, but never
  // less than a quarter of the width; once dragged, the user's split holds (and is saved).
  QSplitter* figuresSplitter() const noexcept { return m_top; }
  bool figuresSplitChosen() const noexcept { return m_figuresSized; }
  // The one-line summary of the last comparison (counts, verdicts, result equality).
  QString statusText() const;
  const CompareReportPtr& report() const noexcept { return m_report; }
  bool isRecordedComparison() const noexcept { return m_recorded; }

  // The quick comparison's profile JSON for `docs` documents (the embedded default).
  static QString quickCompareJson(quint64 docs);
  // The built-in choices of the target combos.
  static QStringList builtinTargetChoices();

 public slots:
  void startComparison();
  void stopComparison();
  void exportReport();

 private:
  void onStarted(quint64 generation, const QStringList& targets);
  void fillVersus();
  // Add target / Remove: enabled while idle, Add below kMaxTargets, Remove with a B2 to remove.
  void updateTargetButtons(bool running);
  void onSetFinished(const CompareSetRowsPtr& rows);
  void onOpenLatency(const engine::OpenLatencyPoint& point);
  // Titles and axis of the plot for an open-loop comparison's `quantile` ("p50", "p99") per
  // offered rate.
  void showOpenPlotLabels(const QString& quantile);
  void showQuerySetPlotLabels(const QString& title, const QString& valueLabel);
  void onFinished(const CompareReportPtr& report);
  void onFailed(const QString& message);
  void onRunningChanged(bool running);
  void onQueriesReady(const CompareQuerySetsPtr& sets);
  void onQueryDiff(const widgets::QueryDiffSnapshotPtr& snapshot);
  void onProfileChanged();
  void onRatioRowChanged();
  void fillQuerySets();
  void fillQueries();
  void onQueryChanged();
  void choosePlugin(QComboBox* combo);
  void chooseProfileFile();
  void appendProgress(const QString& line);
  // Sizes the ratio table's columns to their contents (`toContents`) and gives the Results column
  // the width the others leave in the viewport, so it ends at the right edge.
  void fitRatioColumns(bool toContents);
  // Gives the ratio table its columns' width (m_tableWidth) and the plot the rest, at least a
  // quarter of the Figures tab, unless the user has dragged the splitter (m_figuresSized).
  void fitFiguresSplit();
  bool eventFilter(QObject* watched, QEvent* event) override;
  void finishScreenshot();
  const engine::ResultDiff* diffOf(const QString& querySet) const;
  // Shows a report that was not run here (recorded runs, a stored comparison): its table, an
  // empty plot, progress and result diff (`diffHint` in the panel), export enabled. False (with a
  // notice naming `what`) while a comparison runs.
  bool showReportWithoutRun(const CompareReportPtr& report, const QString& what, const QString& diffHint);
  // Plots the report's sets for its headline metric (CPU ms/query, else the first) and returns it.
  std::string plotReport(const engine::CompareReport& report);

  WorkbenchContext m_context;
  CompareController* m_controller;
  quint64 m_defaultDocs;
  bool m_screenshotPending = false;
  bool m_recorded = false;
  bool m_startingOpen = false;  // the comparison being started runs open-loop ladders
  bool m_plotOpen = false;      // the plot shows latency per offered rate (showOpenPlotLabels)
  bool m_figuresSized = false;  // the user dragged the plot | table splitter (now or before)
  int m_tableWidth = 0;         // what the ratio table needs for its columns (0: no rows yet)
  CompareReportPtr m_report;
  CompareQuerySetsPtr m_sets;
  QElapsedTimer m_runTimer;

  QAction* m_startAction = nullptr;
  QAction* m_stopAction = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_openProfileAction = nullptr;
  QComboBox* m_targetA = nullptr;
  QComboBox* m_targetB = nullptr;
  struct MoreTarget {
    QWidget* row = nullptr;  // label, combo and plugin button, deleted together
    QComboBox* combo = nullptr;
  };
  std::vector<MoreTarget> m_more;  // B2, B3, ...
  QHBoxLayout* m_moreLayout = nullptr;
  QToolButton* m_addTarget = nullptr;
  QToolButton* m_removeTarget = nullptr;
  QComboBox* m_versus = nullptr;
  QLabel* m_versusLabel = nullptr;
  QComboBox* m_profile = nullptr;
  QCheckBox* m_aa = nullptr;
  QSpinBox* m_repetitions = nullptr;
  QSpinBox* m_warmPasses = nullptr;
  QLabel* m_description = nullptr;
  QLabel* m_status = nullptr;
  widgets::NoticeBar* m_notice = nullptr;
  QTabWidget* m_views = nullptr;      // m_top | m_bottom
  QSplitter* m_top = nullptr;         // the plot | m_tableSplit
  QSplitter* m_tableSplit = nullptr;  // the ratio table over the progress box
  QSplitter* m_bottom = nullptr;
  widgets::ComparePlot* m_plot = nullptr;
  QPlainTextEdit* m_progress = nullptr;
  widgets::RatioTableModel* m_ratios = nullptr;
  QTableView* m_ratioView = nullptr;
  QComboBox* m_setList = nullptr;
  QListWidget* m_queryList = nullptr;
  QCheckBox* m_identical = nullptr;
  QLabel* m_queryHint = nullptr;
  widgets::ResultDiffView* m_diffView = nullptr;
};

}  // namespace wandscope::app
