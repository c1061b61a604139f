// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/index_handle.h"
#include "app/workers/index_jobs.h"
#include "app/workers/query_job.h"
#include "widgets/models/search_snapshot.h"

#include <QElapsedTimer>
#include <QPointer>

#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QSpinBox;
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;

namespace wandscope::widgets {
class CounterTableModel;
class DecimalDelegate;
class ExplainTableModel;
class NoticeBar;
class ResultTableModel;
class SwitchesButton;
class TermTableModel;
}  // namespace wandscope::widgets

namespace wandscope::app {

class SimdSelector;

// Search as you type: the query box, operator, algorithm, optimisation switches, k and a second
// algorithm to compare with; the results (rank, doc, score, title, highlighted snippet); the
// query's path, timing and counters; its terms' statistics; and the explain of the selected
// result, whose contributions add up to its score.
class ExplorePage : public Page {
  Q_OBJECT
 public:
  explicit ExplorePage(const WorkbenchContext& context, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("explore"); }
  QString title() const override { return QStringLiteral("Explore"); }
  QList<QAction*> menuActions() const override;
  QString menuTitle() const override { return QStringLiteral("&Query"); }
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  void prepareScreenshot() override;

  // The parameters the controls describe.
  QueryParams currentParams() const;
  // Sets the controls (and so searches).
  void setQueryText(const QString& text);
  void setOperator(engine::Operator op);
  void setAlgorithm(engine::Algorithm algorithm);
  void setCompareAlgorithm(std::optional<engine::Algorithm> algorithm);
  void setK(int k);

  QLineEdit* queryEdit() const noexcept { return m_query; }
  QTableView* resultView() const noexcept { return m_results; }
  widgets::ResultTableModel* resultModel() const noexcept { return m_resultModel; }
  widgets::CounterTableModel* counterModel() const noexcept { return m_counterModel; }
  widgets::TermTableModel* termModel() const noexcept { return m_termModel; }
  QString analysisText() const;
  // The explain panel's heading: the selected result, or why there is nothing to explain.
  QString explainHeaderText() const;
  widgets::ExplainTableModel* explainModel() const noexcept { return m_explainModel; }
  widgets::NoticeBar* notice() const noexcept { return m_notice; }
  QLabel* identityLabel() const noexcept { return m_identity; }
  SimdSelector* simdSelector() const noexcept { return m_simd; }
  // The summary's "CPU time" cell of the primary path (time and SIMD target).
  QString cpuSummaryText() const;
  // A summary cell as plain text: `key` one of path, wall_ms, cpu_ms, postings_decoded, hits,
  // kth_score, reason; of the compared path's row with `compared`.
  QString summaryText(const QString& key, bool compared = false) const;
  // "Trace this query" (Ctrl+Shift+T): enabled once a result is shown.
  QAction* traceAction() const noexcept { return m_traceAction; }
  widgets::SwitchesButton* switchesButton() const noexcept { return m_switches; }
  // While a search runs for longer than kStaleAfterMs: "searching… 1.2 s", and the results,
  // summary and panels below are greyed (disabled) - they are the previous query's until the new
  // ones arrive. Quicker searches change nothing on screen (no flicker while typing).
  QString searchStatusText() const;
  bool showsStaleResults() const noexcept { return m_stale; }
  // "Only terms in this document": the explain table lists only the terms with tf > 0. Ticked by
  // itself when a query of more than kPresentTermsAbove terms arrives (and unticked for a shorter
  // one); the user's choice stays while the queries stay on the same side of it.
  QCheckBox* presentTermsBox() const noexcept { return m_presentTerms; }

  static constexpr int kStaleAfterMs = 300;
  static constexpr int kSearchTickMs = 100;
  static constexpr int kPresentTermsAbove = 12;

 signals:
  // The shown query, to be traced on the open index (the Trace page) as it was searched: its
  // operator, k, the algorithm asked for (auto included: the trace then takes auto's path, in the
  // form auto ran it) and the switches.
  void traceRequested(const QString& text, int op, int k, int algorithm, const engine::SearchOptions& options);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildControls();
  void buildPanels();
  void fillAlgorithms();
  void onControlsChanged(bool immediate);
  void onIndexChanged(const IndexHandlePtr& handle);
  void onDefaultDataset(const DefaultDatasetInfo& info);
  void onResults(const widgets::SearchSnapshotPtr& snapshot);
  void onFailed(quint64 generation, const QString& message);
  void onCleared();
  void onSearching(bool searching);
  void onSearchStarted();
  void onSearchTick();
  void setStale(bool stale);
  void onResultSelected();
  void updateSummary(const widgets::SearchSnapshotPtr& snapshot);
  void resizeResultColumns();

  WorkbenchContext m_context;
  bool m_updatingControls = false;
  bool m_screenshotPending = false;

  QLineEdit* m_query = nullptr;
  QToolButton* m_samples = nullptr;
  QMenu* m_samplesMenu = nullptr;
  QComboBox* m_operator = nullptr;
  QComboBox* m_algorithm = nullptr;
  widgets::SwitchesButton* m_switches = nullptr;
  QSpinBox* m_k = nullptr;
  QComboBox* m_compare = nullptr;
  SimdSelector* m_simd = nullptr;
  widgets::NoticeBar* m_notice = nullptr;

  QGridLayout* m_summaryGrid = nullptr;
  QList<QLabel*> m_summaryA;  // path, wall, cpu, postings, hits, k-th, reason
  QList<QLabel*> m_summaryB;
  QLabel* m_rowLabelA = nullptr;
  QLabel* m_rowLabelB = nullptr;
  QLabel* m_identity = nullptr;
  QLabel* m_searching = nullptr;
  QWidget* m_summary = nullptr;
  QTimer* m_searchTimer = nullptr;  // the grace period, then the elapsed time's ticks
  QElapsedTimer m_searchClock;      // since the newest search was sent
  bool m_stale = false;
  QPointer<QWidget> m_focusBeforeStale;  // given back when the greyed panels come back

  QSplitter* m_vertical = nullptr;
  QSplitter* m_bottom = nullptr;
  QTableView* m_results = nullptr;
  widgets::DecimalDelegate* m_scoreDelegate = nullptr;  // the score columns of m_results
  widgets::ResultTableModel* m_resultModel = nullptr;
  QTableView* m_counters = nullptr;
  widgets::CounterTableModel* m_counterModel = nullptr;
  QCheckBox* m_hideZeros = nullptr;
  QTableView* m_terms = nullptr;
  widgets::TermTableModel* m_termModel = nullptr;
  QLabel* m_analysis = nullptr;  // "2 distinct terms of 3 tokens; dropped ..." under the terms
  QLabel* m_explainHeader = nullptr;
  QTableView* m_explain = nullptr;
  widgets::ExplainTableModel* m_explainModel = nullptr;
  QCheckBox* m_presentTerms = nullptr;
  std::optional<bool> m_presentTermsAuto;  // the last automatic choice (query longer than the limit)

  QAction* m_focusAction = nullptr;
  QAction* m_rerunAction = nullptr;
  QAction* m_toggleOpAction = nullptr;
  QAction* m_compareAction = nullptr;
  QAction* m_traceAction = nullptr;
  widgets::SearchSnapshotPtr m_shown;  // the results on screen (what "Trace this query" traces)
};

}  // namespace wandscope::app
