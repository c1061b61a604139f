// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/index_handle.h"
#include "app/workers/index_jobs.h"

#include <QElapsedTimer>

#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;

namespace wandscope::widgets {
class DistributionPlot;
class IndexStatsModel;
class NoticeBar;
}  // namespace wandscope::widgets

namespace wandscope::app {

// Open an index, or build one from a corpus file or the generator (with progress and cancel);
// the index's statistics and plots of its document-frequency distribution and list lengths.
class IndexPage : public Page {
  Q_OBJECT
 public:
  explicit IndexPage(const WorkbenchContext& context, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("index"); }
  QString title() const override { return QStringLiteral("Index"); }
  QList<QAction*> menuActions() const override;
  QString menuTitle() const override { return QStringLiteral("&File"); }
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  void prepareScreenshot() override;

  // Documents of the embedded default dataset (tests and --default-docs use fewer).
  void setDefaultDocs(quint64 docs) { m_defaultDocs = docs; }
  // Where the embedded default is cached (empty: the user cache directory).
  void setDefaultCacheRoot(const QString& root) { m_defaultCacheRoot = root; }

  widgets::IndexStatsModel* statsModel() const noexcept { return m_stats; }
  widgets::DistributionPlot* dfPlot() const noexcept { return m_dfPlot; }
  widgets::DistributionPlot* lengthPlot() const noexcept { return m_lengthPlot; }
  widgets::NoticeBar* notice() const noexcept { return m_notice; }
  QProgressBar* progressBar() const noexcept { return m_progress; }

 public slots:
  void chooseAndOpen();
  void chooseAndBuild();
  void chooseAndGenerate();
  void openDefault();
  void cancelJob();

 private:
  void onIndexChanged(const IndexHandlePtr& handle);
  void onJobStarted(const QString& description);
  void onProgress(const QString& stage, quint64 done, quint64 total);
  void onJobFinished(const QString& message);
  void onJobFailed(const QString& message);
  void onJobCancelled(const QString& kept);
  void setBusy(bool busy);
  void showWelcome();

  WorkbenchContext m_context;
  quint64 m_defaultDocs;
  QString m_defaultCacheRoot;
  bool m_screenshotPending = false;
  // The last build asked for: the Build dialog opens with it, so a build that failed (a malformed
  // corpus line, say) is retried with one box ticked instead of every field typed again.
  std::optional<BuildRequest> m_lastBuild;
  std::optional<GenerateRequest> m_lastGenerate;  // likewise for the Generate dialog
  QElapsedTimer m_jobTimer;

  QAction* m_openAction = nullptr;
  QAction* m_buildAction = nullptr;
  QAction* m_generateAction = nullptr;
  QAction* m_defaultAction = nullptr;
  QAction* m_cancelAction = nullptr;
  widgets::NoticeBar* m_notice = nullptr;
  QWidget* m_progressRow = nullptr;
  QLabel* m_progressLabel = nullptr;
  QProgressBar* m_progress = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QLabel* m_indexLabel = nullptr;
  QSplitter* m_splitter = nullptr;
  QSplitter* m_plotSplitter = nullptr;
  QTableView* m_statsView = nullptr;
  widgets::IndexStatsModel* m_stats = nullptr;
  widgets::DistributionPlot* m_dfPlot = nullptr;
  widgets::DistributionPlot* m_lengthPlot = nullptr;
};

}  // namespace wandscope::app
