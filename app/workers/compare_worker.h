// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/compare_job.h"
#include "widgets/models/query_diff_snapshot.h"

#include <QObject>

#include <memory>

namespace wandscope::app {

// Runs Compare page comparisons on the thread it lives in (CompareController's worker thread):
// engine::CompareRunner exactly as `wandscope-cli compare` runs it, reporting each finished query
// set (its message line and its table rows), or for an open-loop profile each rung's pooled
// latency, as it goes and the report at the end. Afterwards it keeps the targets prepared on
// the same dataset and query sets (a "diff session"), so the page can ask for any query's answers
// from A and one B side by side, with explain where the target provides it: the built-in engine
// (engine::explainHits) and plugin builds (the ABI's explain); peers do not. Everything it emits
// carries the job's generation; signals are queued to the GUI thread. A run stops between blocks
// when the job's stop token is triggered (partial report).
class CompareWorker : public QObject {
  Q_OBJECT
 public:
  explicit CompareWorker(QObject* parent = nullptr);
  ~CompareWorker() override;

  void run(const CompareJob& job);
  // Query `query` of query set `set` (indexes into queriesReady's list) of comparison `generation`,
  // answered by A and by target `versus` (1 = B, 2 = B2, ...).
  void diffQuery(quint64 generation, int set, int query, int versus = 1);

 signals:
  void message(quint64 generation, const QString& text);
  void setFinished(quint64 generation, const wandscope::app::CompareSetRowsPtr& rows);
  // Open loop: a target's pooled latency at a rate after each rung (engine::OpenLatencyPoint).
  void openLatency(quint64 generation, const wandscope::engine::OpenLatencyPoint& point);
  void finished(quint64 generation, const wandscope::app::CompareReportPtr& report);
  void failed(quint64 generation, const QString& message);
  // The diff session is ready: the query sets and their queries.
  void queriesReady(quint64 generation, const wandscope::app::CompareQuerySetsPtr& sets);
  void queryDiffReady(const wandscope::widgets::QueryDiffSnapshotPtr& snapshot);
  void queryDiffFailed(quint64 generation, const QString& message);

 private:
  struct Session;
  void openSession(const CompareJob& job);
  widgets::DiffSide answer(std::size_t side, int set, int query);

  std::unique_ptr<Session> m_session;
};

}  // namespace wandscope::app
