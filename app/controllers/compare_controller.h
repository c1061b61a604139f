// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/compare_job.h"
#include "widgets/models/query_diff_snapshot.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <stop_token>

namespace wandscope::app {

class WorkerThread;
class CompareWorker;

// Runs Compare page comparisons on its own worker thread (STYLE.md, "one worker per run"):
// start() hands the job to the CompareWorker, stop() triggers its std::stop_token (the runner
// stops between blocks; the partial report still arrives through compareFinished). One comparison
// at a time. Finished query sets arrive one by one (their message line and table rows), for an
// open-loop profile a latency point per rung, the report at the end, then the queries of the
// diff session; requestQueryDiff() asks for one query answered by both targets. Everything is
// stamped with the comparison's generation and anything from an older one is dropped. The GUI
// thread never waits on the worker, except for a bounded wait at shutdown after asking it to stop.
class CompareController : public QObject {
  Q_OBJECT
 public:
  explicit CompareController(QObject* parent = nullptr);
  ~CompareController() override;

  // The default dataset cache (empty: the user cache directory), shared with the Index page.
  void setCacheRoot(const QString& root) { m_cacheRoot = root; }
  const QString& cacheRoot() const noexcept { return m_cacheRoot; }

  // Starts a comparison (the job's generation, cache and stop token are set here); false (and
  // compareFailed) when one is already running.
  bool start(CompareJob job);
  void stop();
  bool isRunning() const noexcept { return m_running; }
  quint64 generation() const noexcept { return m_generation; }
  const CompareReportPtr& lastReport() const noexcept { return m_last; }
  const CompareQuerySetsPtr& querySets() const noexcept { return m_sets; }

  // Asks for query `query` of set `set` (indexes into querySets()) of the latest comparison,
  // answered by A and target `versus` (1 = B, 2 = B2, ...); answered by queryDiffReady or
  // queryDiffFailed. Earlier requests still queued are superseded.
  void requestQueryDiff(int set, int query, int versus = 1);

  static constexpr unsigned long kShutdownWaitMs = 30'000;

 signals:
  // The comparison's targets: A, B, B2, ...
  void compareStarted(quint64 generation, const QStringList& targets);
  void message(const QString& text);
  void setFinished(const wandscope::app::CompareSetRowsPtr& rows);
  // Open loop: after each rung of the ladders, its target's latency at that rate so far.
  void openLatency(const wandscope::engine::OpenLatencyPoint& point);
  void compareFinished(const wandscope::app::CompareReportPtr& report);
  void compareFailed(const QString& message);
  void runningChanged(bool running);
  void queriesReady(const wandscope::app::CompareQuerySetsPtr& sets);
  void queryDiffReady(const wandscope::widgets::QueryDiffSnapshotPtr& snapshot);
  void queryDiffFailed(const QString& message);

 private:
  void setRunning(bool running);

  std::unique_ptr<WorkerThread> m_thread;  // every hand-off to and from m_worker (worker_thread.h)
  CompareWorker* m_worker = nullptr;
  QString m_cacheRoot;
  std::stop_source m_stop;
  std::stop_source m_sessionStop;  // CompareJob::sessionStop: shutdown and the next start only
  quint64 m_generation = 0;
  // The newest requestQueryDiff: requests still queued behind a newer one are skipped.
  std::shared_ptr<std::atomic<quint64>> m_latestDiff;
  bool m_running = false;
  CompareReportPtr m_last;
  CompareQuerySetsPtr m_sets;
};

}  // namespace wandscope::app
