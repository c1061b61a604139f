// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "app/gui/workbench_context.h"
#include "app/workers/lesson_catalog.h"
#include "app/workers/trace_job.h"
#include "widgets/models/trace_snapshot.h"

#include <QTimer>

#include <initializer_list>

class QAction;
class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QSplitter;
class QTableView;
class QTableWidget;
class QToolButton;

namespace wandscope::widgets {
class CounterTableModel;
class NoticeBar;
class SwitchesButton;
class TraceEventModel;
class TraceLanesView;
}  // namespace wandscope::widgets

namespace wandscope::app {

class TraceController;

// The teaching view: replays a query's real evaluation one engine event at a time. A lesson (or a
// free query on the teaching corpus or the open index) is traced on the controller's worker; the
// page shows one lane per term (TraceLanesView), a narrative line per step, the top-k heap at
// that step, the event list (kept in sync with the picture both ways) and, in comparison mode,
// the same query under a second algorithm aligned by doc position, with both runs' counters.
class TracePage : public Page {
  Q_OBJECT
 public:
  explicit TracePage(const WorkbenchContext& context, QWidget* parent = nullptr);

  QString pageId() const override { return QStringLiteral("trace"); }
  QString title() const override { return QStringLiteral("Trace"); }
  QList<QAction*> menuActions() const override;
  QString menuTitle() const override { return QStringLiteral("T&race"); }
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  // Traces the first lesson and shows its key step.
  void prepareScreenshot() override;

  const LessonCatalog& catalog() const noexcept { return m_catalog; }
  // Loads lesson `id` into the controls and traces it; once the trace arrives the page shows
  // the lesson's key step (or `step` when given).
  bool loadLesson(const QString& id);
  // Loads lesson `id` into the controls (its query, operator, algorithms, k and switches) and its
  // text into the lesson panel, without tracing: Trace then runs it and opens at its key step.
  bool showLesson(const QString& id);
  // Traces what the controls describe; false (and a notice) when there is no query. A lesson
  // stays picked only while the controls still describe it (lessonApplies); otherwise the page
  // leaves lesson mode first: its text and steps would describe another trace.
  bool runTrace();
  // Traces `text` on the open index (Explore's "Trace this query") as it was searched: its
  // operator, k, algorithm (auto included) and switches, the comparison left as it is; leaves any
  // lesson. False (and a notice) as runTrace().
  bool traceQuery(const QString& text, engine::Operator op, int k, engine::Algorithm algorithm,
                  const engine::SearchOptions& options = {});
  TraceParams currentParams() const;
  // The lesson picked (empty: a free query).
  QString lessonId() const;
  // Whether the controls describe `lesson`: its query on the teaching corpus with its operator,
  // k and switches, under one of its algorithms (the compared one may differ).
  bool lessonApplies(const Lesson& lesson) const;
  // Events kept per traced run (TraceParams::kDefaultMaxEvents unless changed).
  void setMaxEvents(std::size_t maxEvents) { m_maxEvents = maxEvents; }

  // Stepping. Every path ends in setStep(), which updates picture, narrative, heap, slider and
  // event list together.
  void setStep(std::size_t step);
  std::size_t step() const noexcept { return m_step; }
  std::size_t stepCount() const noexcept;
  void stepForward();
  void stepBack();
  // Moves to the next (or previous) event of one of `kinds`; false (no move) when there is none.
  bool nextOfKind(std::initializer_list<engine::TraceEventKind> kinds, bool backwards = false);
  bool nextSkip();
  bool nextHeapInsert();
  void setPlaying(bool playing);
  bool isPlaying() const noexcept { return m_playTimer.isActive(); }
  // Events per second while playing.
  void setPlaySpeed(int eventsPerSecond);
  // The lanes' doc-id view (both pictures in comparison mode): zoom in (direction > 0) or out by
  // a factor of two, pan by a quarter view (direction < 0: left), back to the fitted view. Limits
  // are the lanes view's (TraceLanesView::extent(), kMinSpan).
  void zoomView(int direction);
  void panView(int direction);
  void fitView();

  // Exports. JSON: the engine's trace (what `search --trace` writes). Images: one PNG per step
  // from the current one (at most `maxSteps`). PDF: one page per step likewise. Return false and
  // set `error` on failure.
  bool exportJson(const QString& path, QString* error = nullptr) const;
  int exportImages(const QString& dir, int maxSteps = kMaxExportSteps, QString* error = nullptr) const;
  int exportPdf(const QString& path, int maxSteps = kMaxExportSteps, QString* error = nullptr) const;

  TraceController* controller() const noexcept { return m_controller; }
  const widgets::TraceSnapshotPtr& snapshot() const noexcept { return m_snapshot; }
  widgets::TraceLanesView* lanesView() const noexcept { return m_lanes; }
  widgets::TraceLanesView* compareLanesView() const noexcept { return m_lanesB; }
  QTableView* eventView() const noexcept { return m_events; }
  widgets::TraceEventModel* eventModel() const noexcept { return m_eventModel; }
  QLabel* narrativeLabel() const noexcept { return m_narrative; }
  QTableWidget* heapTable() const noexcept { return m_heap; }
  widgets::NoticeBar* notice() const noexcept { return m_notice; }
  QComboBox* lessonBox() const noexcept { return m_lesson; }
  QLineEdit* queryEdit() const noexcept { return m_query; }
  QComboBox* corpusBox() const noexcept { return m_corpus; }
  QComboBox* algorithmBox() const noexcept { return m_algorithm; }
  QComboBox* operatorBox() const noexcept { return m_operator; }
  QComboBox* compareBox() const noexcept { return m_compare; }
  QSpinBox* kBox() const noexcept { return m_k; }
  widgets::SwitchesButton* switchesButton() const noexcept { return m_switches; }
  QPushButton* traceButton() const noexcept { return m_traceButton; }
  QToolButton* playButton() const noexcept { return m_play; }
  QLabel* lessonLabel() const noexcept { return m_lessonText; }
  // The lesson's Watch line (its step links), under the text; hidden for a free query.
  QLabel* lessonWatchLabel() const noexcept { return m_lessonWatch; }

  static constexpr int kMaxExportSteps = 200;
  static constexpr std::size_t kHeapRows = 50;
  // Below kShortPageHeight (the default 1280x800 window with the log open) the event list opens
  // at kShortEventRows rows at least, so the two lane pictures of comparison mode keep room for
  // their meters and labels. The lesson panel beside it is at least kLessonMinWidth wide, and the
  // row grows to the lesson's text up to kMaxBottomPercent of the room under the controls.
  static constexpr int kShortPageHeight = 700;
  static constexpr int kLessonMargin = 6;
  static constexpr int kLessonMinWidth = 320;
  static constexpr int kMaxBottomPercent = 40;
  static constexpr int kEventRows = 6;
  static constexpr int kShortEventRows = 4;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 signals:
  void stepChanged(std::size_t step);
  void traceShown();

 private:
  void buildControls();
  void buildPanels();
  void fillAlgorithms();
  void onLessonPicked(int index);
  // Enter in the query box, the Trace button, a lesson picked: trace, then give the keyboard to
  // the event list, where the step keys work (in the query box they would type).
  bool traceFromControls();
  void leaveLesson(const Lesson& lesson);
  // Splitter sizes on first show (fitEventColumns, fitLessonText).
  void sizePanels();
  // The event list as wide as its columns, the lesson panel beside it the rest.
  void fitEventColumns();
  // In comparison mode one doc-id axis, under the lower picture, while both show the same range.
  void syncAxes();
  void onTraceReady(const widgets::TraceSnapshotPtr& snapshot);
  void onTraceFailed(quint64 generation, const QString& message);
  void onEventActivated();
  void updateLessonText();
  // Sizes the row of the event list and the lesson panel to the lesson's text and Watch line, at
  // least kEventRows rows (kShortEventRows on a short page), at most kMaxBottomPercent of the
  // splitter; the text scrolls beyond, the Watch line stays whole. Not after the user moved the
  // row's handle, until the next lesson.
  void fitLessonText();
  void updateHeap();
  // The narrative line of the current step (the hint when nothing is traced).
  void updateNarrative();
  std::size_t compareStepFor(std::size_t step) const;
  QImage renderStep(std::size_t step, const QSize& size) const;

  WorkbenchContext m_context;
  TraceController* m_controller = nullptr;
  LessonCatalog m_catalog;
  QString m_pendingLesson;  // lesson whose trace is on its way
  QString m_leftLesson;     // title of the lesson a free query left (the lesson panel says so)
  bool m_panelsSized = false;
  bool m_userSizedPanels = false;
  bool m_userSizedColumns = false;  // the event list / lesson panel divider was dragged
  bool m_screenshotPending = false;
  bool m_syncing = false;
  std::size_t m_maxEvents = TraceParams::kDefaultMaxEvents;

  widgets::TraceSnapshotPtr m_snapshot;
  std::size_t m_step = 0;
  std::vector<engine::DocId> m_compareProgress;  // per event of the compared run: doc reached

  QComboBox* m_lesson = nullptr;
  QComboBox* m_corpus = nullptr;
  QLineEdit* m_query = nullptr;
  QComboBox* m_operator = nullptr;
  QComboBox* m_algorithm = nullptr;
  QSpinBox* m_k = nullptr;
  widgets::SwitchesButton* m_switches = nullptr;
  QComboBox* m_compare = nullptr;
  QPushButton* m_traceButton = nullptr;
  QToolButton* m_exportButton = nullptr;
  QFrame* m_lessonPanel = nullptr;
  QLabel* m_lessonText = nullptr;
  QScrollArea* m_lessonScroll = nullptr;
  QLabel* m_lessonWatch = nullptr;
  widgets::NoticeBar* m_notice = nullptr;

  QToolButton* m_first = nullptr;
  QToolButton* m_back = nullptr;
  QToolButton* m_forward = nullptr;
  QToolButton* m_last = nullptr;
  QToolButton* m_nextSkip = nullptr;
  QToolButton* m_nextInsert = nullptr;
  QComboBox* m_nextKind = nullptr;
  QToolButton* m_nextKindButton = nullptr;
  QToolButton* m_play = nullptr;
  QToolButton* m_zoomOut = nullptr;
  QToolButton* m_zoomIn = nullptr;
  QToolButton* m_fit = nullptr;
  QComboBox* m_speed = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_stepLabel = nullptr;
  QLabel* m_narrative = nullptr;

  widgets::TraceLanesView* m_lanes = nullptr;
  widgets::TraceLanesView* m_lanesB = nullptr;
  QSplitter* m_vertical = nullptr;
  QSplitter* m_bottom = nullptr;  // the event list and the lesson panel
  QTableWidget* m_heap = nullptr;
  QLabel* m_heapTitle = nullptr;
  QTableView* m_counters = nullptr;
  widgets::CounterTableModel* m_counterModel = nullptr;
  QTableView* m_events = nullptr;
  widgets::TraceEventModel* m_eventModel = nullptr;

  QTimer m_playTimer;
  QList<QAction*> m_actions;
};

}  // namespace wandscope::app
