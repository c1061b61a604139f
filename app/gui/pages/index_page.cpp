// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/index_page.h"

#include "app/gui/pages/page_widgets.h"
#include "app/controllers/index_controller.h"
#include "app/gui/dialogs/build_index_dialog.h"
#include "app/gui/dialogs/generate_corpus_dialog.h"
#include "widgets/metric_descriptions.h"
#include "widgets/models/index_stats_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/notice_bar.h"

#include <QAction>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace wandscope::app {
namespace {

QString withShortcut(const QString& tip, const QAction* action) {
  if (action->shortcut().isEmpty()) return tip;
  return QStringLiteral("%1 (%2)").arg(tip, action->shortcut().toString(QKeySequence::NativeText));
}

}  // namespace

IndexPage::IndexPage(const WorkbenchContext& context, QWidget* parent)
    : Page(parent), m_context(context), m_defaultDocs(IndexController::kDefaultDocs) {
  // Actions (also in the File menu, with their shortcuts).
  m_openAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), QStringLiteral("&Open index\u2026"), this);
  m_openAction->setShortcut(QKeySequence::Open);
  m_openAction->setToolTip(withShortcut(QStringLiteral("Open an index directory"), m_openAction));
  m_buildAction = new QAction(style()->standardIcon(QStyle::SP_FileDialogNewFolder), QStringLiteral("&Build from corpus\u2026"), this);
  m_buildAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  m_buildAction->setToolTip(withShortcut(QStringLiteral("Index a BEIR or MS MARCO corpus file"), m_buildAction));
  m_generateAction = new QAction(style()->standardIcon(QStyle::SP_FileIcon), QStringLiteral("&Generate corpus\u2026"), this);
  m_generateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
  m_generateAction->setToolTip(withShortcut(QStringLiteral("Generate a synthetic Zipfian corpus and index it"), m_generateAction));
  m_defaultAction = new QAction(style()->standardIcon(QStyle::SP_DriveHDIcon), QStringLiteral("Open the embedded &default"), this);
  m_defaultAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  m_defaultAction->setToolTip(withShortcut(
      QStringLiteral("200,000 generated documents of ~300 tokens, their index and 11 query sets; "
                     "prepared on first use (it takes a while once), then cached"),
      m_defaultAction));
  m_cancelAction = new QAction(style()->standardIcon(QStyle::SP_DialogCancelButton), QStringLiteral("&Cancel"), this);
  m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
  m_cancelAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  m_cancelAction->setToolTip(QStringLiteral("Cancel the running operation (Esc); nothing is left half-written"));
  m_cancelAction->setEnabled(false);
  addAction(m_cancelAction);
  connect(m_openAction, &QAction::triggered, this, &IndexPage::chooseAndOpen);
  connect(m_buildAction, &QAction::triggered, this, &IndexPage::chooseAndBuild);
  connect(m_generateAction, &QAction::triggered, this, &IndexPage::chooseAndGenerate);
  connect(m_defaultAction, &QAction::triggered, this, &IndexPage::openDefault);
  connect(m_cancelAction, &QAction::triggered, this, &IndexPage::cancelJob);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(6);

  auto* bar = new QHBoxLayout;
  bar->addWidget(actionButton(m_openAction, this));
  bar->addWidget(actionButton(m_buildAction, this));
  bar->addWidget(actionButton(m_generateAction, this));
  bar->addWidget(actionButton(m_defaultAction, this));
  bar->addSpacing(12);
  m_indexLabel = new QLabel(this);
  m_indexLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_indexLabel->setToolTip(widgets::metricDescription(u"path_index"));
  // A long index path must not widen the page beyond the window (every page fits 1280 px): the
  // label takes the room left by the buttons and the path is elided in the middle.
  m_indexLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_indexLabel->setMinimumWidth(120);
  bar->addWidget(m_indexLabel, 1);
  layout->addLayout(bar);

  m_notice = new widgets::NoticeBar(this);
  connect(m_notice, &widgets::NoticeBar::actionTriggered, this, &IndexPage::openDefault);
  layout->addWidget(m_notice);

  m_progressRow = new QWidget(this);
  auto* progressLayout = new QHBoxLayout(m_progressRow);
  progressLayout->setContentsMargins(0, 0, 0, 0);
  m_progressLabel = new QLabel(m_progressRow);
  m_progressLabel->setMinimumWidth(320);
  m_progress = new QProgressBar(m_progressRow);
  m_progress->setRange(0, 1000);
  m_progress->setTextVisible(true);
  m_cancelButton = new QPushButton(style()->standardIcon(QStyle::SP_DialogCancelButton), QStringLiteral("Cancel"),
                                   m_progressRow);
  m_cancelButton->setToolTip(m_cancelAction->toolTip());
  connect(m_cancelButton, &QPushButton::clicked, this, &IndexPage::cancelJob);
  progressLayout->addWidget(m_progressLabel);
  progressLayout->addWidget(m_progress, 1);
  progressLayout->addWidget(m_cancelButton);
  m_progressRow->setVisible(false);
  layout->addWidget(m_progressRow);

  // Statistics on the left, plots on the right.
  m_splitter = new QSplitter(Qt::Horizontal, this);
  auto* statsBox = new QGroupBox(QStringLiteral("Statistics"), m_splitter);
  auto* statsLayout = new QVBoxLayout(statsBox);
  statsLayout->setContentsMargins(4, 4, 4, 4);
  m_stats = new widgets::IndexStatsModel(this);
  m_statsView = new QTableView(statsBox);
  m_statsView->setModel(m_stats);
  m_statsView->verticalHeader()->setVisible(false);
  m_statsView->verticalHeader()->setDefaultSectionSize(m_statsView->fontMetrics().height() + 8);
  m_statsView->horizontalHeader()->setStretchLastSection(true);
  m_statsView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  m_statsView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_statsView->setAlternatingRowColors(true);
  m_statsView->setWordWrap(false);
  m_statsView->setTextElideMode(Qt::ElideMiddle);
  m_statsView->setToolTip(QString());
  statsLayout->addWidget(m_statsView);
  m_splitter->addWidget(statsBox);

  m_plotSplitter = new QSplitter(Qt::Vertical, m_splitter);
  m_dfPlot = new widgets::DistributionPlot(m_plotSplitter);
  m_dfPlot->setTitle(QStringLiteral("Document-frequency distribution"));
  m_dfPlot->setAxisLabels(QStringLiteral("document frequency (df, power-of-two bins)"), QStringLiteral("terms"));
  m_dfPlot->addSeries(QStringLiteral("terms per df bin"), widgets::DistributionPlot::Style::Steps);
  m_dfPlot->setEmptyText(QStringLiteral("No index open"));
  m_dfPlot->setToolTip(QStringLiteral(
      "How many terms have each document frequency, in bins [2^i, 2^(i+1)). A Zipfian corpus gives "
      "a nearly straight line on log-log axes: many rare terms (short lists, high idf), few common "
      "ones (long lists, low idf). Right-click to export."));
  m_lengthPlot = new widgets::DistributionPlot(m_plotSplitter);
  m_lengthPlot->setTitle(QStringLiteral("Posting-list length by term rank"));
  m_lengthPlot->setAxisLabels(QStringLiteral("term rank (1 = longest list)"), QStringLiteral("length"));
  m_lengthPlot->addSeries(QStringLiteral("df (postings)"), widgets::DistributionPlot::Style::Line);
  m_lengthPlot->addSeries(QStringLiteral("cf (occurrences)"), widgets::DistributionPlot::Style::Line);
  m_lengthPlot->setEmptyText(QStringLiteral("No index open"));
  m_lengthPlot->setToolTip(QStringLiteral(
      "Every term's posting-list length (df: documents) and occurrences (cf), terms sorted by df. "
      "The head of the curve is where queries spend their time; block-max pruning skips most of it. "
      "Right-click to export."));
  m_plotSplitter->addWidget(m_dfPlot);
  m_plotSplitter->addWidget(m_lengthPlot);
  m_splitter->addWidget(m_plotSplitter);
  m_splitter->setStretchFactor(0, 2);
  m_splitter->setStretchFactor(1, 3);
  m_splitter->setSizes({440, 800});
  layout->addWidget(m_splitter, 1);

  for (auto* plot : {m_dfPlot, m_lengthPlot}) {
    connect(plot, &widgets::DistributionPlot::exported, this,
            [this](const QString& path) { emit statusMessage(QStringLiteral("Exported the plot to %1").arg(path)); });
    connect(plot, &widgets::DistributionPlot::exportFailed, this, [this](const QString& message) {
      m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
      emit errorOccurred(message);
    });
  }

  auto* c = m_context.index;
  connect(c, &IndexController::indexChanged, this, &IndexPage::onIndexChanged);
  connect(c, &IndexController::jobStarted, this, &IndexPage::onJobStarted);
  connect(c, &IndexController::progressChanged, this, &IndexPage::onProgress);
  connect(c, &IndexController::jobFinished, this, &IndexPage::onJobFinished);
  connect(c, &IndexController::jobFailed, this, &IndexPage::onJobFailed);
  connect(c, &IndexController::jobCancelled, this, &IndexPage::onJobCancelled);
  connect(c, &IndexController::busyChanged, this, &IndexPage::setBusy);

  if (c->current()) {
    onIndexChanged(c->current());
  } else {
    showWelcome();
  }
  if (c->isBusy()) {
    onJobStarted(c->currentJob());
  }
}

QList<QAction*> IndexPage::menuActions() const {
  return {m_openAction, m_buildAction, m_generateAction, m_defaultAction, m_cancelAction};
}

void IndexPage::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("splitter"), m_splitter->saveState());
  settings.setValue(QStringLiteral("plotSplitter"), m_plotSplitter->saveState());
}

void IndexPage::restoreSettings(QSettings& settings) {
  m_splitter->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
  m_plotSplitter->restoreState(settings.value(QStringLiteral("plotSplitter")).toByteArray());
}

void IndexPage::showWelcome() {
  m_indexLabel->setText(QStringLiteral("<i>No index open</i>"));
  m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                       QStringLiteral("No index is open. Open an index directory, build one from a corpus "
                                      "file or the generator, or start with the embedded default dataset "
                                      "(generated and indexed on first use, then cached)."),
                       QStringLiteral("Open the embedded default"));
}

void IndexPage::chooseAndOpen() {
  const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Open an index directory"),
                                                        m_context.index->currentPath());
  if (!dir.isEmpty()) m_context.index->openIndex(dir);
}

void IndexPage::chooseAndBuild() {
  BuildIndexDialog dialog(this);
  if (m_lastBuild) dialog.setRequest(*m_lastBuild);
  if (dialog.exec() != QDialog::Accepted) return;
  m_lastBuild = dialog.request();
  m_context.index->buildIndex(*m_lastBuild);
}

void IndexPage::chooseAndGenerate() {
  GenerateCorpusDialog dialog(this);
  if (m_lastGenerate) dialog.setRequest(*m_lastGenerate);
  if (dialog.exec() != QDialog::Accepted) return;
  m_lastGenerate = dialog.request();
  m_context.index->generateCorpus(*m_lastGenerate);
}

void IndexPage::openDefault() { m_context.index->openDefault(m_defaultDocs, m_defaultCacheRoot); }

void IndexPage::cancelJob() { m_context.index->cancel(); }

void IndexPage::setBusy(bool busy) {
  m_progressRow->setVisible(busy);
  m_cancelAction->setEnabled(busy);
}

void IndexPage::onJobStarted(const QString& description) {
  m_jobTimer.start();
  m_progressLabel->setText(description);
  m_progress->setRange(0, 0);  // busy until the first progress report
  m_progress->setFormat(QString());
  setBusy(true);
  if (m_notice->kind() != widgets::NoticeBar::Kind::Error) m_notice->hideNotice();
}

void IndexPage::onProgress(const QString& stage, quint64 done, quint64 total) {
  const qint64 seconds = m_jobTimer.isValid() ? m_jobTimer.elapsed() / 1000 : 0;
  m_progressLabel->setText(QStringLiteral("%1 \u2014 %2 s").arg(stage).arg(seconds));
  if (total == 0) {
    m_progress->setRange(0, 0);
    return;
  }
  m_progress->setRange(0, 1000);
  m_progress->setValue(static_cast<int>(std::min<quint64>(1000, done * 1000 / total)));
  m_progress->setFormat(QStringLiteral("%p%"));
}

void IndexPage::onJobFinished(const QString& message) {
  m_notice->showNotice(widgets::NoticeBar::Kind::Positive, message);
  emit statusMessage(message);
}

void IndexPage::onJobFailed(const QString& message) {
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
  emit errorOccurred(message);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

void IndexPage::onJobCancelled(const QString& kept) {
  m_notice->showNotice(widgets::NoticeBar::Kind::Warning,
                       kept.isEmpty() ? QStringLiteral("Cancelled: %1. Nothing was changed.").arg(m_progressLabel->text())
                                      : QStringLiteral("Cancelled: %1. Kept %2.").arg(m_progressLabel->text(), kept));
  emit statusMessage(QStringLiteral("Cancelled"));
}

void IndexPage::onIndexChanged(const IndexHandlePtr& handle) {
  if (!handle || !handle->summary) return;
  const auto& s = *handle->summary;
  m_indexLabel->setText(QStringLiteral("<b>%1</b> \u2014 %2 documents, %3 terms")
                            .arg(m_indexLabel->fontMetrics().elidedText(s.path, Qt::ElideMiddle, 420).toHtmlEscaped(),
                                 QLocale().toString(static_cast<qulonglong>(s.stats.docs)),
                                 QLocale().toString(static_cast<qulonglong>(s.stats.terms))));
  m_indexLabel->setToolTip(s.path + QStringLiteral("\n\n") + widgets::metricDescription(u"path_index"));
  m_stats->setSummary(handle->summary);
  m_dfPlot->setSeriesData(0, s.dfBinKeys, s.dfBinCounts);
  m_lengthPlot->setSeriesData(0, s.rankKeys, s.rankDf);
  m_lengthPlot->setSeriesData(1, s.rankKeys, s.rankCf);
  m_dfPlot->setEmptyText(QStringLiteral("The index is empty"));
  m_lengthPlot->setEmptyText(QStringLiteral("The index is empty"));
  if (m_screenshotPending) {
    m_screenshotPending = false;
    QTimer::singleShot(3 * widgets::DistributionPlot::kReplotIntervalMs + 200, this, &Page::screenshotReady);
  }
}

void IndexPage::prepareScreenshot() {
  if (m_context.index->current() && !m_context.index->isBusy()) {
    QTimer::singleShot(3 * widgets::DistributionPlot::kReplotIntervalMs + 200, this, &Page::screenshotReady);
    return;
  }
  m_screenshotPending = true;
  if (!m_context.index->isBusy()) openDefault();
}

}  // namespace wandscope::app
