// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_request.h"
#include "widgets/models/trace_snapshot.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace wandscope::app {

// A step of a lesson's trace worth watching: the nth event of a kind (and reason), with a line
// saying what to look at.
struct LessonStep {
  QString kind;    // the engine's event name: "pivot", "block_skipped", ...
  QString reason;  // "" = any
  int nth = 1;
  QString say;
};

// One lesson of docs/teaching/lessons.json: a query on the teaching corpus, the algorithms that
// show it (the first is the one to watch), one to compare with, the explanation and the steps.
struct Lesson {
  QString id;
  QString title;
  QString query;
  engine::Operator op = engine::Operator::Or;
  QList<engine::Algorithm> algorithms;
  std::optional<engine::Algorithm> compare;
  int k = 10;
  // SearchOptions switches the lesson runs with ("rank_floor=off": the lessons show the floor
  // rising from -inf, as the classic algorithms start).
  engine::SearchOptions options;
  QString text;
  QList<LessonStep> watch;
  LessonStep keyStep;
  QString markdown;  // docs/teaching/<id>.md (empty when not embedded)
};

// The lessons embedded in the workbench (":/teaching/lessons.json") or read from a file.
class LessonCatalog {
 public:
  // Parses `path` (a Qt resource path or a file); on failure returns an empty catalog and sets
  // `error`.
  static LessonCatalog load(const QString& path = QStringLiteral(":/teaching/lessons.json"),
                            QString* error = nullptr);

  const QList<Lesson>& lessons() const noexcept { return m_lessons; }
  const Lesson* find(const QString& id) const;

  // The index of the event `step` names in `run`, or -1 when the trace has no such event.
  static long findStep(const widgets::TraceRun& run, const LessonStep& step);

 private:
  QList<Lesson> m_lessons;
};

}  // namespace wandscope::app
