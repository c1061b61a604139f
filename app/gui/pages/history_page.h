// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/compare_job.h"
#include "app/workers/load_job.h"
#include "engine/store/run_store.h"

#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTableWidget;
class QToolButton;

namespace wandscope::widgets {
class LoadDashboard;
class NoticeBar;
class RunListModel;
class RungTableModel;
}  // namespace wandscope::widgets

namespace wandscope::app {

// History: the runs of the run store (searchable: run id, profile, target, commit, host; sortable
// by any column), the selected run's rung table and plots as they were recorded, delete, and
// export of the report bundle. Below the runs, the stored A/B comparisons (Compare page, `wandscope-cli
// compare`); opening one shows it on the Compare page, which exports it; deleting one (asks first)
// leaves the runs alone. The lists refresh when the Load or Compare page records something.
class HistoryPage : public Page {
  Q_OBJECT
 public:
  explicit HistoryPage(const WorkbenchContext& context, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("history"); }
  QString title() const override { return QStringLiteral("History"); }
  QList<QAction*> menuActions() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  void prepareScreenshot() override;

  widgets::RunListModel* runModel() const noexcept { return m_runs; }
  QSortFilterProxyModel* runProxy() const noexcept { return m_proxy; }
  widgets::RungTableModel* rungModel() const noexcept { return m_rungs; }
  widgets::LoadDashboard* dashboard() const noexcept { return m_dashboard; }
  const RunReportPtr& openRunReport() const noexcept { return m_report; }

  void setSearchText(const QString& text);
  // Shows a run (its rungs and plots); false when it cannot be loaded.
  bool openRun(const QString& runId);
  // Deletes without asking (the Delete action asks first).
  bool deleteRun(const QString& runId);
  bool exportRunTo(const QString& dir, QString* error = nullptr);
  // The run ids selected in the list (Ctrl/Shift-click selects several), in list order.
  QStringList selectedRunIds() const;
  // Loads two runs and emits compareRequested (the Compare... action: two runs selected, the
  // older one as A); false when either cannot be loaded.
  bool compareRuns(const QString& runA, const QString& runB);
  // The stored comparisons as listed (newest first), and opening one: loads it and emits
  // comparisonOpened; false (with a notice) when it cannot be loaded.
  const std::vector<engine::ComparisonSummary>& comparisons() const noexcept { return m_comparisons; }
  QTableWidget* comparisonView() const noexcept { return m_compareView; }
  // Shown instead of the comparisons' table while none is stored.
  QLabel* comparisonsEmptyLabel() const noexcept { return m_compareEmpty; }
  bool openComparison(const QString& compareId);
  // Deletes a stored comparison without asking (the Delete comparison action asks first); false
  // (with a notice) when it cannot be deleted.
  bool deleteComparison(const QString& compareId);

 signals:
  // Two recorded runs to show side by side (the main window hands them to the Compare page).
  void compareRequested(const wandscope::app::RunReportPtr& a, const wandscope::app::RunReportPtr& b);
  // A stored comparison to show (the main window hands it to the Compare page).
  void comparisonOpened(const wandscope::app::CompareReportPtr& report);

 public slots:
  void refresh();

 protected:
  // The first time shown (without a saved layout) the opened run's rungs get the larger share of
  // the top row: the run list reads well narrower, the rung table's numbers need the width.
  void showEvent(QShowEvent* event) override;

 private:
  void onCurrentRowChanged();
  void onSelectionChanged();
  void confirmDelete();
  void confirmDeleteComparison();
  QString selectedComparisonId() const;
  void exportRun();
  void chooseStore();
  void showStorePath();
  QString selectedRunId() const;
  void fillComparisons();
  // Shows no run: the rungs and plots cleared, `header` (rich text) above them, Export and Delete
  // disabled.
  void clearOpenRun(const QString& header);

  WorkbenchContext m_context;
  RunReportPtr m_report;
  engine::RunStatus m_openStatus = engine::RunStatus::Complete;  // m_report's status in the list when read

  QAction* m_findAction = nullptr;
  QAction* m_refreshAction = nullptr;
  QAction* m_deleteAction = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_storeAction = nullptr;
  QAction* m_compareAction = nullptr;
  QAction* m_openComparisonAction = nullptr;
  QAction* m_deleteComparisonAction = nullptr;
  std::vector<engine::ComparisonSummary> m_comparisons;
  QTableWidget* m_compareView = nullptr;
  QLabel* m_compareEmpty = nullptr;
  bool m_topSized = false;  // by showEvent, or by a restored layout
  QLineEdit* m_search = nullptr;
  QLabel* m_storeLabel = nullptr;
  QLabel* m_runHeader = nullptr;
  widgets::NoticeBar* m_notice = nullptr;
  QSplitter* m_vertical = nullptr;
  QSplitter* m_top = nullptr;
  QTableView* m_runView = nullptr;
  widgets::RunListModel* m_runs = nullptr;
  QSortFilterProxyModel* m_proxy = nullptr;
  QTableView* m_rungView = nullptr;
  widgets::RungTableModel* m_rungs = nullptr;
  widgets::LoadDashboard* m_dashboard = nullptr;
};

}  // namespace wandscope::app
