// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/compare_page.h"

#include "app/gui/pages/page_widgets.h"
#include "app/controllers/compare_controller.h"
#include "app/controllers/history_controller.h"
#include "app/controllers/index_controller.h"
#include "app/gui/pages/load_page.h"
#include "app/workers/compare_recorded_runs.h"
#include "engine/bench/compare_report_writer.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/loadgen/target_spec.h"
#include "widgets/models/ratio_table_model.h"
#include "widgets/plots/compare_plot.h"
#include "widgets/rate_format.h"
#include "widgets/views/notice_bar.h"
#include "widgets/views/result_diff_view.h"

#include <QAction>
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <set>

namespace wandscope::app {
namespace {

// An offered rate as a plot category ("400/s"), the same for live points and report rows.
QString rateCategory(double rate) { return widgets::formatRate(rate); }

// The plot's category of a report row: its query set, or an open-loop row's offered rate (every
// row of a ladder has the same query set).
QString plotCategory(const engine::CompareScenario& s) {
  return s.offeredRate ? rateCategory(*s.offeredRate) : QString::fromStdString(s.querySet);
}

bool isOpenMetric(const std::string& metric) { return metric == "open_p50_ms" || metric == "open_p99_ms"; }

// "CPU ms/query", "p50", ...; an open-loop row's quantile of due-time latency.
QString metricLabel(const std::string& metric) {
  if (metric == "open_p50_ms") return QStringLiteral("p50");
  if (metric == "open_p99_ms") return QStringLiteral("p99");
  return widgets::RatioTableModel::metricTitle(metric);
}

// "B = spec, B2 = spec, ...": every target but A of `specs` (A, B, B2, ...), for the notices.
QString othersText(const QStringList& specs) {
  QStringList others;
  for (qsizetype i = 1; i < specs.size(); ++i) {
    others << QStringLiteral("%1 = %2").arg(QString::fromStdString(engine::CompareReport::targetLabel(static_cast<std::size_t>(i))),
                                            specs[i]);
  }
  return others.join(QStringLiteral(", "));
}

QString targetTip(const QString& spec) {
  if (spec == QLatin1String("builtin")) return QStringLiteral("The engine in this binary with its default switches");
  if (spec.startsWith(QLatin1String("builtin:"))) {
    return QStringLiteral("The engine in this binary with these search switches (SearchOptions; algo=, op=, k= too)");
  }
  if (spec == QLatin1String("xapian")) {
    return QStringLiteral("Xapian (BM25Weight) fed our analyzer's tokens; results compared by overlap, docs/PEERS.md");
  }
  if (spec == QLatin1String("sqlite-fts5")) {
    return QStringLiteral("SQLite FTS5 with bm25() fed our analyzer's tokens; results compared by overlap, docs/PEERS.md");
  }
  return {};
}

QComboBox* targetCombo(const QString& initial, QWidget* parent) {
  auto* c = new QComboBox(parent);
  c->setEditable(true);
  c->setInsertPolicy(QComboBox::NoInsert);
  c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  c->setMinimumContentsLength(18);
  for (const QString& t : ComparePage::builtinTargetChoices()) {
    c->addItem(t);
    c->setItemData(c->count() - 1, targetTip(t), Qt::ToolTipRole);
  }
  c->setCurrentText(initial);
  c->setToolTip(QStringLiteral(
      "builtin[:opt=v,...] (search switches, algo=, op=, k=), plugin:PATH[:opts] (an engine build, docs/PLUGIN_ABI.md; "
      "choose the file with Plugin\u2026), xapian or sqlite-fts5 (peers)"));
  return c;
}

}  // namespace

ComparePage::ComparePage(const WorkbenchContext& context, CompareController* controller, QWidget* parent)
    : Page(parent), m_context(context), m_controller(controller), m_defaultDocs(IndexController::kDefaultDocs) {
  m_startAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), QStringLiteral("&Start comparison"), this);
  m_startAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  m_startAction->setToolTip(QStringLiteral("Run A and B interleaved on the profile's query sets (Ctrl+Shift+C), as "
                                           "wandscope-cli compare does"));
  m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), QStringLiteral("S&top comparison"), this);
  m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
  m_stopAction->setToolTip(QStringLiteral("Stop after the current pass (Ctrl+Shift+K): the finished query sets are "
                                          "kept as a partial report"));
  m_stopAction->setEnabled(false);
  m_exportAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), QStringLiteral("E&xport comparison\u2026"), this);
  m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  // Every file engine::writeCompareReportFiles writes, named (it said two of the four).
  m_exportAction->setToolTip(QStringLiteral("Write report.md, report.json, report.csv and report.html into a "
                                            "directory, as wandscope-cli compare --out does (Ctrl+Shift+M)"));
  m_exportAction->setEnabled(false);
  m_openProfileAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), QStringLiteral("Open &profile\u2026"), this);
  m_openProfileAction->setToolTip(QStringLiteral("Compare on a benchmark profile file's dataset and query sets (JSON)"));
  connect(m_startAction, &QAction::triggered, this, &ComparePage::startComparison);
  connect(m_stopAction, &QAction::triggered, this, &ComparePage::stopComparison);
  connect(m_exportAction, &QAction::triggered, this, &ComparePage::exportReport);
  connect(m_openProfileAction, &QAction::triggered, this, &ComparePage::chooseProfileFile);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(6);

  // Targets on one row, what to run them on and how on the next.
  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(6);
  grid->setVerticalSpacing(4);
  m_targetA = targetCombo(QStringLiteral("builtin"), this);
  m_targetB = targetCombo(QStringLiteral("builtin:bulk_and=off"), this);
  auto* labelA = new QLabel(QStringLiteral("Target &A:"), this);
  auto* labelB = new QLabel(QStringLiteral("Target &B:"), this);
  labelA->setBuddy(m_targetA);
  labelB->setBuddy(m_targetB);
  auto pluginButton = [this](QComboBox* combo, const QString& letter) {
    auto* b = new QToolButton(this);
    b->setText(QStringLiteral("Plugin\u2026"));
    b->setToolTip(QStringLiteral("Choose an engine build (a plugin .so, docs/PLUGIN_ABI.md) as target %1. Plugins are "
                                 "loaded only from files chosen here or typed in.")
                      .arg(letter));
    connect(b, &QToolButton::clicked, this, [this, combo] { choosePlugin(combo); });
    return b;
  };
  m_addTarget = new QToolButton(this);
  m_addTarget->setText(QStringLiteral("Add target"));
  m_addTarget->setObjectName(QStringLiteral("addTarget"));
  m_addTarget->setToolTip(QStringLiteral("Compare a further target (B2, B3, ...) against A in the same run: every "
                                         "target is interleaved with the others and each gets its own benefit, "
                                         "interval, verdict and result equality against A"));
  m_removeTarget = new QToolButton(this);
  m_removeTarget->setText(QStringLiteral("Remove"));
  m_removeTarget->setObjectName(QStringLiteral("removeTarget"));
  m_removeTarget->setToolTip(QStringLiteral("Remove the last further target"));
  m_removeTarget->setEnabled(false);
  connect(m_addTarget, &QToolButton::clicked, this, [this] { addTarget(); });
  connect(m_removeTarget, &QToolButton::clicked, this, [this] { removeTarget(); });
  auto* targets = new QHBoxLayout;
  targets->addWidget(labelA);
  targets->addWidget(m_targetA, 1);
  targets->addWidget(pluginButton(m_targetA, QStringLiteral("A")));
  targets->addSpacing(12);
  targets->addWidget(labelB);
  targets->addWidget(m_targetB, 1);
  targets->addWidget(pluginButton(m_targetB, QStringLiteral("B")));
  targets->addSpacing(12);
  targets->addWidget(m_addTarget);
  targets->addWidget(m_removeTarget);
  grid->addLayout(targets, 0, 0);
  // B2, B3, ... on a row of their own, empty (and so invisible) until a target is added.
  m_moreLayout = new QHBoxLayout;
  m_moreLayout->setSpacing(6);
  grid->addLayout(m_moreLayout, 1, 0);

  auto* run = new QHBoxLayout;
  auto* profileLabel = new QLabel(QStringLiteral("&Profile:"), this);
  m_profile = new QComboBox(this);
  m_profile->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_profile->setMinimumContentsLength(22);
  m_profile->setToolTip(QStringLiteral("The dataset, query sets, operator, k, algorithm and seed to compare on; the "
                                       "profile's own targets are replaced by A and B"));
  profileLabel->setBuddy(m_profile);
  m_profile->addItem(QStringLiteral("Quick compare (embedded default)"), embeddedProfileKey());
  const QString profiles = LoadPage::profileDirectory();
  if (!profiles.isEmpty()) {
    for (const QFileInfo& f : QDir(profiles).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
      m_profile->addItem(f.fileName(), f.absoluteFilePath());
      m_profile->setItemData(m_profile->count() - 1, f.absoluteFilePath(), Qt::ToolTipRole);
    }
  }
  auto* repLabel = new QLabel(QStringLiteral("&Repetitions:"), this);
  m_repetitions = new QSpinBox(this);
  m_repetitions->setRange(1, 100);
  m_repetitions->setValue(3);
  m_repetitions->setToolTip(QStringLiteral("ABBA quartets of blocks per query set (ABBA, BAAB, ...): more give narrower "
                                           "intervals and take longer"));
  repLabel->setBuddy(m_repetitions);
  auto* warmLabel = new QLabel(QStringLiteral("&Warm passes:"), this);
  m_warmPasses = new QSpinBox(this);
  m_warmPasses->setRange(0, static_cast<int>(engine::CompareOptions::kMaxWarmPasses));
  m_warmPasses->setValue(static_cast<int>(engine::CompareOptions::kDefaultWarmPasses));
  m_warmPasses->setToolTip(QStringLiteral(
      "Untimed passes of a target over the query set right before each of its timed blocks, so that a block starts "
      "from its own target's cache state, not from what the other target's block left (docs/COMPARE.md). Each one "
      "adds a block's time."));
  warmLabel->setBuddy(m_warmPasses);
  m_aa = new QCheckBox(QStringLiteral("A/A &calibration"), this);
  m_aa->setToolTip(QStringLiteral("Also run A against a second instance of A per query set and raise the noise floor to "
                                  "what that shows: differences smaller than the machine's own noise are then "
                                  "\u201cno-difference\u201d. Doubles the time."));
  run->addWidget(profileLabel);
  run->addWidget(m_profile, 1);
  run->addWidget(actionButton(m_openProfileAction, this));
  run->addSpacing(12);
  run->addWidget(repLabel);
  run->addWidget(m_repetitions);
  run->addWidget(warmLabel);
  run->addWidget(m_warmPasses);
  run->addWidget(m_aa);
  run->addSpacing(12);
  run->addWidget(actionButton(m_startAction, this));
  run->addWidget(actionButton(m_stopAction, this));
  run->addWidget(actionButton(m_exportAction, this));
  grid->addLayout(run, 2, 0);
  layout->addLayout(grid);

  m_description = new QLabel(this);
  m_description->setWordWrap(true);
  m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_description);
  m_notice = new widgets::NoticeBar(this);
  layout->addWidget(m_notice);
  m_status = new QLabel(this);
  m_status->setTextFormat(Qt::PlainText);
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  layout->addWidget(m_status);

  // Two tabs under the controls: the figures (the plot on the left, the ratio table over the
  // runner's per-set lines on the right) and the result diff. Stacked in one splitter at 1280x800
  // with the log open, each half got some 200 pixels: the plot's data area was 80 pixels, the
  // ratio table showed four rows and the result diff three ranks. A tab gives each the whole
  // height; the ratio table's row still chooses the result diff's set (a double-click shows it).
  m_views = new QTabWidget(this);
  m_views->setObjectName(QStringLiteral("compareViews"));
  m_views->setDocumentMode(true);
  m_top = new QSplitter(Qt::Horizontal, m_views);
  m_plot = new widgets::ComparePlot(m_top);
  m_plot->setObjectName(QStringLiteral("comparePlot"));
  // Tall enough for the title, a legend of three targets, the figures, the benefit panel with its
  // bars, query-set names (level, over up to three lines) and the axis label, and short enough
  // that the page still fits a 1280x800 screen with a third target's row, a three-line notice and
  // the log (a taller one grew the window).
  m_plot->setMinimumHeight(kPlotMinimumHeight);
  m_plot->setMinimumWidth(240);
  m_plot->setToolTip(QStringLiteral("Top: each target's CPU ms/query per query set (mean over its blocks), a point per "
                                    "set as it finishes. Bottom: each B's benefit vs A (the ratio A/B of geometric "
                                    "means the verdict is about; 1 = no change) with the report's 95 % bootstrap "
                                    "interval of the ratio as a bar and the noise floor as a grey band. Hover a "
                                    "point for its figures."));
  m_top->addWidget(m_plot);
  m_tableSplit = new QSplitter(Qt::Vertical, m_top);
  m_ratios = new widgets::RatioTableModel(this);
  m_ratioView = new QTableView(m_tableSplit);
  m_ratioView->setObjectName(QStringLiteral("ratios"));
  m_ratioView->setModel(m_ratios);
  m_ratioView->verticalHeader()->setVisible(false);
  m_ratioView->verticalHeader()->setDefaultSectionSize(m_ratioView->fontMetrics().height() + 6);
  m_ratioView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  // The Results column is sized by fitRatioColumns (what the others leave), not stretched: a
  // stretched last column kept its content width and ran past the right edge.
  m_ratioView->horizontalHeader()->setStretchLastSection(false);
  m_ratioView->horizontalHeader()->setHighlightSections(false);
  m_ratioView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_ratioView->setSelectionMode(QAbstractItemView::SingleSelection);
  m_ratioView->setWordWrap(false);
  m_ratioView->setTextElideMode(Qt::ElideRight);
  m_ratioView->viewport()->installEventFilter(this);
  m_tableSplit->addWidget(m_ratioView);
  m_progress = new QPlainTextEdit(m_tableSplit);
  m_progress->setReadOnly(true);
  m_progress->setObjectName(QStringLiteral("compareProgress"));
  m_progress->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_progress->setMaximumBlockCount(500);
  // At least three lines, five at first (m_tableSplit), and the table's width: its lines were cut
  // at 50 characters and two of them showed, the last one "Stored in the run history as ...".
  m_progress->setMinimumHeight(m_progress->fontMetrics().lineSpacing() * 3 + 12);
  m_progress->setPlaceholderText(QStringLiteral("One line per finished query set"));
  m_progress->setToolTip(QStringLiteral("The runner's line per finished query set: A's and B's CPU ms/query, the speedup "
                                        "with its interval and verdict, p50, and whether the results were identical"));
  m_tableSplit->addWidget(m_progress);
  m_tableSplit->setStretchFactor(0, 1);
  m_tableSplit->setStretchFactor(1, 0);
  m_tableSplit->setChildrenCollapsible(false);
  m_top->addWidget(m_tableSplit);
  // A wider window widens the plot: the table already has its columns' width (fitFiguresSplit).
  m_top->setStretchFactor(0, 1);
  m_top->setStretchFactor(1, 0);
  m_top->setChildrenCollapsible(false);
  m_top->installEventFilter(this);
  connect(m_top, &QSplitter::splitterMoved, this, [this] { m_figuresSized = true; });

  m_bottom = new QSplitter(Qt::Horizontal, m_views);
  auto* picker = new QWidget(m_bottom);
  auto* pickerLayout = new QVBoxLayout(picker);
  pickerLayout->setContentsMargins(0, 0, 0, 0);
  pickerLayout->setSpacing(4);
  auto* setsLabel = new QLabel(QStringLiteral("<b>Result diff</b> \u00b7 query set:"), picker);
  m_versusLabel = new QLabel(QStringLiteral("A against:"), picker);
  m_versus = new QComboBox(picker);
  m_versus->setObjectName(QStringLiteral("versus"));
  m_versus->setToolTip(QStringLiteral("With more than two targets: which B to put beside A in the result diff"));
  m_versusLabel->setBuddy(m_versus);
  m_versusLabel->setVisible(false);
  m_versus->setVisible(false);
  m_setList = new QComboBox(picker);
  m_setList->setObjectName(QStringLiteral("querySets"));
  m_setList->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_setList->setMinimumContentsLength(16);
  m_setList->setToolTip(QStringLiteral("The comparison's query sets and how many of their queries A and B answered "
                                       "differently (doc ids or f32 score bits)"));
  m_identical = new QCheckBox(QStringLiteral("&Identical queries too"), picker);
  m_identical->setToolTip(QStringLiteral("List every query of the set, not only those whose results differ"));
  m_queryList = new QListWidget(picker);
  m_queryList->setObjectName(QStringLiteral("queries"));
  m_queryHint = new QLabel(picker);
  m_queryHint->setWordWrap(true);
  auto* versusRow = new QHBoxLayout;
  versusRow->addWidget(m_versusLabel);
  versusRow->addWidget(m_versus, 1);
  pickerLayout->addLayout(versusRow);
  pickerLayout->addWidget(setsLabel);
  pickerLayout->addWidget(m_setList);
  pickerLayout->addWidget(m_identical);
  pickerLayout->addWidget(m_queryList, 1);
  pickerLayout->addWidget(m_queryHint);
  m_bottom->addWidget(picker);
  m_diffView = new widgets::ResultDiffView(m_bottom);
  m_bottom->addWidget(m_diffView);
  m_bottom->setStretchFactor(0, 2);
  m_bottom->setStretchFactor(1, 5);
  m_views->addTab(m_top, QStringLiteral("&Figures"));
  m_views->setTabToolTip(kFiguresTab, QStringLiteral("The plot, the ratio table and the runner's line per query set"));
  m_views->addTab(m_bottom, QStringLiteral("Result &diff"));
  m_views->setTabToolTip(kResultDiffTab, QStringLiteral("The queries A and a B answered differently, side by side "
                                                        "(double-click a row of the ratio table to come here)"));
  layout->addWidget(m_views, 1);
  // First-launch proportions until the first rows size the table (fitFiguresSplit) or the
  // user's own split is restored: about what a two-target table leaves the plot at 1280 pixels.
  // The progress box five lines.
  m_top->setSizes({400, 880});
  m_tableSplit->setSizes({400, m_progress->fontMetrics().lineSpacing() * 5 + 12});
  m_bottom->setSizes({300, 980});

  connect(m_plot, &widgets::ComparePlot::exported, this,
          [this](const QString& path) { emit statusMessage(QStringLiteral("Exported the plot to %1").arg(path)); });
  connect(m_plot, &widgets::ComparePlot::exportFailed, this, [this](const QString& message) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
    emit errorOccurred(message);
  });
  connect(m_profile, &QComboBox::currentIndexChanged, this, &ComparePage::onProfileChanged);
  connect(m_ratioView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ComparePage::onRatioRowChanged);
  // The row's set is already chosen in the result diff (onRatioRowChanged): a double-click shows it.
  connect(m_ratioView, &QTableView::doubleClicked, this, [this] {
    if (!m_recorded) m_views->setCurrentIndex(kResultDiffTab);
  });
  connect(m_setList, &QComboBox::currentIndexChanged, this, &ComparePage::fillQueries);
  connect(m_versus, &QComboBox::currentIndexChanged, this, [this] {
    // Another B: its own differing queries per set.
    const QString set = m_setList->currentData().toString();
    fillQuerySets();
    if (!set.isEmpty()) selectQuerySet(set);
  });
  connect(m_identical, &QCheckBox::toggled, this, &ComparePage::fillQueries);
  connect(m_queryList, &QListWidget::currentRowChanged, this, &ComparePage::onQueryChanged);
  connect(m_controller, &CompareController::compareStarted, this, &ComparePage::onStarted);
  connect(m_controller, &CompareController::message, this, &ComparePage::appendProgress);
  connect(m_controller, &CompareController::setFinished, this, &ComparePage::onSetFinished);
  connect(m_controller, &CompareController::openLatency, this, &ComparePage::onOpenLatency);
  connect(m_controller, &CompareController::compareFinished, this, &ComparePage::onFinished);
  connect(m_controller, &CompareController::compareFailed, this, &ComparePage::onFailed);
  connect(m_controller, &CompareController::runningChanged, this, &ComparePage::onRunningChanged);
  connect(m_controller, &CompareController::queriesReady, this, &ComparePage::onQueriesReady);
  connect(m_controller, &CompareController::queryDiffReady, this, &ComparePage::onQueryDiff);
  connect(m_controller, &CompareController::queryDiffFailed, this, [this](const QString& message) {
    m_diffView->setPlaceholder(QStringLiteral("<i>%1</i>").arg(message.toHtmlEscaped()));
    if (m_screenshotPending) finishScreenshot();
  });

  onProfileChanged();
  m_status->setText(QStringLiteral("Pick targets A and B and a profile, then Start. A and B run interleaved (ABBA) in "
                                   "this process on the same queries."));
  m_diffView->setPlaceholder(QStringLiteral("<i>After a comparison, choose a query set and a query to see both "
                                            "targets' results side by side.</i>"));
}

QStringList ComparePage::builtinTargetChoices() {
  return {QStringLiteral("builtin"),
          QStringLiteral("builtin:bulk_and=off"),
          QStringLiteral("builtin:algo=exhaustive"),
          QStringLiteral("builtin:freq_prune=off,candidate_prune=off,lazy_freq=off,window_jump=off,slice_resume=off,"
                         "simd_merge=off"),
          QStringLiteral("xapian"),
          QStringLiteral("sqlite-fts5")};
}

QString ComparePage::quickCompareJson(quint64 docs) {
  // Six of the default dataset's query sets (AND, k=10) with a short warm-up: with 3 repetitions a
  // comparison of two builtin builds takes seconds once the dataset is cached.
  return QStringLiteral(R"({
  "format_version": 1,
  "name": "quick-compare",
  "description": "Six query sets of the embedded default (%1 documents), AND, k=10: seconds, to see a comparison work. Numbers to publish: wandscope-cli compare on a quiet machine.",
  "dataset": {"default": {"docs": %1}},
  "query_sets": ["mid-df-1", "mid-df-2", "mid-df-3", "sequential-2", "rare-2", "rare+common-3"],
  "query": {"op": "and", "k": 10, "algorithm": "auto"},
  "targets": ["builtin"],
  "seed": 42,
  "mode": "closed",
  "closed": {"concurrency": [1], "warmup_s": 0.2, "measure_s": 1, "passes": 1}
})")
      .arg(docs);
}

void ComparePage::setDefaultDocs(quint64 docs) {
  m_defaultDocs = docs;
  onProfileChanged();
}

QList<QAction*> ComparePage::menuActions() const {
  return {m_startAction, m_stopAction, m_exportAction, m_openProfileAction};
}

void ComparePage::setTargets(const QString& a, const QString& b) { setTargets(QStringList{a, b}); }

void ComparePage::setTargets(const QStringList& targets) {
  if (targets.size() >= 1) m_targetA->setCurrentText(targets[0]);
  if (targets.size() >= 2) m_targetB->setCurrentText(targets[1]);
  const auto more = static_cast<std::size_t>(std::max<qsizetype>(targets.size() - 2, 0));
  while (m_more.size() > more) removeTarget();
  for (std::size_t i = 0; i < more; ++i) {
    const QString& spec = targets[static_cast<qsizetype>(i) + 2];
    if (i < m_more.size()) {
      m_more[i].combo->setCurrentText(spec);
    } else if (!addTarget(spec)) {
      break;
    }
  }
}

bool ComparePage::addTarget(const QString& spec) {
  if (static_cast<int>(m_more.size()) + 2 >= kMaxTargets) return false;
  const QString label = QStringLiteral("B%1").arg(m_more.size() + 2);
  auto* row = new QWidget(this);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  auto* text = new QLabel(QStringLiteral("Target %1:").arg(label), row);
  auto* combo = targetCombo(spec, row);
  combo->setObjectName(QStringLiteral("target%1").arg(label));
  text->setBuddy(combo);
  auto* plugin = new QToolButton(row);
  plugin->setText(QStringLiteral("Plugin\u2026"));
  plugin->setToolTip(QStringLiteral("Choose an engine build (a plugin .so, docs/PLUGIN_ABI.md) as target %1").arg(label));
  connect(plugin, &QToolButton::clicked, this, [this, combo] { choosePlugin(combo); });
  layout->addWidget(text);
  layout->addWidget(combo, 1);
  layout->addWidget(plugin);
  m_moreLayout->addWidget(row, 1);
  m_more.push_back({row, combo});
  updateTargetButtons(m_controller->isRunning());
  return true;
}

bool ComparePage::removeTarget() {
  if (m_more.empty()) return false;
  delete m_more.back().row;
  m_more.pop_back();
  updateTargetButtons(m_controller->isRunning());
  return true;
}

void ComparePage::updateTargetButtons(bool running) {
  m_addTarget->setEnabled(!running && static_cast<int>(m_more.size()) + 2 < kMaxTargets);
  m_removeTarget->setEnabled(!running && !m_more.empty());
}

QStringList ComparePage::targets() const {
  QStringList all{m_targetA->currentText().trimmed(), m_targetB->currentText().trimmed()};
  for (const auto& m : m_more) all << m.combo->currentText().trimmed();
  return all;
}

void ComparePage::selectProfileFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  int i = m_profile->findData(absolute);
  if (i < 0) {
    m_profile->addItem(QFileInfo(path).fileName(), absolute);
    i = m_profile->count() - 1;
    m_profile->setItemData(i, absolute, Qt::ToolTipRole);
  }
  m_profile->setCurrentIndex(i);
}

void ComparePage::setRepetitions(int repetitions) { m_repetitions->setValue(repetitions); }
void ComparePage::setWarmPasses(int passes) { m_warmPasses->setValue(passes); }
void ComparePage::setAa(bool aa) { m_aa->setChecked(aa); }

std::optional<CompareJob> ComparePage::currentJob(QString* error) const {
  try {
    const QString source = m_profile->currentData().toString();
    CompareJob job;
    if (source == embeddedProfileKey()) {
      job.profile = engine::parseBenchProfile(quickCompareJson(m_defaultDocs).toStdString(), "quick-compare", {});
    } else {
      job.profile = engine::loadBenchProfile(std::filesystem::path(source.toStdString()));
    }
    job.a = m_targetA->currentText().trimmed().toStdString();
    job.b = m_targetB->currentText().trimmed().toStdString();
    if (job.a.empty() || job.b.empty()) engine::throwUsage("choose both targets, A and B");
    for (std::size_t i = 0; i < m_more.size(); ++i) {
      job.more.push_back(m_more[i].combo->currentText().trimmed().toStdString());
      if (job.more.back().empty()) engine::throwUsage("choose target B" + std::to_string(i + 2) + " or remove it");
    }
    engine::BenchOverrides overrides;
    overrides.targets = job.targets();
    engine::applyOverrides(job.profile, overrides);  // validates the specs, as the CLI does
    job.repetitions = static_cast<unsigned>(m_repetitions->value());
    job.warmPasses = static_cast<unsigned>(m_warmPasses->value());
    job.aa = m_aa->isChecked();
    return job;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

void ComparePage::onProfileChanged() {
  QString error;
  const auto job = currentJob(&error);
  if (!job) {
    m_description->setText(QStringLiteral("<i>Cannot compare:</i> %1").arg(error.toHtmlEscaped()));
    return;
  }
  m_description->setText(QString::fromStdString(job->profile.description).toHtmlEscaped());
  m_description->setToolTip(QString::fromStdString(engine::benchProfileJson(job->profile)));
}

void ComparePage::choosePlugin(QComboBox* combo) {
  const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Choose an engine build (plugin)"), QDir::homePath(),
                                                    QStringLiteral("Engine plugins (*.so);;All files (*)"));
  if (path.isEmpty()) return;
  combo->setCurrentText(QStringLiteral("plugin:") + QFileInfo(path).absoluteFilePath());
}

void ComparePage::chooseProfileFile() {
  const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a benchmark profile"),
                                                    LoadPage::profileDirectory(), QStringLiteral("Benchmark profiles (*.json)"));
  if (!path.isEmpty()) selectProfileFile(path);
}

void ComparePage::startComparison() {
  if (m_controller->isRunning()) return;
  QString error;
  auto job = currentJob(&error);
  if (!job) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    if (m_screenshotPending) finishScreenshot();
    return;
  }
  m_startingOpen = job->profile.runOpen && !job->profile.runClosed;  // CompareRunner's rule
  // The floor asked for: a live row whose A/A calibration raised it names its own, as report.md.
  m_ratios->setNoiseFloor(job->noiseFloor);
  m_controller->start(std::move(*job));
  m_startingOpen = false;
}

void ComparePage::stopComparison() { m_controller->stop(); }

void ComparePage::onStarted(quint64, const QStringList& targets) {
  m_recorded = false;
  m_report.reset();
  m_sets.reset();
  m_ratios->clear();
  m_plot->clearData();
  showQuerySetPlotLabels(QStringLiteral("CPU ms/query per query set"), QStringLiteral("CPU ms/query"));
  m_plot->setTargets(targets);
  m_plot->setEmptyText(QStringLiteral("Waiting for the first query set\u2026"));
  if (m_startingOpen) showOpenPlotLabels(QStringLiteral("p50"));
  m_progress->clear();
  m_setList->clear();
  m_queryList->clear();
  m_queryHint->clear();
  fillVersus();
  m_diffView->setPlaceholder(QStringLiteral("<i>The result diff opens when the comparison has finished.</i>"));
  m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                       QStringLiteral("Comparing A = %1 with %2 with the GUI attached. For numbers to publish run "
                                      "wandscope-cli compare on a quiet machine.")
                           .arg(targets.value(0), othersText(targets)));
  m_status->setText(targets.size() > 2 ? QStringLiteral("Preparing the dataset and the targets\u2026")
                                       : QStringLiteral("Preparing the dataset and both targets\u2026"));
  m_runTimer.start();
}

void ComparePage::appendProgress(const QString& line) {
  m_progress->appendPlainText(line);
  m_status->setText(line);
}

void ComparePage::onSetFinished(const CompareSetRowsPtr& rows) {
  if (!rows || rows->rows.empty()) return;
  m_ratios->addScenarios(rows->rows, rows->aaRows);
  fitRatioColumns(true);
  // A's figure and each B's (rows of one set: per B, CPU then p50).
  const auto& cpu = rows->rows.front();
  std::vector<double> values(static_cast<std::size_t>(m_plot->seriesCount()), std::numeric_limits<double>::quiet_NaN());
  values[0] = cpu.a;
  for (const auto& r : rows->rows) {
    if (r.metric == cpu.metric && r.target < values.size()) values[r.target] = r.b;
  }
  const QString set = QString::fromStdString(cpu.querySet);
  m_plot->addSet(set, values);
  // Each B's benefit with its interval, as the row in the table has them.
  for (const auto& r : rows->rows) {
    if (r.metric == cpu.metric) m_plot->setBenefit(set, static_cast<int>(r.target), r.estimate);
  }
}

void ComparePage::showOpenPlotLabels(const QString& quantile) {
  // The unit in the title too: the value label gives way in a short plot.
  m_plot->setTitle(QStringLiteral("Due-time %1 latency (ms) per offered rate").arg(quantile));
  m_plot->setValueLabel(QStringLiteral("%1 latency (ms)").arg(quantile));
  m_plot->setEmptyText(QStringLiteral("Waiting for a rung with enough samples for a %1\u2026").arg(quantile));
  m_plot->setCategoryLabel(QStringLiteral("offered rate"));
  m_plotOpen = true;
}

void ComparePage::showQuerySetPlotLabels(const QString& title, const QString& valueLabel) {
  m_plot->setTitle(title);
  m_plot->setValueLabel(valueLabel);
  m_plot->setCategoryLabel(QStringLiteral("query set"));
  m_plotOpen = false;
}

void ComparePage::onOpenLatency(const engine::OpenLatencyPoint& point) {
  // The p50 the report's headline plot shows at the end, pooled over the target's ladders so far;
  // a point appears once its rate has enough samples and moves as later ladders add to them.
  if (!m_plotOpen) {
    m_plot->clearData();
    showOpenPlotLabels(QStringLiteral("p50"));
  }
  if (!point.p50Ms) return;
  m_plot->setPoint(rateCategory(point.rate), static_cast<int>(point.target), *point.p50Ms);
}

std::string ComparePage::plotReport(const engine::CompareReport& report) {
  // The plot shows exactly the report's figures, redrawn from it (a late or dropped live update,
  // a live point the report did not compare, cannot linger). A comparison without CPU rows (an
  // open-loop profile's ladders) plots its first metric instead, per offered rate.
  std::string metric = "cpu_ms_per_query";
  if (!report.scenarios.empty() &&
      std::none_of(report.scenarios.begin(), report.scenarios.end(), [](const auto& s) { return s.metric == "cpu_ms_per_query"; })) {
    metric = report.scenarios.front().metric;
  }
  m_plot->clearData();
  if (isOpenMetric(metric)) {
    showOpenPlotLabels(metricLabel(metric));
  } else {
    // The unit in the title too ("CPU ms/query" names its own): the value label gives way in a
    // short plot.
    const QString title = widgets::RatioTableModel::metricTitle(metric);
    const QString withUnit = title == QLatin1String("CPU ms/query") ? title : title + QStringLiteral(" (ms)");
    showQuerySetPlotLabels(QStringLiteral("%1 per %2").arg(withUnit, metric == "cpu_ms_per_query" ? QStringLiteral("query set")
                                                                                                   : QStringLiteral("scenario")),
                           withUnit);
  }
  // A category per query set or rate, A's figure and each B's (rows of B2, ... share it).
  QStringList categories;
  std::vector<std::vector<double>> values;
  const std::size_t n = report.targetCount();
  for (const auto& s : report.scenarios) {
    if (s.metric != metric || s.target >= n) continue;
    const QString c = plotCategory(s);
    qsizetype i = categories.indexOf(c);
    if (i < 0) {
      i = categories.size();
      categories << c;
      values.emplace_back(n, std::numeric_limits<double>::quiet_NaN());
      values.back()[0] = s.a;
    }
    values[static_cast<std::size_t>(i)][s.target] = s.b;
  }
  for (qsizetype i = 0; i < categories.size(); ++i) m_plot->addSet(categories[i], values[static_cast<std::size_t>(i)]);
  // Each B's benefit at each category with the report's interval of it (none, no bar).
  for (const auto& s : report.scenarios) {
    if (s.metric == metric && s.target >= 1 && s.target < n) {
      m_plot->setBenefit(plotCategory(s), static_cast<int>(s.target), s.estimate);
    }
  }
  return metric;
}

void ComparePage::onFinished(const CompareReportPtr& report) {
  m_report = report;
  fillVersus();
  m_ratios->setReport(*report);
  fitRatioColumns(true);
  const std::string metric = plotReport(*report);
  qsizetype sets = 0;
  for (const auto& s : report->scenarios) {
    if (s.metric == metric) ++sets;
  }
  std::map<std::string, int> verdicts;
  std::uint64_t differing = 0;
  for (const auto& s : report->scenarios) {
    if (s.metric == metric) {
      ++verdicts[s.estimate.verdict];
      differing += s.diff.rowSetDiff + s.diff.scoreBitDiff + s.diff.failed;
    }
  }
  QStringList counts;
  for (const auto& [verdict, n] : verdicts) counts << QStringLiteral("%1 %2").arg(n).arg(QString::fromStdString(verdict));
  // With B2, B3, ... every set is compared once per B: "6 query sets x 2 targets against A".
  const auto versus = static_cast<qsizetype>(report->targetCount() - 1);
  const qsizetype perB = sets / versus;
  const QString unit = QString(isOpenMetric(metric) ? QStringLiteral("offered rate") : QStringLiteral("query set")) +
                       (perB == 1 ? QString() : QStringLiteral("s"));
  const QString counted = versus > 1 ? QStringLiteral("%1 %2 x %3 targets against A").arg(perB).arg(unit).arg(versus)
                                     : QStringLiteral("%1 %2").arg(perB).arg(unit);
  const QString what =
      QStringLiteral("%1 in %2 s (%3: %4); results %5%6.")
          .arg(counted)
          .arg(static_cast<double>(m_runTimer.elapsed()) / 1000.0, 0, 'f', 1)
          .arg(metricLabel(metric), counts.join(QStringLiteral(", ")),
               differing == 0 ? QStringLiteral("identical in every set (row_set_diff=0, score_bit_diff=0)")
                              : QStringLiteral("DIFFER in %1 queries: see the Result diff tab").arg(differing),
               report->partial ? QStringLiteral(", stopped early (partial)") : QString());
  m_status->setText(what);
  // The summary is the status line; the notice bar only for what needs attention.
  QStringList attention;
  if (differing > 0) {
    attention << (report->targetCount() > 2
                      ? QStringLiteral("A and some other target returned different results: those speed figures "
                                       "compare different work.")
                      : QStringLiteral("A and B returned different results: the speed figures compare different work."));
  }
  if (report->partial) attention << QStringLiteral("Stopped early: only the finished query sets are shown.");
  if (const QString warnings = warningsText(report->warnings); !warnings.isEmpty()) attention << warnings;
  if (attention.isEmpty()) {
    m_notice->hideNotice();
  } else {
    m_notice->showNotice(widgets::NoticeBar::Kind::Warning, attention.join(QLatin1Char(' ')));
  }
  // Into the run history (History lists it; `wandscope-cli runs compares` too), partial or not.
  if (m_context.history != nullptr) {
    QString storeError;
    if (m_context.history->saveComparison(*report, &storeError)) {
      m_progress->appendPlainText(
          QStringLiteral("Stored in the run history as %1.").arg(QString::fromStdString(report->runId)));
    } else {
      attention << QStringLiteral("Not stored in the run history: %1").arg(storeError);
      m_notice->showNotice(widgets::NoticeBar::Kind::Warning, attention.join(QLatin1Char(' ')));
      emit errorOccurred(storeError);
    }
  }
  m_exportAction->setEnabled(true);
  m_diffView->setPlaceholder(QStringLiteral("<i>Preparing both targets again to answer queries side by side\u2026</i>"));
  emit statusMessage(what);
  if (m_screenshotPending && report->scenarios.empty()) finishScreenshot();
}

void ComparePage::onFailed(const QString& message) {
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
  m_status->setText(QStringLiteral("The comparison failed."));
  // Not "Waiting for the first query set...": nothing is coming.
  m_plot->setEmptyText(QStringLiteral("The comparison failed: nothing was measured"));
  emit errorOccurred(message);
  if (m_screenshotPending) finishScreenshot();
}

void ComparePage::onRunningChanged(bool running) {
  m_startAction->setEnabled(!running);
  m_stopAction->setEnabled(running);
  for (QWidget* w : std::initializer_list<QWidget*>{m_targetA, m_targetB, m_profile, m_repetitions, m_warmPasses, m_aa}) {
    w->setEnabled(!running);
  }
  for (const auto& m : m_more) m.row->setEnabled(!running);
  updateTargetButtons(running);
  m_openProfileAction->setEnabled(!running);
  if (running) m_exportAction->setEnabled(false);
}

const engine::ResultDiff* ComparePage::diffOf(const QString& querySet) const {
  if (!m_report) return nullptr;
  const std::string set = querySet.toStdString();
  const auto target = static_cast<std::size_t>(versus());
  for (const auto& s : m_report->scenarios) {
    if (s.querySet == set && s.target == target) return &s.diff;
  }
  return nullptr;
}

void ComparePage::fillVersus() {
  const QSignalBlocker block(m_versus);
  m_versus->clear();
  if (m_report) {
    for (std::size_t i = 1; i < m_report->targetCount(); ++i) {
      m_versus->addItem(QStringLiteral("%1: %2").arg(QString::fromStdString(engine::CompareReport::targetLabel(i)),
                                                     QString::fromStdString(m_report->side(i).spec)),
                        static_cast<int>(i));
    }
  }
  const bool many = m_versus->count() > 1;
  m_versus->setVisible(many);
  m_versusLabel->setVisible(many);
}

int ComparePage::versus() const {
  const QVariant v = m_versus->currentData();
  return v.isValid() ? v.toInt() : 1;
}

bool ComparePage::selectVersus(int target) {
  const int i = m_versus->findData(target);
  if (i < 0) return false;
  if (m_versus->currentIndex() != i) m_versus->setCurrentIndex(i);
  return true;
}

void ComparePage::onQueriesReady(const CompareQuerySetsPtr& sets) {
  m_sets = sets;
  fillQuerySets();
}

void ComparePage::fillQuerySets() {
  const QSignalBlocker block(m_setList);
  m_setList->clear();
  int firstDiffering = -1;
  if (m_sets) {
    for (const auto& set : *m_sets) {
      const engine::ResultDiff* d = diffOf(set.name);
      const std::size_t n = d ? d->differingQueries.size() : 0;
      // A set the comparison stopped before was never compared: not "identical".
      m_setList->addItem(!d     ? QStringLiteral("%1 \u2014 not measured (%2 queries)").arg(set.name).arg(set.ids.size())
                         : n > 0 ? QStringLiteral("%1 \u2014 %2 of %3 differ").arg(set.name).arg(n).arg(set.ids.size())
                                 : QStringLiteral("%1 \u2014 identical (%2 queries)").arg(set.name).arg(set.ids.size()),
                         set.name);
      const int i = m_setList->count() - 1;
      if (n > 0) {
        m_setList->setItemData(i, QColor(0xd6, 0x27, 0x28), Qt::ForegroundRole);
        if (firstDiffering < 0) firstDiffering = i;
      }
      if (!d) m_setList->setItemData(i, QStringLiteral("Not measured (the comparison stopped before this set)"), Qt::ToolTipRole);
    }
  }
  if (m_setList->count() > 0) m_setList->setCurrentIndex(firstDiffering >= 0 ? firstDiffering : 0);
  fillQueries();
}

void ComparePage::fillQueries() {
  const QSignalBlocker block(m_queryList);
  m_queryList->clear();
  const int row = m_setList->currentIndex();
  if (!m_sets || row < 0 || row >= static_cast<int>(m_sets->size())) {
    m_queryHint->clear();
    return;
  }
  const CompareQuerySet& set = (*m_sets)[static_cast<std::size_t>(row)];
  const engine::ResultDiff* d = diffOf(set.name);
  std::set<QString> differing;
  if (d) {
    for (const auto& id : d->differingQueries) differing.insert(QString::fromStdString(id));
  }
  auto add = [this, &set](std::size_t i, bool differs) {
    auto* item = new QListWidgetItem(
        QStringLiteral("%1%2  %3").arg(differs ? QStringLiteral("\u2260 ") : QString(), set.ids[i], set.texts[i]), m_queryList);
    item->setData(Qt::UserRole, static_cast<int>(i));
    item->setToolTip(differs ? QStringLiteral("A and %1 answered this query differently")
                                   .arg(QString::fromStdString(engine::CompareReport::targetLabel(
                                       static_cast<std::size_t>(versus()))))
                             : QStringLiteral("Identical answers"));
    if (differs) item->setForeground(QColor(0xd6, 0x27, 0x28));
  };
  for (std::size_t i = 0; i < set.ids.size(); ++i) {
    if (differing.count(set.ids[i]) > 0) add(i, true);
  }
  if (m_identical->isChecked()) {
    for (std::size_t i = 0; i < set.ids.size(); ++i) {
      if (differing.count(set.ids[i]) == 0) add(i, false);
    }
  }
  if (!d) {
    m_queryHint->setText(QStringLiteral("The comparison stopped before this set: its results were not compared. Tick "
                                        "\u201cIdentical queries too\u201d to ask both targets any of its queries."));
  } else if (differing.empty()) {
    m_queryHint->setText(m_identical->isChecked()
                             ? QStringLiteral("No query of this set differs; any of them can still be inspected.")
                             : QStringLiteral("No query of this set differs. Tick \u201cIdentical queries too\u201d to "
                                              "inspect any of them."));
  } else {
    m_queryHint->setText(QStringLiteral("%1 differing queries first (\u2260).").arg(differing.size()));
  }
  if (m_queryList->count() > 0) {
    m_queryList->setCurrentRow(0);
    onQueryChanged();
  } else {
    m_diffView->setPlaceholder(QStringLiteral("<i>No query chosen.</i>"));
  }
}

void ComparePage::onQueryChanged() {
  const int setRow = m_setList->currentIndex();
  QListWidgetItem* item = m_queryList->currentItem();
  if (!m_sets || setRow < 0 || !item) return;
  m_diffView->setPlaceholder(QStringLiteral("<i>Asking both targets\u2026</i>"));
  m_controller->requestQueryDiff(setRow, item->data(Qt::UserRole).toInt(), versus());
}

void ComparePage::onQueryDiff(const widgets::QueryDiffSnapshotPtr& snapshot) {
  m_diffView->setSnapshot(snapshot);
  if (m_screenshotPending) finishScreenshot();
}

void ComparePage::onRatioRowChanged() {
  const QModelIndex current = m_ratioView->currentIndex();
  if (!current.isValid()) return;
  const QString set = current.data(widgets::RatioTableModel::QuerySetRole).toString();
  const int target = current.data(widgets::RatioTableModel::TargetRole).toInt();
  if (m_recorded) return;
  if (target >= 1) selectVersus(target);  // a B2 row: the diff of A against B2
  selectQuerySet(set);
}

bool ComparePage::selectQuerySet(const QString& name) {
  const int i = m_setList->findData(name);
  if (i < 0) return false;
  if (m_setList->currentIndex() != i) m_setList->setCurrentIndex(i);
  return true;
}

bool ComparePage::selectQuery(int row) {
  if (row < 0 || row >= m_queryList->count()) return false;
  if (m_queryList->currentRow() == row) {
    onQueryChanged();
  } else {
    m_queryList->setCurrentRow(row);
  }
  return true;
}

void ComparePage::setShowIdentical(bool show) { m_identical->setChecked(show); }

void ComparePage::fitRatioColumns(bool toContents) {
  auto* header = m_ratioView->horizontalHeader();
  if (toContents) m_ratioView->resizeColumnsToContents();
  using widgets::RatioTableModel;
  int others = 0;
  for (int c = 0; c < RatioTableModel::Results; ++c) others += header->sectionSize(c);
  // Results takes what the other columns leave, eliding a long "DIFFER: row_set_diff=..., ..."
  // (its tooltip has it all), but never less than its header or "identical": a squeezed table
  // scrolls rather than hide the column.
  QFont bold = m_ratioView->font();
  bold.setBold(true);
  const int least = std::max({header->sectionSizeHint(RatioTableModel::Results),
                              QFontMetrics(bold).horizontalAdvance(QStringLiteral("identical")) + 16,
                              QFontMetrics(bold).horizontalAdvance(QStringLiteral("DIFFER")) + 16});
  header->resizeSection(RatioTableModel::Results, std::max(least, m_ratioView->viewport()->width() - others));
  if (toContents && m_ratios->rowCount() > 0) {
    // The view's own width for those columns: frame and vertical scroll bar (rows outnumber the
    // height at 1280x800).
    const int bar = m_ratioView->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_ratioView);
    m_tableWidth = others + least + 2 * m_ratioView->frameWidth() + bar;
    fitFiguresSplit();
  }
}

void ComparePage::fitFiguresSplit() {
  // The plot was whatever 320 pixels of 1280 became (some 300): its legend cut the targets'
  // names and its set names crowded. The table keeps exactly what its columns need, so nothing
  // of it scrolls out of view (two targets at 1280 pixels leave the plot some 390), and the plot
  // takes the rest - at 1920 pixels more than half. The quarter floor is for a table of long
  // query set names or many targets: it then scrolls rather than squeeze the plot to nothing.
  if (m_figuresSized || m_tableWidth == 0) return;
  const QList<int> sizes = m_top->sizes();
  if (sizes.size() != 2) return;
  const int total = sizes[0] + sizes[1];
  if (total <= 0) return;
  const int plot = std::min(std::max(total - m_tableWidth, std::max(m_plot->minimumWidth(), total / 4)), total);
  if (sizes[0] != plot) m_top->setSizes({plot, total - plot});
}

bool ComparePage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_ratioView->viewport() && event->type() == QEvent::Resize) fitRatioColumns(false);
  // After the splitter has laid its children out for the new size.
  if (watched == m_top && event->type() == QEvent::Resize) {
    QMetaObject::invokeMethod(this, &ComparePage::fitFiguresSplit, Qt::QueuedConnection);
  }
  return Page::eventFilter(watched, event);
}

int ComparePage::progressLines() const {
  return m_progress->viewport()->height() / m_progress->fontMetrics().lineSpacing();
}

QString ComparePage::progressText() const { return m_progress->toPlainText(); }

QString ComparePage::statusText() const { return m_status->text(); }

bool ComparePage::showReportWithoutRun(const CompareReportPtr& report, const QString& what, const QString& diffHint) {
  if (m_controller->isRunning()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Warning,
                         QStringLiteral("A comparison is running; stop it before showing %1.").arg(what));
    return false;
  }
  m_recorded = true;
  m_report = report;
  m_sets.reset();
  fillVersus();
  m_ratios->setReport(*report);
  fitRatioColumns(true);
  m_plot->clearData();
  m_progress->clear();
  m_setList->clear();
  m_queryList->clear();
  m_queryHint->clear();
  m_diffView->setPlaceholder(diffHint);
  m_exportAction->setEnabled(true);
  return true;
}

void ComparePage::showRecordedComparison(const RunReportPtr& a, const RunReportPtr& b) {
  if (!a || !b) return;
  if (!showReportWithoutRun(std::make_shared<const engine::CompareReport>(compareRecordedRuns(*a, *b)),
                            QStringLiteral("recorded runs"),
                            QStringLiteral("<i>Recorded runs keep no per-query results, so there is nothing to put "
                                           "side by side. Start an interleaved comparison of their targets to see "
                                           "result differences.</i>"))) {
    return;
  }
  const CompareReportPtr report = m_report;
  showQuerySetPlotLabels(QStringLiteral("Recorded CPU ms/query per rung"), QStringLiteral("CPU ms/query"));
  m_plot->setTargets(QString::fromStdString(a->header.runId), QString::fromStdString(b->header.runId));
  m_plot->setEmptyText(QStringLiteral("The runs have no rungs in common"));
  for (const auto& s : report->scenarios) {
    if (s.metric != "cpu_ms_per_query") continue;
    m_plot->addSet(QString::fromStdString(s.querySet), s.a, s.b);
    m_plot->setBenefit(QString::fromStdString(s.querySet), 1, s.estimate);  // no interval: no bar
    // The runner's line for a set ("CPU A 0.1234 ms, B 0.1 ms/query"), figures as the table has them.
    m_progress->appendPlainText(QStringLiteral("%1: CPU A %2 ms, B %3 ms/query: %4")
                                    .arg(QString::fromStdString(s.querySet),
                                         QString::fromStdString(engine::significant(s.a)),
                                         QString::fromStdString(engine::significant(s.b)),
                                         s.estimate.ratio > 0 ? QString::fromStdString(engine::speedupText(s.estimate.ratio))
                                                              : QStringLiteral("\u2014")));
  }
  // Offer the runs' targets for an interleaved re-run.
  if (a->header.targets.size() == 1 && b->header.targets.size() == 1) {
    setTargets(QString::fromStdString(a->header.targets[0]), QString::fromStdString(b->header.targets[0]));
  }
  const QString what = QStringLiteral("Recorded runs A = %1 and B = %2 side by side: %3 rows, figures as stored, no "
                                      "re-run (no interval, no verdict).")
                           .arg(QString::fromStdString(a->header.runId), QString::fromStdString(b->header.runId))
                           .arg(report->scenarios.size());
  QString notice = what;
  for (const auto& w : report->warnings) notice += QStringLiteral(" Note: %1.").arg(QString::fromStdString(w));
  m_notice->showNotice(report->warnings.empty() ? widgets::NoticeBar::Kind::Information : widgets::NoticeBar::Kind::Warning,
                       notice);
  m_status->setText(what);
  emit pageRequested(pageId());
}

void ComparePage::showStoredComparison(const CompareReportPtr& report) {
  if (!report) return;
  // As stored: the tables and plot of the report; the per-query results were not kept, so the
  // result-diff panel stays empty (m_recorded) until the targets are compared again.
  if (!showReportWithoutRun(report, QStringLiteral("a stored one"),
                            QStringLiteral("<i>A stored comparison keeps its tables, not each query's results. "
                                           "Start the comparison again to put results side by side.</i>"))) {
    return;
  }
  QStringList specs;
  for (std::size_t i = 0; i < report->targetCount(); ++i) specs << QString::fromStdString(report->side(i).spec);
  m_plot->setTargets(specs);
  plotReport(*report);
  setTargets(specs);
  const QString what = QStringLiteral("Stored comparison %1 (%2, profile %3): A = %4, %5, %6 rows as stored%7.")
                           .arg(QString::fromStdString(report->runId), QString::fromStdString(report->environment.startedUtc),
                                QString::fromStdString(report->profileName), specs.value(0),
                                othersText(specs))
                           .arg(report->scenarios.size())
                           .arg(report->partial ? QStringLiteral(", stopped early (partial)") : QString());
  m_notice->showNotice(report->partial ? widgets::NoticeBar::Kind::Warning : widgets::NoticeBar::Kind::Information, what);
  m_status->setText(what);
  emit pageRequested(pageId());
}

bool ComparePage::exportReportTo(const QString& dir, QString* error) {
  if (!m_report) {
    if (error) *error = QStringLiteral("No finished comparison to export");
    return false;
  }
  try {
    engine::writeCompareReportFiles(std::filesystem::path(dir.toStdString()), *m_report);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void ComparePage::exportReport() {
  if (!m_report) return;
  const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Export the comparison into"),
                                                        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
  if (dir.isEmpty()) return;
  const QString target = QDir(dir).filePath(QStringLiteral("compare-%1").arg(QString::fromStdString(m_report->runId)));
  QString error;
  if (exportReportTo(target, &error)) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Positive,
                         QStringLiteral("Wrote report.md, report.json, report.csv and report.html to %1").arg(target));
  } else {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
  }
}

void ComparePage::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("targetA"), m_targetA->currentText());
  settings.setValue(QStringLiteral("targetB"), m_targetB->currentText());
  QStringList more;
  for (const auto& m : m_more) more << m.combo->currentText();
  settings.setValue(QStringLiteral("moreTargets"), more);
  settings.setValue(QStringLiteral("profile"), m_profile->currentData().toString());
  settings.setValue(QStringLiteral("repetitions"), m_repetitions->value());
  settings.setValue(QStringLiteral("warmPasses"), m_warmPasses->value());
  settings.setValue(QStringLiteral("aa"), m_aa->isChecked());
  settings.setValue(QStringLiteral("tab"), m_views->currentIndex());
  // Only a split the user chose: the default follows the table's columns and the window.
  if (m_figuresSized) {
    settings.setValue(QStringLiteral("figuresSplitter"), m_top->saveState());
  } else {
    settings.remove(QStringLiteral("figuresSplitter"));
  }
  settings.setValue(QStringLiteral("tableProgressSplitter"), m_tableSplit->saveState());
  settings.setValue(QStringLiteral("bottomSplitter"), m_bottom->saveState());
}

void ComparePage::restoreSettings(QSettings& settings) {
  const QString a = settings.value(QStringLiteral("targetA")).toString();
  const QString b = settings.value(QStringLiteral("targetB")).toString();
  if (!a.isEmpty() && !b.isEmpty()) {
    setTargets(QStringList{a, b} + settings.value(QStringLiteral("moreTargets")).toStringList());
  }
  const QString profile = settings.value(QStringLiteral("profile")).toString();
  if (!profile.isEmpty() && profile != embeddedProfileKey() && QFileInfo::exists(profile)) selectProfileFile(profile);
  m_repetitions->setValue(settings.value(QStringLiteral("repetitions"), 3).toInt());
  m_warmPasses->setValue(
      settings.value(QStringLiteral("warmPasses"), static_cast<int>(engine::CompareOptions::kDefaultWarmPasses)).toInt());
  m_aa->setChecked(settings.value(QStringLiteral("aa"), false).toBool());
  // Not the old "splitter" (the figures over the result diff): tabs replaced it.
  settings.remove(QStringLiteral("splitter"));
  m_views->setCurrentIndex(settings.value(QStringLiteral("tab"), kFiguresTab).toInt());
  // Not the old "topSplitter": its proportions (a plot over the progress box, the table beside)
  // left the table too narrow for its Results column.
  settings.remove(QStringLiteral("topSplitter"));
  // Not the old "plotTableSplitter": it was saved whether or not the user dragged it, so mostly
  // held the first-launch 320 pixels of plot that cut its legend.
  settings.remove(QStringLiteral("plotTableSplitter"));
  const QByteArray figures = settings.value(QStringLiteral("figuresSplitter")).toByteArray();
  if (!figures.isEmpty() && m_top->restoreState(figures)) m_figuresSized = true;
  m_tableSplit->restoreState(settings.value(QStringLiteral("tableProgressSplitter")).toByteArray());
  m_bottom->restoreState(settings.value(QStringLiteral("bottomSplitter")).toByteArray());
}

void ComparePage::prepareScreenshot() {
  // builtin against builtin:bulk_and=off and builtin:freq_prune=off on the quick comparison, then
  // one query side by side.
  m_profile->setCurrentIndex(0);
  setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                         QStringLiteral("builtin:freq_prune=off")});
  m_repetitions->setValue(2);
  m_aa->setChecked(false);
  m_identical->setChecked(true);
  m_screenshotPending = true;
  startComparison();
}

void ComparePage::finishScreenshot() {
  if (!m_screenshotPending) return;
  m_screenshotPending = false;
  QTimer::singleShot(3 * widgets::ComparePlot::kReplotIntervalMs + 200, this, &Page::screenshotReady);
}

}  // namespace wandscope::app
