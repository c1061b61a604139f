// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/load_page.h"

#include "app/gui/pages/page_widgets.h"
#include "app/controllers/history_controller.h"
#include "app/controllers/index_controller.h"
#include "app/controllers/load_controller.h"
#include "app/gui/simd_selector.h"
#include "app/workers/report_bundle.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/log.h"
#include "engine/core/wording.h"
#include "widgets/metric_descriptions.h"
#include "widgets/models/rung_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"
#include "widgets/views/notice_bar.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <exception>

namespace wandscope::app {
namespace {

}  // namespace

LoadPage::LoadPage(const WorkbenchContext& context, QWidget* parent)
    : Page(parent), m_context(context), m_defaultDocs(IndexController::kDefaultDocs) {
  m_startAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), QStringLiteral("&Start run"), this);
  m_startAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  m_startAction->setToolTip(QStringLiteral("Run the selected profile (Ctrl+R). The run is recorded in the run store, "
                                           "labelled as measured with the GUI attached."));
  m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), QStringLiteral("S&top run"), this);
  m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
  m_stopAction->setToolTip(QStringLiteral("Stop between requests (Ctrl+.): the current rung ends partial and the "
                                          "partial report is kept"));
  m_stopAction->setEnabled(false);
  m_exportAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), QStringLiteral("&Export report\u2026"), this);
  m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  m_exportAction->setToolTip(QStringLiteral("Write report.md, report.json, rungs.csv and report.html (plots "
                                            "embedded) into a directory (Ctrl+Shift+S)"));
  m_exportAction->setEnabled(false);
  m_openProfileAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), QStringLiteral("Open &profile\u2026"), this);
  m_openProfileAction->setToolTip(QStringLiteral("Run a benchmark profile file (JSON, benchprofiles/README.md)"));
  connect(m_startAction, &QAction::triggered, this, &LoadPage::startRun);
  connect(m_stopAction, &QAction::triggered, this, &LoadPage::stopRun);
  connect(m_exportAction, &QAction::triggered, this, &LoadPage::exportReport);
  connect(m_openProfileAction, &QAction::triggered, this, &LoadPage::chooseProfileFile);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(6);

  auto* bar = new QHBoxLayout;
  auto* profileLabel = new QLabel(QStringLiteral("&Profile:"), this);
  m_profile = new QComboBox(this);
  m_profile->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_profile->setMinimumContentsLength(22);
  m_profile->setToolTip(QStringLiteral("What to measure: the quick ladder on the embedded default dataset, a "
                                       "profile from benchprofiles/, or a file you opened"));
  profileLabel->setBuddy(m_profile);
  m_profile->addItem(QStringLiteral("Quick ladder (embedded default)"), embeddedProfileKey());
  const QDir dir(profileDirectory());
  if (!profileDirectory().isEmpty()) {
    for (const QFileInfo& f : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
      m_profile->addItem(f.fileName(), f.absoluteFilePath());
      m_profile->setItemData(m_profile->count() - 1, f.absoluteFilePath(), Qt::ToolTipRole);
    }
  }
  auto* targetsLabel = new QLabel(QStringLiteral("&Targets:"), this);
  m_targets = new QLineEdit(this);
  m_targets->setPlaceholderText(QStringLiteral("the profile's targets"));
  m_targets->setClearButtonEnabled(true);
  m_targets->setToolTip(QStringLiteral(
      "Comma-separated targets replacing the profile's: builtin[:opt=v,...] (search switches, algo=, op=, k=) "
      "or synthetic:service_us=N. Empty: the profile's own."));
  targetsLabel->setBuddy(m_targets);
  bar->addWidget(profileLabel);
  bar->addWidget(m_profile);
  bar->addWidget(actionButton(m_openProfileAction, this));
  bar->addSpacing(8);
  bar->addWidget(targetsLabel);
  bar->addWidget(m_targets, 1);
  bar->addSpacing(8);
  auto* simdLabel = new QLabel(QStringLiteral("SI&MD:"), this);
  m_simd = new SimdSelector(this);
  simdLabel->setBuddy(m_simd);
  bar->addWidget(simdLabel);
  bar->addWidget(m_simd);
  bar->addSpacing(8);
  bar->addWidget(actionButton(m_startAction, this));
  bar->addWidget(actionButton(m_stopAction, this));
  bar->addWidget(actionButton(m_exportAction, this));
  layout->addLayout(bar);

  m_description = new QLabel(this);
  m_description->setWordWrap(true);
  m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_description);

  m_notice = new widgets::NoticeBar(this);
  layout->addWidget(m_notice);

  auto* statusRow = new QVBoxLayout;
  statusRow->setSpacing(2);
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("status"));
  m_status->setTextFormat(Qt::PlainText);
  m_status->setMinimumWidth(0);
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_status->setToolTip(QStringLiteral("What the runner is doing now (updated a few times a second)"));
  m_verdict = new QLabel(this);
  m_verdict->setTextFormat(Qt::RichText);
  m_verdict->setWordWrap(true);  // several targets: wrap rather than widen the window
  m_verdict->setToolTip(widgets::metricDescription(u"verdict"));
  statusRow->addWidget(m_status);
  statusRow->addWidget(m_verdict);
  layout->addLayout(statusRow);

  m_splitter = new QSplitter(Qt::Vertical, this);
  m_dashboard = new widgets::LoadDashboard(m_splitter);
  m_splitter->addWidget(m_dashboard);
  m_rungs = new widgets::RungTableModel(this);
  m_rungView = new QTableView(m_splitter);
  m_rungView->setModel(m_rungs);
  m_rungView->setObjectName(QStringLiteral("rungs"));
  m_rungView->verticalHeader()->setVisible(false);
  m_rungView->verticalHeader()->setDefaultSectionSize(m_rungView->fontMetrics().height() + 6);
  m_rungView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_rungView->horizontalHeader()->setStretchLastSection(true);
  m_rungView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_rungView->setAlternatingRowColors(true);
  m_rungView->setWordWrap(false);
  m_splitter->addWidget(m_rungView);
  m_splitter->setStretchFactor(0, 3);
  m_splitter->setStretchFactor(1, 2);
  layout->addWidget(m_splitter, 1);

  connect(m_dashboard, &widgets::LoadDashboard::exported, this,
          [this](const QString& path) { emit statusMessage(QStringLiteral("Exported the plot to %1").arg(path)); });
  connect(m_dashboard, &widgets::LoadDashboard::exportFailed, this, [this](const QString& message) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
    emit errorOccurred(message);
  });

  connect(m_profile, &QComboBox::currentIndexChanged, this, &LoadPage::onProfileChanged);
  auto* c = m_context.load;
  connect(c, &LoadController::runStarted, this, &LoadPage::onRunStarted);
  connect(c, &LoadController::liveBatchReady, this, &LoadPage::onBatch);
  connect(c, &LoadController::rungFinished, this, &LoadPage::onRung);
  connect(c, &LoadController::message, this, [this](const QString& text) { m_status->setText(text); });
  connect(c, &LoadController::runFinished, this, &LoadPage::onFinished);
  connect(c, &LoadController::runFailed, this, &LoadPage::onFailed);
  connect(c, &LoadController::runningChanged, this, &LoadPage::onRunningChanged);

  m_elapsedTimer.setInterval(1000);
  connect(&m_elapsedTimer, &QTimer::timeout, this, &LoadPage::updateElapsed);
  onProfileChanged();
  m_status->setText(QStringLiteral("Pick a profile and press Start. The plots fill a few times a second; the "
                                   "rung table as rungs finish."));
}

void LoadPage::setDefaultDocs(quint64 docs) {
  m_defaultDocs = docs;
  onProfileChanged();  // the quick ladder's description names the size
}

QList<QAction*> LoadPage::menuActions() const {
  return {m_startAction, m_stopAction, m_exportAction, m_openProfileAction};
}

QString LoadPage::profileDirectory() {
  QStringList candidates;
  const QString env = qEnvironmentVariable("WANDSCOPE_BENCHPROFILES");
  if (!env.isEmpty()) candidates << env;
  const QString app = QCoreApplication::applicationDirPath();
  candidates << QString(app + QStringLiteral("/../share/wandscope/benchprofiles"))
             << QString(app + QStringLiteral("/benchprofiles"));
#ifdef WANDSCOPE_SOURCE_DIR
  candidates << QStringLiteral(WANDSCOPE_SOURCE_DIR "/benchprofiles");
#endif
  for (const QString& c : candidates) {
    if (QFileInfo(c).isDir()) return QDir(c).absolutePath();
  }
  return {};
}

QString LoadPage::quickLadderJson(quint64 docs) {
  // Four open-loop rungs at 1/8 .. 3/4 of the calibrated sequential throughput: enough to see
  // latency rise with load, short enough (~10 s) to try from the first launch.
  return QStringLiteral(R"({
  "format_version": 1,
  "name": "quick-ladder",
  "description": "Four short open-loop rungs at 1/8, 1/4, 1/2 and 3/4 of the built-in engine's sequential throughput (all four run, even after a failing one), on the embedded default dataset (%1 documents), mid-df-2 AND queries. About ten seconds; for seeing the instrument work, not for publishing.",
  "dataset": {"default": {"docs": %1}},
  "query_sets": ["mid-df-2"],
  "query": {"op": "and", "k": 10, "algorithm": "auto"},
  "targets": ["builtin"],
  "seed": 42,
  "mode": "open",
  "ladder": {
    "arrivals": "uniform",
    "multiples": [0.125, 0.25, 0.5, 0.75],
    "calibration_s": 0.75,
    "calibration_warmup_s": 0.25,
    "calibration_min_requests": 200,
    "settle_s": 0.25,
    "rung_duration_s": 1,
    "workers": 2,
    "in_flight_cap": 32,
    "stop_after_fail": false
  }
})")
      .arg(docs);
}

std::optional<engine::BenchProfile> LoadPage::currentProfile(QString* error) const {
  try {
    const QString source = m_profile->currentData().toString();
    engine::BenchProfile profile;
    if (source == embeddedProfileKey()) {
      profile = engine::parseBenchProfile(quickLadderJson(m_defaultDocs).toStdString(), "quick-ladder", {});
    } else {
      profile = engine::loadBenchProfile(std::filesystem::path(source.toStdString()));
    }
    engine::BenchOverrides overrides;
    for (const QString& t : m_targets->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      if (!t.trimmed().isEmpty()) overrides.targets.push_back(t.trimmed().toStdString());
    }
    if (!overrides.targets.empty()) engine::applyOverrides(profile, overrides);
    return profile;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

void LoadPage::selectProfileFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  int i = m_profile->findData(absolute);
  if (i < 0) {
    m_profile->addItem(QFileInfo(path).fileName(), absolute);
    i = m_profile->count() - 1;
    m_profile->setItemData(i, absolute, Qt::ToolTipRole);
  }
  m_profile->setCurrentIndex(i);
}

void LoadPage::setTargets(const QString& targets) { m_targets->setText(targets); }

void LoadPage::chooseProfileFile() {
  const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a benchmark profile"), profileDirectory(),
                                                    QStringLiteral("Benchmark profiles (*.json)"));
  if (!path.isEmpty()) selectProfileFile(path);
}

void LoadPage::onProfileChanged() {
  QString error;
  const auto profile = currentProfile(&error);
  if (!profile) {
    m_description->setText(QStringLiteral("<i>This profile cannot be run:</i> %1").arg(error.toHtmlEscaped()));
    m_targets->setPlaceholderText(QString());
    return;
  }
  QStringList targets;
  for (const auto& t : profile->targets) targets << QString::fromStdString(t);
  m_targets->setPlaceholderText(targets.join(QStringLiteral(", ")));
  m_description->setText(QString::fromStdString(profile->description).toHtmlEscaped());
  m_description->setToolTip(QString::fromStdString(engine::benchProfileJson(*profile)));
}

void LoadPage::startRun() {
  if (m_context.load->isRunning()) return;
  QString error;
  auto profile = currentProfile(&error);
  if (!profile) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    if (m_screenshotPending) {
      m_screenshotPending = false;
      emit screenshotReady();
    }
    return;
  }
  // The run measures the target the selector shows (a switch waiting for an Explore query to end
  // is applied now); the selectors stay locked until the run ends.
  SimdSelector::applyPending();
  m_context.load->start(std::move(*profile));
}

void LoadPage::stopRun() {
  if (!m_context.load->isRunning()) return;
  m_context.load->stop();
  m_stopAction->setEnabled(false);  // asked once; the run ends at the next request boundary
}

void LoadPage::onRunStarted(quint64, const QString& profile) {
  m_report.reset();
  m_batches = 0;
  m_rungs->clear();
  m_dashboard->clear();
  m_verdict->clear();
  m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                       QStringLiteral("Running %1 with the GUI attached: the numbers include the workbench's own "
                                      "small cost and are labelled as such. For clean numbers run the same "
                                      "profile with wandscope-cli bench.")
                           .arg(profile));
  m_status->setText(QStringLiteral("Starting %1 on SIMD target %2\u2026").arg(profile, SimdSelector::inUse()));
  m_runTimer.start();
  m_elapsedTimer.start();
}

void LoadPage::updateElapsed() {
  if (!m_context.load->isRunning()) return;
  m_verdict->setText(QStringLiteral("<i>%1 s</i>").arg(m_runTimer.elapsed() / 1000));
}

void LoadPage::onBatch(const widgets::LiveBatchPtr& batch) {
  ++m_batches;
  m_dashboard->appendLive(*batch);
  // While stopping, the runner still reports its rung: say both, or the next tick's line replaced
  // "Stopping" within 50 ms and Stop looked as if it had done nothing.
  if (!batch->status.isEmpty()) {
    m_status->setText(m_context.load->isStopping() ? QStringLiteral("Stopping (the current rung ends partial): %1").arg(batch->status)
                                                   : batch->status);
  }
}

void LoadPage::onRung(const engine::RungResult& rung) {
  m_rungs->addRung(rung);
  fitRungColumns();
  m_dashboard->addRung(rung);
  m_rungView->scrollToBottom();
}

void LoadPage::fitRungColumns() {
  // The numbers fit their contents; the verdict (last) takes the width they leave, elided, with
  // the whole text in its tooltip: sized to its contents it pushed itself, header included, out
  // of view.
  static_assert(widgets::RungTableModel::Verdict == widgets::RungTableModel::ColumnCount - 1,
                "the verdict is the stretched last section");
  for (int c = 0; c < widgets::RungTableModel::Verdict; ++c) m_rungView->resizeColumnToContents(c);
}

void LoadPage::onFinished(const RunReportPtr& report) {
  m_elapsedTimer.stop();
  if (!report->started) {
    // Stopped while the dataset was prepared: no rung, no stored run, nothing to export.
    const QString what = QStringLiteral("Stopped while the dataset was prepared: nothing was measured or stored.");
    m_status->setText(what);
    m_notice->showNotice(widgets::NoticeBar::Kind::Warning, what, QString());
    emit statusMessage(what);
    return;
  }
  m_report = report;
  // The report is what the store holds; show exactly its rungs.
  if (m_rungs->rowCount() != static_cast<int>(report->rungs.size())) m_rungs->setRungs(report->rungs);
  fitRungColumns();
  QStringList verdicts;
  for (const auto& [target, c] : report->capacity) {
    // The same words as the CLI and report.md, criterion included: an interval ending at an
    // invalid rung was shown as if the target had failed there.
    verdicts << QStringLiteral("<b>%1</b>: sustainable rate %2")
                    .arg(QString::fromStdString(target).toHtmlEscaped(),
                         QString::fromStdString(engine::describeCapacity(c)).toHtmlEscaped());
  }
  m_verdict->setText(verdicts.isEmpty() ? QString() : verdicts.join(QStringLiteral(" \u00b7 ")));
  const QString what = QStringLiteral("Run %1: %2 on SIMD target %3%4.")
                           .arg(QString::fromStdString(report->header.runId),
                                QString::fromStdString(engine::counted(report->rungs.size(), "rung", "rungs")),
                                QString::fromStdString(report->header.environment.simdTarget),
                                report->partial ? QStringLiteral(", stopped early (partial)") : QString());
  m_status->setText(what + (m_context.load->storePath().isEmpty() ? QString()
                                                                 : QStringLiteral(" Recorded in the run store (History).")));
  // The report's warnings (report.md heads it with them) are said here too: a run on a shared
  // machine, or of requests as short as the clock reads timing them, was a green success.
  const QString warnings = warningsText(report->warnings);
  m_notice->showNotice(report->partial || !warnings.isEmpty() ? widgets::NoticeBar::Kind::Warning
                                                              : widgets::NoticeBar::Kind::Positive,
                       what + QStringLiteral(" Measured with the GUI attached.") +
                           (warnings.isEmpty() ? QString() : QLatin1Char(' ') + warnings),
                       QString());
  m_exportAction->setEnabled(true);
  if (m_context.history) m_context.history->notifyChanged();
  emit statusMessage(what);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    QTimer::singleShot(3 * widgets::DistributionPlot::kReplotIntervalMs + 200, this, &Page::screenshotReady);
  }
}

void LoadPage::onFailed(const QString& message) {
  m_elapsedTimer.stop();
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
  m_status->setText(QStringLiteral("The run failed."));
  emit errorOccurred(message);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

void LoadPage::onRunningChanged(bool running) {
  SimdSelector::setRunInFlight(running);
  m_startAction->setEnabled(!running);
  m_stopAction->setEnabled(running);
  m_profile->setEnabled(!running);
  m_targets->setEnabled(!running);
  m_openProfileAction->setEnabled(!running);
  if (running) m_exportAction->setEnabled(false);
}

void LoadPage::exportReport() {
  if (!m_report) return;
  const QString dir = QFileDialog::getExistingDirectory(
      this, QStringLiteral("Export the report bundle into"),
      QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
  if (dir.isEmpty()) return;
  const QString target = QDir(dir).filePath(QString::fromStdString(m_report->header.runId));
  QString error;
  if (exportReportTo(target, &error)) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Positive, QStringLiteral("Wrote the report bundle to %1").arg(target));
  } else {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
  }
}

bool LoadPage::exportReportTo(const QString& dir, QString* error) {
  if (!m_report) {
    if (error) *error = QStringLiteral("No finished run to export");
    return false;
  }
  return writeReportBundle(dir, *m_report, renderPlots(m_dashboard->plots()), error);
}

void LoadPage::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("profile"), m_profile->currentData().toString());
  settings.setValue(QStringLiteral("targets"), m_targets->text());
  settings.setValue(QStringLiteral("splitter"), m_splitter->saveState());
  SimdSelector::saveSettings(settings);
}

void LoadPage::restoreSettings(QSettings& settings) {
  const QString profile = settings.value(QStringLiteral("profile")).toString();
  if (!profile.isEmpty() && profile != embeddedProfileKey() && QFileInfo::exists(profile)) selectProfileFile(profile);
  m_targets->setText(settings.value(QStringLiteral("targets")).toString());
  m_splitter->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
  SimdSelector::restoreSettings(settings);
}

void LoadPage::prepareScreenshot() {
  // The quick ladder on the embedded default, at the size the Index page opened.
  m_profile->setCurrentIndex(0);
  m_targets->clear();
  m_screenshotPending = true;
  startRun();
}

}  // namespace wandscope::app
