// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/trace_page.h"

#include "app/controllers/index_controller.h"
#include "app/controllers/trace_controller.h"
#include "widgets/models/counter_table_model.h"
#include "widgets/models/search_snapshot.h"
#include "widgets/models/trace_event_model.h"
#include "widgets/models/trace_narrative.h"
#include "widgets/plots/trace_lanes_view.h"
#include "widgets/views/notice_bar.h"
#include "widgets/views/switches_button.h"

#include <QAction>
#include <QColor>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace wandscope::app {

using engine::TraceEventKind;

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  b->setToolButtonStyle(Qt::ToolButtonTextOnly);
  // A click takes the focus (tool buttons only take it by Tab): away from the query box, where
  // the page's step keys would type instead.
  b->setFocusPolicy(Qt::StrongFocus);
  return b;
}

QString algoName(engine::Algorithm a) { return QString::fromLatin1(engine::algorithmName(a)); }

// The primary picture's title: the path that ran, "(auto)" when auto picked it, and the switches
// that were off ("bmm (auto), bulk_or=off"): what a reader needs to run the same trace again.
QString runTitle(const widgets::TraceSnapshot& snapshot) {
  const widgets::TraceRun& run = snapshot.primary;
  QString title = algoName(run.algorithm);
  if (run.requested == engine::Algorithm::Auto) title += QStringLiteral(" (auto)");
  const std::string off = snapshot.options.switchesOff();
  if (!off.empty()) title += QStringLiteral(", ") + QString::fromStdString(off);
  return title;
}

const TraceEventKind kAllKinds[] = {
    TraceEventKind::PivotSelected,   TraceEventKind::BlockSkipped,    TraceEventKind::WindowEntered,
    TraceEventKind::WindowSkipped,   TraceEventKind::WindowJumped,    TraceEventKind::CandidateScored,
    TraceEventKind::CandidatePruned, TraceEventKind::HeapInsert,      TraceEventKind::ThresholdRaised,
    TraceEventKind::PruneTableBuilt, TraceEventKind::EssentialSplit,  TraceEventKind::QueryEnd};

}  // namespace

TracePage::TracePage(const WorkbenchContext& context, QWidget* parent) : Page(parent), m_context(context) {
  m_controller = new TraceController(this);
  QString error;
  m_catalog = LessonCatalog::load(QStringLiteral(":/teaching/lessons.json"), &error);

  auto* layout = new QVBoxLayout(this);
  // Tight: at 1280x800 with the log open every pixel of height goes to the lane pictures.
  layout->setContentsMargins(6, 6, 6, 6);
  layout->setSpacing(4);
  buildControls();
  buildPanels();
  if (!error.isEmpty()) m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);

  connect(m_controller, &TraceController::traceReady, this, &TracePage::onTraceReady);
  connect(m_controller, &TraceController::traceFailed, this, &TracePage::onTraceFailed);
  connect(m_controller, &TraceController::progress, this, [this](const QString& what) {
    m_narrative->setText(what + QStringLiteral("\u2026"));
  });
  connect(m_controller, &TraceController::busyChanged, this, [this](bool busy) { m_traceButton->setEnabled(!busy); });
  if (m_context.index != nullptr) {
    connect(m_context.index, &IndexController::indexChanged, this,
            [this](const IndexHandlePtr& handle) { m_controller->setIndex(handle); });
    if (m_context.index->current()) m_controller->setIndex(m_context.index->current());
  }

  m_playTimer.setInterval(200);
  connect(&m_playTimer, &QTimer::timeout, this, [this] {
    if (m_step + 1 >= stepCount()) {
      setPlaying(false);
      return;
    }
    setStep(m_step + 1);
  });
  updateLessonText();
}

void TracePage::buildControls() {
  auto* layout = static_cast<QVBoxLayout*>(this->layout());
  auto* row = new QHBoxLayout;
  auto addLabeled = [&row, this](const QString& text, QWidget* w, int stretch = 0) {
    auto* l = new QLabel(text, this);
    l->setBuddy(w);
    row->addWidget(l);
    row->addWidget(w, stretch);
    row->addSpacing(6);
  };
  m_lesson = new QComboBox(this);
  m_lesson->addItem(QStringLiteral("(free query)"), QString());
  for (const Lesson& l : m_catalog.lessons()) m_lesson->addItem(l.title, l.id);
  // Wide enough for the longest lesson title: a cut title is a lesson a new user cannot find.
  m_lesson->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_lesson->setToolTip(QStringLiteral("A lesson of docs/teaching: a query on the built-in teaching corpus chosen "
                                      "so one pruning idea shows, with the steps to watch"));
  addLabeled(QStringLiteral("&Lesson:"), m_lesson);
  m_corpus = new QComboBox(this);
  m_corpus->addItem(QStringLiteral("Teaching corpus"), true);
  m_corpus->addItem(QStringLiteral("Open index"), false);
  m_corpus->setToolTip(QStringLiteral("Trace on the built-in teaching corpus (2,048 short documents, indexed on "
                                      "first use) or on the index open in the workbench"));
  addLabeled(QStringLiteral("On:"), m_corpus);
  m_query = new QLineEdit(this);
  m_query->setPlaceholderText(QStringLiteral("Query to trace"));
  m_query->setMinimumWidth(140);
  addLabeled(QStringLiteral("&Query:"), m_query, 1);
  layout->addLayout(row);
  // Second row: how to evaluate it (one row would not fit the main window's 1280 pixels).
  row = new QHBoxLayout;
  m_operator = new QComboBox(this);
  m_operator->addItem(QStringLiteral("OR"), static_cast<int>(engine::Operator::Or));
  m_operator->addItem(QStringLiteral("AND"), static_cast<int>(engine::Operator::And));
  addLabeled(QStringLiteral("&Op:"), m_operator);
  m_algorithm = new QComboBox(this);
  m_algorithm->setToolTip(QStringLiteral("The path whose decisions are replayed"));
  // The list changes with the operator (AND adds block-max-and): follow it, never cut a name.
  m_algorithm->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  addLabeled(QStringLiteral("&Algorithm:"), m_algorithm);
  m_k = new QSpinBox(this);
  m_k->setRange(1, 1000);
  m_k->setValue(10);
  addLabeled(QStringLiteral("&k:"), m_k);
  m_compare = new QComboBox(this);
  m_compare->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_compare->setToolTip(QStringLiteral("Comparison mode: trace the same query under a second path, shown below the "
                                       "first at the same doc position, with both runs' counters"));
  addLabeled(QStringLiteral("&Compare:"), m_compare);
  m_switches = new widgets::SwitchesButton(this);
  row->addWidget(m_switches);
  row->addSpacing(6);
  m_traceButton = new QPushButton(QStringLiteral("&Trace"), this);
  m_traceButton->setDefault(true);
  m_traceButton->setToolTip(QStringLiteral("Run the query with tracing on (on a worker thread)"));
  row->addWidget(m_traceButton);
  m_exportButton = new QToolButton(this);
  m_exportButton->setText(QStringLiteral("Export"));
  m_exportButton->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(m_exportButton);
  auto* exportJsonAction = exportMenu->addAction(QStringLiteral("Trace as &JSON\u2026"));
  auto* exportPngAction = exportMenu->addAction(QStringLiteral("Steps as &PNG images\u2026"));
  auto* exportPdfAction = exportMenu->addAction(QStringLiteral("Steps as P&DF\u2026"));
  m_exportButton->setMenu(exportMenu);
  m_exportButton->setEnabled(false);
  row->addWidget(m_exportButton);
  row->addStretch(1);
  layout->addLayout(row);

  connect(m_lesson, &QComboBox::activated, this, &TracePage::onLessonPicked);
  connect(m_operator, &QComboBox::currentIndexChanged, this, [this] { fillAlgorithms(); });
  // A switch changed on a lesson leaves it (its text is about its own switches), keeping the change.
  connect(m_switches, &widgets::SwitchesButton::optionsChanged, this, [this] {
    const engine::SearchOptions chosen = m_switches->options();
    if (const Lesson* lesson = m_catalog.find(lessonId()); lesson != nullptr && !lessonApplies(*lesson)) {
      leaveLesson(*lesson);
      m_switches->setOptions(chosen);
    }
  });
  connect(m_traceButton, &QPushButton::clicked, this, &TracePage::traceFromControls);
  connect(m_query, &QLineEdit::returnPressed, this, &TracePage::traceFromControls);
  fillAlgorithms();

  auto report = [this](bool ok, const QString& what, const QString& error) {
    if (ok) {
      emit statusMessage(what);
    } else {
      m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    }
  };
  connect(exportJsonAction, &QAction::triggered, this, [this, report] {
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export trace"), QStringLiteral("trace.json"),
                                                      QStringLiteral("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    report(exportJson(path, &error), QStringLiteral("Wrote %1").arg(path), error);
  });
  connect(exportPngAction, &QAction::triggered, this, [this, report] {
    const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Export steps as PNG images"));
    if (dir.isEmpty()) return;
    QString error;
    const int n = exportImages(dir, kMaxExportSteps, &error);
    report(n > 0, QStringLiteral("Wrote %1 images to %2").arg(n).arg(dir), error);
  });
  connect(exportPdfAction, &QAction::triggered, this, [this, report] {
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export steps as PDF"), QStringLiteral("trace.pdf"),
                                                      QStringLiteral("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    const int n = exportPdf(path, kMaxExportSteps, &error);
    report(n > 0, QStringLiteral("Wrote %1 pages to %2").arg(n).arg(path), error);
  });

  // The lesson panel: its text in a scroll area and, under it, the Watch line with the lesson's
  // step links, never scrolled away. It sits beside the event list (buildPanels), whose columns
  // leave most of that row empty: above the pictures, in the default 1280x800 window, it had room
  // for two lines of the text, and a lesson's conclusion was behind a scroll bar. The row is as
  // tall as the text needs (fitLessonText); the text scrolls only in a window too short for it.
  auto* lessonPanel = new QFrame(this);
  m_lessonPanel = lessonPanel;
  lessonPanel->setFrameShape(QFrame::StyledPanel);
  auto* lessonLayout = new QVBoxLayout(lessonPanel);
  lessonLayout->setContentsMargins(kLessonMargin, kLessonMargin, kLessonMargin, kLessonMargin);
  lessonLayout->setSpacing(0);
  auto followStepLink = [this](const QString& link) {
    bool ok = false;
    const int step = link.mid(5).toInt(&ok);  // "step:N"
    if (ok) setStep(static_cast<std::size_t>(step));
  };
  m_lessonText = new QLabel(lessonPanel);
  m_lessonText->setWordWrap(true);
  m_lessonText->setTextFormat(Qt::RichText);
  m_lessonText->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  connect(m_lessonText, &QLabel::linkActivated, this, followStepLink);
  m_lessonScroll = new QScrollArea(lessonPanel);
  m_lessonScroll->setWidget(m_lessonText);
  m_lessonScroll->setWidgetResizable(true);
  m_lessonScroll->setFrameShape(QFrame::NoFrame);
  m_lessonScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_lessonScroll->setMinimumHeight(m_lessonText->fontMetrics().height());
  lessonLayout->addWidget(m_lessonScroll, 1);
  m_lessonWatch = new QLabel(lessonPanel);
  m_lessonWatch->setWordWrap(true);
  m_lessonWatch->setTextFormat(Qt::RichText);
  m_lessonWatch->hide();
  connect(m_lessonWatch, &QLabel::linkActivated, this, followStepLink);
  lessonLayout->addWidget(m_lessonWatch);
  lessonPanel->setMinimumWidth(kLessonMinWidth);

  m_notice = new widgets::NoticeBar(this);
  layout->addWidget(m_notice);

  auto* transport = new QHBoxLayout;
  m_first = toolButton(QStringLiteral("|\u25c0"), QStringLiteral("First step (Home)"), this);
  m_back = toolButton(QStringLiteral("\u25c0 Back"), QStringLiteral("One step back (Left)"), this);
  m_forward = toolButton(QStringLiteral("Step \u25b6"), QStringLiteral("One step forward (Right)"), this);
  m_last = toolButton(QStringLiteral("\u25b6|"), QStringLiteral("Last step (End)"), this);
  m_nextSkip = toolButton(QStringLiteral("Next skip"), QStringLiteral("Run to the next skipped block or window, jump or "
                                                                     "pruned candidate (S)"), this);
  m_nextInsert = toolButton(QStringLiteral("Next heap insert"), QStringLiteral("Run to the next document entering the "
                                                                              "top k (H)"), this);
  m_nextKind = new QComboBox(this);
  for (TraceEventKind k : kAllKinds) m_nextKind->addItem(widgets::traceKindLabel(k), static_cast<int>(k));
  m_nextKind->setToolTip(QStringLiteral("An event kind to run to"));
  m_nextKindButton = toolButton(QStringLiteral("Next"), QStringLiteral("Run to the next event of the chosen kind"), this);
  m_play = toolButton(QStringLiteral("Play"), QStringLiteral("Play the steps (Space)"), this);
  m_play->setCheckable(true);
  // The style's icons, not symbol characters: U+23F8 (pause) is in none of the usual fonts.
  m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  m_play->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_speed = new QComboBox(this);
  for (int s : {1, 2, 5, 10, 25, 100}) m_speed->addItem(QStringLiteral("%1 steps/s").arg(s), s);
  m_speed->setCurrentIndex(2);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setRange(0, 0);
  m_stepLabel = new QLabel(this);
  m_stepLabel->setMinimumWidth(120);
  m_zoomOut = toolButton(QStringLiteral("\u2212"), QStringLiteral("Zoom out (-): twice the doc ids, up to the lists' "
                                                                  "whole range"), this);
  m_zoomIn = toolButton(QStringLiteral("+"), QStringLiteral("Zoom in (+): half the doc ids, down to %1. The wheel "
                                                          "zooms around the mouse; drag or Shift+Left/Right pans.")
                                                .arg(widgets::TraceLanesView::kMinSpan), this);
  m_fit = toolButton(QStringLiteral("Fit"), QStringLiteral("Fit the view (F): the lists' whole doc-id range, or a "
                                                          "window that follows the step on long lists"), this);
  for (QWidget* w : std::initializer_list<QWidget*>{m_first, m_back, m_forward, m_last, m_nextSkip, m_nextInsert,
                                                    m_nextKind, m_nextKindButton, m_play, m_speed}) {
    transport->addWidget(w);
  }
  transport->addSpacing(6);
  for (QWidget* w : std::initializer_list<QWidget*>{m_zoomOut, m_zoomIn, m_fit}) transport->addWidget(w);
  transport->addWidget(m_slider, 1);
  transport->addWidget(m_stepLabel);
  layout->addLayout(transport);

  connect(m_first, &QToolButton::clicked, this, [this] { setStep(0); });
  connect(m_back, &QToolButton::clicked, this, &TracePage::stepBack);
  connect(m_forward, &QToolButton::clicked, this, &TracePage::stepForward);
  connect(m_last, &QToolButton::clicked, this, [this] { setStep(stepCount() > 0 ? stepCount() - 1 : 0); });
  connect(m_nextSkip, &QToolButton::clicked, this, [this] { nextSkip(); });
  connect(m_nextInsert, &QToolButton::clicked, this, [this] { nextHeapInsert(); });
  connect(m_nextKindButton, &QToolButton::clicked, this, [this] {
    nextOfKind({static_cast<TraceEventKind>(m_nextKind->currentData().toInt())});
  });
  connect(m_play, &QToolButton::toggled, this, [this](bool on) { setPlaying(on); });
  connect(m_zoomIn, &QToolButton::clicked, this, [this] { zoomView(1); });
  connect(m_zoomOut, &QToolButton::clicked, this, [this] { zoomView(-1); });
  connect(m_fit, &QToolButton::clicked, this, &TracePage::fitView);
  connect(m_speed, &QComboBox::currentIndexChanged, this, [this] { setPlaySpeed(m_speed->currentData().toInt()); });
  connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
    if (!m_syncing) setStep(static_cast<std::size_t>(std::max(0, v)));
  });

  m_narrative = new QLabel(this);
  m_narrative->setWordWrap(true);
  m_narrative->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont f = m_narrative->font();
  f.setPointSizeF(f.pointSizeF() * 1.12);
  m_narrative->setFont(f);
  m_narrative->setMinimumHeight(m_narrative->fontMetrics().height() * 2 + 8);
  m_narrative->setFrameShape(QFrame::StyledPanel);
  m_narrative->setMargin(6);
  updateNarrative();
  layout->addWidget(m_narrative);

  auto addAction = [this](const QString& text, const QKeySequence& key, auto slot) {
    auto* a = new QAction(text, this);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(a, &QAction::triggered, this, slot);
    QWidget::addAction(a);
    m_actions << a;
  };
  addAction(QStringLiteral("Step &forward"), QKeySequence(Qt::Key_Right), [this] { stepForward(); });
  addAction(QStringLiteral("Step &back"), QKeySequence(Qt::Key_Left), [this] { stepBack(); });
  addAction(QStringLiteral("First step"), QKeySequence(Qt::Key_Home), [this] { setStep(0); });
  addAction(QStringLiteral("Last step"), QKeySequence(Qt::Key_End), [this] { setStep(stepCount() ? stepCount() - 1 : 0); });
  addAction(QStringLiteral("Next &skip"), QKeySequence(Qt::Key_S), [this] { nextSkip(); });
  addAction(QStringLiteral("Next &heap insert"), QKeySequence(Qt::Key_H), [this] { nextHeapInsert(); });
  addAction(QStringLiteral("&Play / pause"), QKeySequence(Qt::Key_Space), [this] { setPlaying(!isPlaying()); });
  addAction(QStringLiteral("Zoom &in"), QKeySequence(Qt::Key_Plus), [this] { zoomView(1); });
  addAction(QStringLiteral("Zoom &out"), QKeySequence(Qt::Key_Minus), [this] { zoomView(-1); });
  addAction(QStringLiteral("Pan left"), QKeySequence(Qt::SHIFT | Qt::Key_Left), [this] { panView(-1); });
  addAction(QStringLiteral("Pan right"), QKeySequence(Qt::SHIFT | Qt::Key_Right), [this] { panView(1); });
  addAction(QStringLiteral("&Fit the view"), QKeySequence(Qt::Key_F), [this] { fitView(); });
  // "=" is "+" without Shift on most layouts.
  auto* zoomInAlt = new QAction(this);
  zoomInAlt->setShortcut(QKeySequence(Qt::Key_Equal));
  zoomInAlt->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(zoomInAlt, &QAction::triggered, this, [this] { zoomView(1); });
  QWidget::addAction(zoomInAlt);
}

void TracePage::zoomView(int direction) {
  for (auto* view : {m_lanes, m_lanesB}) direction > 0 ? view->zoomIn() : view->zoomOut();
}

void TracePage::panView(int direction) {
  // A quarter of the view per press.
  for (auto* view : {m_lanes, m_lanesB}) view->panBy(direction * static_cast<long long>(view->zoomSpan() / 4));
}

void TracePage::fitView() {
  for (auto* view : {m_lanes, m_lanesB}) view->fit();
}

void TracePage::buildPanels() {
  auto* layout = static_cast<QVBoxLayout*>(this->layout());
  auto* vertical = new QSplitter(Qt::Vertical, this);
  m_vertical = vertical;
  auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
  auto* lanes = new QSplitter(Qt::Vertical, horizontal);
  lanes->setChildrenCollapsible(false);
  m_lanes = new widgets::TraceLanesView(lanes);
  m_lanesB = new widgets::TraceLanesView(lanes);
  m_lanesB->hide();
  for (auto* view : {m_lanes, m_lanesB}) {
    connect(view, &widgets::TraceLanesView::viewChanged, this, &TracePage::syncAxes);
  }

  auto* side = new QWidget(horizontal);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  m_heapTitle = new QLabel(QStringLiteral("<b>Top-k heap</b>"), side);
  sideLayout->addWidget(m_heapTitle);
  m_heap = new QTableWidget(0, 3, side);
  m_heap->setHorizontalHeaderLabels({QStringLiteral("Rank"), QStringLiteral("Doc"), QStringLiteral("Score")});
  m_heap->verticalHeader()->setVisible(false);
  m_heap->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_heap->setSelectionMode(QAbstractItemView::NoSelection);
  m_heap->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_heap->verticalHeader()->setDefaultSectionSize(m_heap->fontMetrics().height() + 6);
  m_heap->setToolTip(QStringLiteral("The top k after this step, replayed from the heap inserts: score descending, "
                                    "then doc id ascending. The last row is the threshold."));
  sideLayout->addWidget(m_heap, 1);
  sideLayout->addWidget(new QLabel(QStringLiteral("<b>Counters</b>"), side));
  m_counterModel = new widgets::CounterTableModel(this);
  m_counterModel->setHideZeros(true);
  m_counters = new QTableView(side);
  m_counters->setModel(m_counterModel);
  m_counters->verticalHeader()->setVisible(false);
  m_counters->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_counters->verticalHeader()->setDefaultSectionSize(m_counters->fontMetrics().height() + 6);
  // Room for the counter names and both runs' columns without a horizontal scroll bar.
  side->setMinimumWidth(380);
  m_heap->setMinimumHeight(60);
  m_counters->setMinimumHeight(60);
  sideLayout->addWidget(m_counters, 1);
  horizontal->addWidget(lanes);
  horizontal->addWidget(side);
  horizontal->setStretchFactor(0, 1);
  horizontal->setStretchFactor(1, 0);

  m_eventModel = new widgets::TraceEventModel(this);
  // The event list and, beside it, the lesson panel (built in buildControls).
  m_bottom = new QSplitter(Qt::Horizontal, vertical);
  m_bottom->setChildrenCollapsible(false);
  m_events = new QTableView(m_bottom);
  m_events->setModel(m_eventModel);
  m_events->verticalHeader()->setVisible(false);
  m_events->verticalHeader()->setDefaultSectionSize(m_events->fontMetrics().height() + 6);
  m_events->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_events->setSelectionMode(QAbstractItemView::SingleSelection);
  // Columns as wide as their contents (resizeColumnsToContents on each trace); the last one is not
  // stretched: a threshold column as wide as the rest of the row put its numbers far from the rest.
  m_events->horizontalHeader()->setStretchLastSection(false);
  m_events->setAlternatingRowColors(true);
  m_events->setToolTip(QStringLiteral("Every recorded event; select one to jump to it"));
  m_events->setMinimumHeight(m_events->fontMetrics().height() * 4);
  connect(m_events->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { onEventActivated(); });
  m_bottom->addWidget(m_events);
  m_bottom->addWidget(m_lessonPanel);
  m_bottom->setStretchFactor(0, 0);
  m_bottom->setStretchFactor(1, 1);
  vertical->addWidget(horizontal);
  vertical->addWidget(m_bottom);
  vertical->setChildrenCollapsible(false);
  // A taller window grows the pictures; the row below keeps the height fitLessonText() gave it.
  vertical->setStretchFactor(0, 1);
  vertical->setStretchFactor(1, 0);
  layout->addWidget(vertical, 1);
  // A wider or narrower lesson panel needs another height; a row the user sized stays so until
  // the next lesson.
  connect(m_bottom, &QSplitter::splitterMoved, this, [this] {
    m_userSizedColumns = true;
    fitLessonText();
  });
  connect(vertical, &QSplitter::splitterMoved, this, [this] { m_userSizedPanels = true; });
}

void TracePage::fillAlgorithms() {
  const auto op = static_cast<engine::Operator>(m_operator->currentData().toInt());
  const QString current = m_algorithm->currentText();
  const QString compare = m_compare->currentText();
  m_algorithm->clear();
  m_compare->clear();
  m_compare->addItem(QStringLiteral("none"), -1);
  for (engine::Algorithm a : engine::allAlgorithms()) {
    if (!engine::algorithmSupports(a, op)) continue;
    // auto traces the path it picks, in the form it runs it (Explore's "Trace this query" asks
    // for it); the paths compared are named ones.
    m_algorithm->addItem(algoName(a), static_cast<int>(a));
    if (a != engine::Algorithm::Auto) m_compare->addItem(algoName(a), static_cast<int>(a));
  }
  if (const int i = m_algorithm->findText(current); i >= 0) m_algorithm->setCurrentIndex(i);
  if (const int i = m_compare->findText(compare); i >= 0) m_compare->setCurrentIndex(i);
}

QList<QAction*> TracePage::menuActions() const { return m_actions; }

TraceParams TracePage::currentParams() const {
  TraceParams p;
  p.text = m_query->text();
  p.op = static_cast<engine::Operator>(m_operator->currentData().toInt());
  p.k = static_cast<std::size_t>(m_k->value());
  p.algorithm = static_cast<engine::Algorithm>(m_algorithm->currentData().toInt());
  if (m_compare->currentData().toInt() >= 0) p.compare = static_cast<engine::Algorithm>(m_compare->currentData().toInt());
  p.teaching = m_corpus->currentData().toBool();
  p.lessonId = m_lesson->currentData().toString();
  p.options = m_switches->options();
  p.maxEvents = m_maxEvents;
  return p;
}

void TracePage::onLessonPicked(int index) {
  const QString id = m_lesson->itemData(index).toString();
  m_leftLesson.clear();
  if (id.isEmpty()) {
    updateLessonText();
    return;
  }
  if (loadLesson(id)) m_events->setFocus(Qt::OtherFocusReason);
}

bool TracePage::traceQuery(const QString& text, engine::Operator op, int k, engine::Algorithm algorithm,
                           const engine::SearchOptions& options) {
  // Out of the lesson first: leaving resets the switches, which are Explore's here.
  if (const Lesson* lesson = m_catalog.find(lessonId())) leaveLesson(*lesson);
  m_corpus->setCurrentIndex(m_corpus->findData(false));
  m_query->setText(text);
  m_operator->setCurrentIndex(m_operator->findData(static_cast<int>(op)));
  fillAlgorithms();
  if (const int i = m_algorithm->findData(static_cast<int>(algorithm)); i >= 0) m_algorithm->setCurrentIndex(i);
  m_k->setValue(k);
  m_switches->setOptions(options);
  return traceFromControls();  // on the open index no lesson applies: runTrace leaves any
}

bool TracePage::traceFromControls() {
  if (!runTrace()) return false;
  // The step keys are the page's shortcuts; in the query box they would type ("fe ma h").
  m_events->setFocus(Qt::OtherFocusReason);
  return true;
}

QString TracePage::lessonId() const { return m_lesson->currentData().toString(); }

bool TracePage::lessonApplies(const Lesson& lesson) const {
  // The lesson's text and watched steps describe its query on the teaching corpus at its k and
  // operator, under the algorithms it lists; anything else is a free query that starts from it.
  const auto algorithm = static_cast<engine::Algorithm>(m_algorithm->currentData().toInt());
  return m_corpus->currentData().toBool() && m_query->text().simplified() == lesson.query.simplified() &&
         static_cast<engine::Operator>(m_operator->currentData().toInt()) == lesson.op && m_k->value() == lesson.k &&
         m_switches->options() == lesson.options && lesson.algorithms.contains(algorithm);
}

void TracePage::leaveLesson(const Lesson& lesson) {
  m_leftLesson = lesson.title;
  m_pendingLesson.clear();
  m_lesson->setCurrentIndex(0);
  // The lesson's switches (rank_floor=off, ...) were for its text; a free query starts from the
  // engine's defaults.
  m_switches->setOptions({});
  updateLessonText();
}

bool TracePage::loadLesson(const QString& id) {
  if (!showLesson(id)) return false;
  runTrace();
  return true;
}

bool TracePage::showLesson(const QString& id) {
  const Lesson* lesson = m_catalog.find(id);
  if (lesson == nullptr) return false;
  m_leftLesson.clear();
  m_lesson->setCurrentIndex(m_lesson->findData(id));
  m_corpus->setCurrentIndex(0);
  m_query->setText(lesson->query);
  m_operator->setCurrentIndex(m_operator->findData(static_cast<int>(lesson->op)));
  fillAlgorithms();
  m_algorithm->setCurrentIndex(m_algorithm->findData(static_cast<int>(lesson->algorithms.front())));
  m_compare->setCurrentIndex(lesson->compare ? m_compare->findData(static_cast<int>(*lesson->compare)) : 0);
  m_k->setValue(lesson->k);
  m_switches->setOptions(lesson->options);
  m_pendingLesson = id;
  m_userSizedPanels = false;
  m_userSizedColumns = false;
  updateLessonText();
  return true;
}

bool TracePage::runTrace() {
  if (m_query->text().trimmed().isEmpty()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Information, QStringLiteral("Type a query to trace, or pick a lesson."));
    return false;
  }
  if (const Lesson* lesson = m_catalog.find(lessonId()); lesson != nullptr && !lessonApplies(*lesson)) {
    leaveLesson(*lesson);
  }
  setPlaying(false);
  const TraceParams p = currentParams();
  if (p.lessonId != m_pendingLesson) m_pendingLesson.clear();
  m_notice->hideNotice();
  m_controller->trace(p);
  return true;
}

void TracePage::onTraceReady(const widgets::TraceSnapshotPtr& snapshot) {
  m_snapshot = snapshot;
  const widgets::TraceRun& run = snapshot->primary;
  m_lanes->setRun(snapshot, &run);
  m_lanes->setTitle(runTitle(*snapshot));
  m_eventModel->setRun(snapshot, &run);
  m_compareProgress.clear();
  if (snapshot->compare) {
    m_lanesB->setRun(snapshot, snapshot->compare.get());
    m_lanesB->setTitle(QStringLiteral("compared: %1 (at the same doc position)").arg(algoName(snapshot->compare->algorithm)));
    m_lanesB->show();
    engine::DocId reached = 0;
    for (const auto& e : snapshot->compare->events) {
      if (e.kind != TraceEventKind::QueryStart && e.kind != TraceEventKind::QueryEnd &&
          e.kind != TraceEventKind::EssentialSplit && e.kind != TraceEventKind::ThresholdRaised &&
          e.doc != engine::kNoMoreDocs) {
        reached = std::max(reached, e.doc);
      }
      m_compareProgress.push_back(reached);
    }
  } else {
    m_lanesB->setRun(nullptr, nullptr);
    m_lanesB->hide();
  }
  syncAxes();
  // Counters of both runs side by side (the Explore page's model, fed a search snapshot).
  auto counters = std::make_shared<widgets::SearchSnapshot>();
  counters->primary.taken = run.algorithm;
  counters->primary.counters = run.counters;
  counters->primary.hits = run.hits;
  if (snapshot->compare) {
    widgets::AlgorithmRun b;
    b.taken = snapshot->compare->algorithm;
    b.counters = snapshot->compare->counters;
    b.hits = snapshot->compare->hits;
    counters->compare = b;
  }
  m_counterModel->setSnapshot(counters);
  m_counters->resizeColumnsToContents();
  m_events->resizeColumnsToContents();
  fitEventColumns();

  QStringList notes;
  if (run.truncated()) {
    // One line at the default window's width: every line here is taken from the pictures.
    notes << QStringLiteral("This trace was capped at %1 events (%2 later ones not recorded): replay stops there; "
                            "results and counters are complete. Lower k or pick rarer terms to see it all.")
                 .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(run.maxEvents)))
                 .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(run.dropped)));
  }
  for (const auto& lane : snapshot->lanes) {
    if (lane.postingsCapped) {
      notes << QStringLiteral("'%1' has too many postings to draw; its blocks are shown.").arg(lane.term);
    }
  }
  if (!notes.isEmpty()) m_notice->showNotice(widgets::NoticeBar::Kind::Warning, notes.join(QLatin1Char(' ')));
  m_exportButton->setEnabled(true);

  m_syncing = true;
  m_slider->setRange(0, static_cast<int>(stepCount() > 0 ? stepCount() - 1 : 0));
  m_syncing = false;
  m_step = std::numeric_limits<std::size_t>::max();
  std::size_t start = 0;
  if (!m_pendingLesson.isEmpty() && m_pendingLesson == snapshot->lessonId) {
    if (const Lesson* l = m_catalog.find(m_pendingLesson)) {
      const long key = LessonCatalog::findStep(run, l->keyStep);
      if (key >= 0) start = static_cast<std::size_t>(key);
    }
  }
  setStep(start);
  updateLessonText();
  emit traceShown();
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

void TracePage::onTraceFailed(quint64, const QString& message) {
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, QStringLiteral("Trace failed: %1").arg(message));
  // The progress line ("Tracing...") must not stay as if the trace were still running: back to
  // the step still shown (the previous trace's), or to the hint.
  updateNarrative();
  emit errorOccurred(message);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

std::size_t TracePage::stepCount() const noexcept { return m_snapshot ? m_snapshot->primary.events.size() : 0; }

void TracePage::setStep(std::size_t step) {
  if (stepCount() == 0) return;
  step = std::min(step, stepCount() - 1);
  if (step == m_step) return;
  m_step = step;
  m_lanes->setStep(step);
  if (m_snapshot->compare) m_lanesB->setStep(compareStepFor(step));
  syncAxes();
  updateNarrative();
  m_stepLabel->setText(QStringLiteral("step %1 / %2")
                           .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(step)))
                           .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(stepCount() - 1))));
  m_syncing = true;
  m_slider->setValue(static_cast<int>(step));
  const QModelIndex row = m_eventModel->index(static_cast<int>(step), 0);
  m_events->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  m_events->scrollTo(row, QAbstractItemView::EnsureVisible);
  m_syncing = false;
  updateHeap();
  const bool atEnd = step + 1 >= stepCount();
  m_forward->setEnabled(!atEnd);
  m_last->setEnabled(!atEnd);
  m_back->setEnabled(step > 0);
  m_first->setEnabled(step > 0);
  emit stepChanged(step);
}

void TracePage::updateNarrative() {
  if (stepCount() == 0 || m_step >= stepCount()) {
    m_narrative->setText(QStringLiteral("Pick a lesson above, or type a query and press Trace."));
    return;
  }
  m_narrative->setText(QStringLiteral("<b>Step %1.</b> %2")
                           .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(m_step)))
                           .arg(widgets::traceNarrative(*m_snapshot, m_snapshot->primary, m_step).toHtmlEscaped()));
}

std::size_t TracePage::compareStepFor(std::size_t step) const {
  if (!m_snapshot || !m_snapshot->compare || m_compareProgress.empty()) return 0;
  if (step + 1 >= stepCount()) return m_compareProgress.size() - 1;
  const engine::DocId focus = m_lanes->focusDoc();
  // The last event of the compared run that has not gone past the primary's document.
  const auto it = std::upper_bound(m_compareProgress.begin(), m_compareProgress.end(), focus);
  return it == m_compareProgress.begin() ? 0 : static_cast<std::size_t>(it - m_compareProgress.begin() - 1);
}

void TracePage::stepForward() { setStep(m_step + 1); }

void TracePage::stepBack() {
  if (m_step > 0) setStep(m_step - 1);
}

bool TracePage::nextOfKind(std::initializer_list<TraceEventKind> kinds, bool backwards) {
  if (stepCount() == 0) return false;
  const auto& events = m_snapshot->primary.events;
  auto matches = [&](std::size_t i) { return std::find(kinds.begin(), kinds.end(), events[i].kind) != kinds.end(); };
  if (backwards) {
    for (std::size_t i = m_step; i-- > 0;) {
      if (matches(i)) {
        setStep(i);
        return true;
      }
    }
    return false;
  }
  for (std::size_t i = m_step + 1; i < events.size(); ++i) {
    if (matches(i)) {
      setStep(i);
      return true;
    }
  }
  // Say so: a key that did nothing (S on a WAND trace, which records pivots and no skips) read as
  // a key that does not work.
  const QString what = kinds.size() == 1
                           ? QStringLiteral("'%1' event").arg(widgets::traceKindLabel(*kinds.begin()))
                           : QStringLiteral("skip (block or window skipped, window jump or pruned candidate)");
  emit statusMessage(QStringLiteral("No %1 after step %2 in this %3 trace")
                         .arg(what, QLocale(QLocale::English).toString(static_cast<qulonglong>(m_step)),
                              algoName(m_snapshot->primary.algorithm)));
  return false;
}

bool TracePage::nextSkip() {
  return nextOfKind({TraceEventKind::BlockSkipped, TraceEventKind::WindowSkipped, TraceEventKind::WindowJumped,
                     TraceEventKind::CandidatePruned});
}

bool TracePage::nextHeapInsert() { return nextOfKind({TraceEventKind::HeapInsert}); }

void TracePage::setPlaying(bool playing) {
  if (playing && stepCount() > 0) {
    if (m_step + 1 >= stepCount()) setStep(0);
    m_playTimer.start();
  } else {
    m_playTimer.stop();
  }
  if (m_play->isChecked() != m_playTimer.isActive()) {
    const QSignalBlocker block(m_play);
    m_play->setChecked(m_playTimer.isActive());
  }
  m_play->setText(m_playTimer.isActive() ? QStringLiteral("Pause") : QStringLiteral("Play"));
  m_play->setIcon(style()->standardIcon(m_playTimer.isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void TracePage::setPlaySpeed(int eventsPerSecond) {
  m_playTimer.setInterval(std::max(1, 1000 / std::max(1, eventsPerSecond)));
  const int i = m_speed->findData(eventsPerSecond);
  if (i >= 0 && i != m_speed->currentIndex()) {
    const QSignalBlocker block(m_speed);
    m_speed->setCurrentIndex(i);
  }
}

void TracePage::onEventActivated() {
  if (m_syncing) return;
  const QModelIndex current = m_events->selectionModel()->currentIndex();
  if (current.isValid()) setStep(static_cast<std::size_t>(current.row()));
}

void TracePage::updateHeap() {
  const auto heap = widgets::TraceSnapshot::heapAt(m_snapshot->primary, m_snapshot->k, m_step);
  const auto& e = m_snapshot->primary.events[m_step];
  // At most kHeapRows rows (the top of the heap) plus the k-th, which is the threshold.
  const std::size_t k = m_snapshot->k;
  const int rows = static_cast<int>(std::min<std::size_t>(k, kHeapRows));
  m_heap->setRowCount(rows);
  for (int r = 0; r < rows; ++r) {
    // With k over kHeapRows, the last row shows the k-th document.
    const std::size_t at = (r + 1 == rows && k > kHeapRows) ? k - 1 : static_cast<std::size_t>(r);
    const bool filled = at < heap.size();
    const auto& h = filled ? heap[at] : engine::Hit{};
    auto* rank = new QTableWidgetItem(QLocale(QLocale::English).toString(static_cast<qulonglong>(at + 1)));
    auto* doc = new QTableWidgetItem(filled ? widgets::formatDoc(h.doc) : QStringLiteral("(empty)"));
    auto* score = new QTableWidgetItem(filled ? widgets::formatScore(h.score) : QString());
    for (auto* item : {rank, doc, score}) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (filled && e.kind == TraceEventKind::HeapInsert && h.doc == e.doc) {
      for (auto* item : {rank, doc, score}) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
        item->setBackground(QColor(0xd6, 0x27, 0x28, 50));
      }
    }
    m_heap->setItem(r, 0, rank);
    m_heap->setItem(r, 1, doc);
    m_heap->setItem(r, 2, score);
  }
  m_heapTitle->setText(QStringLiteral("<b>Top-%1 heap</b> &nbsp; threshold %2")
                           .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(k)),
                                widgets::formatScore(e.floor)));
}

void TracePage::updateLessonText() {
  const Lesson* lesson = m_catalog.find(lessonId());
  if (lesson == nullptr) {
    QString html;
    if (!m_leftLesson.isEmpty()) {
      html = QStringLiteral("<b>Free query</b> &mdash; not the lesson <i>%1</i>: its text and steps do not "
                            "describe this trace (other query, corpus, operator, k or algorithm). Pick the lesson "
                            "again to go back to it.<br>")
                 .arg(m_leftLesson.toHtmlEscaped());
    }
    html += QStringLiteral("<b>Trace</b>: replay a query's evaluation one engine decision at a time. "
                           "Pick a lesson to start (%1 lessons on a built-in corpus), or type your own "
                           "query. Step with \u2190/\u2192, S = next skip, H = next heap insert, "
                           "Space = play; zoom with +/\u2212 or the wheel, pan by dragging, F fits.")
                .arg(m_catalog.lessons().size());
    m_lessonText->setText(html);
    m_lessonWatch->clear();
    m_lessonWatch->hide();
    fitLessonText();
    return;
  }
  // The title inline with the text: one line less above the pictures.
  QString html = QStringLiteral("<b>%1</b> &mdash; <i>%2</i> (%3, k = %4): %5")
                     .arg(lesson->title.toHtmlEscaped(), lesson->query.toHtmlEscaped(),
                          lesson->op == engine::Operator::Or ? QStringLiteral("OR") : QStringLiteral("AND"))
                     .arg(lesson->k)
                     .arg(lesson->text.toHtmlEscaped());
  QStringList steps;
  for (const LessonStep& s : lesson->watch) {
    long at = -1;
    if (m_snapshot && m_snapshot->lessonId == lesson->id) at = LessonCatalog::findStep(m_snapshot->primary, s);
    steps << (at >= 0 ? QStringLiteral("<a href=\"step:%1\">step %1</a>: %2").arg(at).arg(s.say.toHtmlEscaped())
                      : s.say.toHtmlEscaped());
  }
  m_lessonText->setText(html);
  m_lessonWatch->setText(steps.isEmpty() ? QString()
                                         : QStringLiteral("<b>Watch:</b> ") + steps.join(QStringLiteral(" &middot; ")));
  m_lessonWatch->setVisible(!steps.isEmpty());
  fitLessonText();
}

void TracePage::fitLessonText() {
  if (m_vertical == nullptr || !m_panelsSized || m_userSizedPanels) return;
  const int total = m_vertical->height() - m_vertical->handleWidth();
  const int textWidth = m_lessonPanel->width() - 2 * (kLessonMargin + m_lessonPanel->frameWidth());
  if (total <= 0 || textWidth <= 0) return;
  // The whole text and the Watch line, and at least the event list's rows; at most
  // kMaxBottomPercent of the splitter, so the pictures keep theirs (the text scrolls beyond).
  int wanted = m_lessonText->heightForWidth(textWidth) + 2 * (kLessonMargin + m_lessonPanel->frameWidth());
  if (!m_lessonWatch->isHidden()) wanted += m_lessonWatch->heightForWidth(textWidth);
  const int rows = height() < kShortPageHeight ? kShortEventRows : kEventRows;
  const int events = m_events->horizontalHeader()->sizeHint().height() +
                     rows * m_events->verticalHeader()->defaultSectionSize() + 2 * m_events->frameWidth();
  const int cap = std::max(events, total * kMaxBottomPercent / 100);
  const int bottom = std::clamp(wanted, events, cap);
  m_vertical->setSizes({std::max(0, total - bottom), bottom});
}

void TracePage::fitEventColumns() {
  // The event list as wide as its columns; the lesson panel has the rest of the row. A divider the
  // user dragged stays until the next lesson, as the pictures' does (it snapped back on every trace).
  const int total = m_bottom->width() - m_bottom->handleWidth();
  if (total <= 0) return;
  if (m_userSizedColumns) {
    fitLessonText();
    return;
  }
  const int events = m_events->horizontalHeader()->length() + m_events->verticalScrollBar()->sizeHint().width() +
                     2 * m_events->frameWidth();
  const int width = std::clamp(events, 0, std::max(0, total - kLessonMinWidth));
  m_bottom->setSizes({width, total - width});
  fitLessonText();
}

void TracePage::resizeEvent(QResizeEvent* event) {
  Page::resizeEvent(event);
  fitLessonText();
  sizePanels();
}

void TracePage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  sizePanels();
}

void TracePage::sizePanels() {
  if (m_panelsSized || !isVisible()) return;
  if (m_vertical->height() <= 0) return;
  m_panelsSized = true;
  fitEventColumns();
}

void TracePage::syncAxes() {
  const bool compared = m_snapshot && m_snapshot->compare && !m_lanesB->isHidden();
  m_lanes->setShowAxis(!compared || m_lanes->viewRange() != m_lanesB->viewRange());
}

bool TracePage::exportJson(const QString& path, QString* error) const {
  if (!m_snapshot) {
    if (error) *error = QStringLiteral("nothing traced yet");
    return false;
  }
  auto write = [&](const QString& file, const std::string& json) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        out.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size())) {
      if (error) *error = QStringLiteral("cannot write %1").arg(file);
      return false;
    }
    return true;
  };
  if (!write(path, m_snapshot->primary.json)) return false;
  if (m_snapshot->compare) {
    QString second = path;
    second.insert(path.endsWith(QLatin1String(".json")) ? path.size() - 5 : path.size(),
                  QLatin1Char('.') + algoName(m_snapshot->compare->algorithm));
    return write(second, m_snapshot->compare->json);
  }
  return true;
}

QImage TracePage::renderStep(std::size_t step, const QSize& size) const {
  // A detached view of the same run, so exporting does not move the page's own step.
  widgets::TraceLanesView view;
  view.setRun(m_snapshot, &m_snapshot->primary);
  view.setTitle(runTitle(*m_snapshot));
  view.setStep(step);
  const int narrativeHeight = 70;
  view.resize(size.width(), size.height() - narrativeHeight);
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::white);
  QPainter p(&image);
  view.render(&p);
  QTextDocument text;
  text.setTextWidth(size.width() - 16);
  text.setHtml(QStringLiteral("<b>Step %1.</b> %2").arg(step).arg(
      widgets::traceNarrative(*m_snapshot, m_snapshot->primary, step).toHtmlEscaped()));
  p.translate(8, size.height() - narrativeHeight + 4);
  text.drawContents(&p);
  return image;
}

int TracePage::exportImages(const QString& dir, int maxSteps, QString* error) const {
  if (!m_snapshot) {
    if (error) *error = QStringLiteral("nothing traced yet");
    return 0;
  }
  if (!QDir().mkpath(dir)) {
    if (error) *error = QStringLiteral("cannot create %1").arg(dir);
    return 0;
  }
  const std::size_t end = std::min(stepCount(), m_step + static_cast<std::size_t>(std::max(0, maxSteps)));
  int written = 0;
  for (std::size_t s = m_step; s < end; ++s) {
    const QString file = QDir(dir).filePath(QStringLiteral("step_%1.png").arg(s, 6, 10, QLatin1Char('0')));
    if (!renderStep(s, QSize(1280, 560)).save(file, "PNG")) {
      if (error) *error = QStringLiteral("cannot write %1").arg(file);
      return written;
    }
    ++written;
  }
  return written;
}

int TracePage::exportPdf(const QString& path, int maxSteps, QString* error) const {
  if (!m_snapshot) {
    if (error) *error = QStringLiteral("nothing traced yet");
    return 0;
  }
  QPdfWriter pdf(path);
  pdf.setPageSize(QPageSize(QPageSize::A4));
  pdf.setPageOrientation(QPageLayout::Landscape);
  pdf.setTitle(QStringLiteral("Wandscope trace: %1").arg(m_snapshot->text));
  QPainter p;
  if (!p.begin(&pdf)) {
    if (error) *error = QStringLiteral("cannot write %1").arg(path);
    return 0;
  }
  const std::size_t end = std::min(stepCount(), m_step + static_cast<std::size_t>(std::max(0, maxSteps)));
  int pages = 0;
  for (std::size_t s = m_step; s < end; ++s) {
    if (pages > 0) pdf.newPage();
    const QImage image = renderStep(s, QSize(1280, 560));
    const QRect target = p.viewport();
    const QSize scaled = image.size().scaled(target.size(), Qt::KeepAspectRatio);
    p.drawImage(QRect(target.topLeft(), scaled), image);
    ++pages;
  }
  p.end();
  return pages;
}

void TracePage::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("lesson"), m_lesson->currentData().toString());
  settings.setValue(QStringLiteral("speed"), m_speed->currentData().toInt());
}

void TracePage::restoreSettings(QSettings& settings) {
  setPlaySpeed(settings.value(QStringLiteral("speed"), 5).toInt());
  // The lesson with its controls (query, operator, algorithm, k, switches), not its name alone:
  // a picked lesson over empty controls answered Trace with "Type a query to trace, or pick a
  // lesson" and left the lesson at the first query typed. Traced when the user asks.
  const QString lesson = settings.value(QStringLiteral("lesson")).toString();
  if (!lesson.isEmpty() && m_lesson->findData(lesson) > 0) showLesson(lesson);
}

void TracePage::prepareScreenshot() {
  if (m_catalog.lessons().isEmpty()) {
    emit screenshotReady();
    return;
  }
  m_screenshotPending = true;
  loadLesson(m_catalog.lessons().front().id);
}

}  // namespace wandscope::app
