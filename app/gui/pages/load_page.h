// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/load_job.h"
#include "widgets/models/live_batch.h"

#include <QElapsedTimer>
#include <QTimer>

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QToolButton;

namespace wandscope::widgets {
class LoadDashboard;
class NoticeBar;
class RungTableModel;
}  // namespace wandscope::widgets

namespace wandscope::app {

class SimdSelector;

// Load: pick a benchmark profile (the embedded quick ladder on the default dataset, one of
// benchprofiles/*.json, or any file), its targets, then start and stop. The run goes to the
// LoadController's worker thread; live ticks arrive in coalesced batches and feed the plots
// (which replot on their own timers, only when visible), rungs fill the rung table as they
// finish, and the verdict and maximum sustainable rate show at the end. Runs are recorded in the
// run store, labelled as measured with the GUI attached. Export writes the report bundle.
class LoadPage : public Page {
  Q_OBJECT
 public:
  explicit LoadPage(const WorkbenchContext& context, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("load"); }
  QString title() const override { return QStringLiteral("Load"); }
  QList<QAction*> menuActions() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  void prepareScreenshot() override;

  // Documents of the embedded default dataset the quick ladder runs on.
  void setDefaultDocs(quint64 docs);

  // The profile the controls describe, ready to run (targets applied); nullopt and `error` set
  // when it cannot be loaded.
  std::optional<engine::BenchProfile> currentProfile(QString* error = nullptr) const;
  // Selects a profile file (added to the list when new).
  void selectProfileFile(const QString& path);
  void setTargets(const QString& targets);

  widgets::RungTableModel* rungModel() const noexcept { return m_rungs; }
  widgets::LoadDashboard* dashboard() const noexcept { return m_dashboard; }
  const RunReportPtr& report() const noexcept { return m_report; }
  int liveBatchesShown() const noexcept { return m_batches; }
  SimdSelector* simdSelector() const noexcept { return m_simd; }

  // The quick ladder's profile JSON for `docs` documents (the embedded default).
  static QString quickLadderJson(quint64 docs);
  // Where benchprofiles/*.json are looked for: $WANDSCOPE_BENCHPROFILES, next to the executable,
  // the source tree.
  static QString profileDirectory();

 public slots:
  void startRun();
  void stopRun();
  void exportReport();
  bool exportReportTo(const QString& dir, QString* error = nullptr);

 private:
  void onProfileChanged();
  void onRunStarted(quint64 generation, const QString& profile);
  void onBatch(const widgets::LiveBatchPtr& batch);
  void onRung(const engine::RungResult& rung);
  void onFinished(const RunReportPtr& report);
  void onFailed(const QString& message);
  void onRunningChanged(bool running);
  void chooseProfileFile();
  void updateElapsed();
  void fitRungColumns();

  WorkbenchContext m_context;
  quint64 m_defaultDocs;
  bool m_screenshotPending = false;
  RunReportPtr m_report;
  int m_batches = 0;
  QElapsedTimer m_runTimer;
  QTimer m_elapsedTimer;

  QAction* m_startAction = nullptr;
  QAction* m_stopAction = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_openProfileAction = nullptr;
  QComboBox* m_profile = nullptr;
  QLineEdit* m_targets = nullptr;
  SimdSelector* m_simd = nullptr;
  QLabel* m_description = nullptr;
  QLabel* m_status = nullptr;
  QLabel* m_verdict = nullptr;
  widgets::NoticeBar* m_notice = nullptr;
  QSplitter* m_splitter = nullptr;
  widgets::LoadDashboard* m_dashboard = nullptr;
  QTableView* m_rungView = nullptr;
  widgets::RungTableModel* m_rungs = nullptr;
};

}  // namespace wandscope::app
