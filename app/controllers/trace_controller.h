// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/trace_job.h"
#include "widgets/models/trace_snapshot.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace wandscope::app {

class WorkerThread;
class TraceWorker;

// Runs traced queries for the Trace page on its own worker thread. Every request gets the next
// generation id; results of older generations are dropped, so what the page shows always matches
// its last request. The teaching index is built on the worker the first time a lesson (or any
// teaching query) is traced, under cacheRoot (default: the user cache directory).
// Lifecycle: traceStarted -> progress* -> traceReady | traceFailed.
class TraceController : public QObject {
  Q_OBJECT
 public:
  explicit TraceController(QObject* parent = nullptr);
  ~TraceController() override;

  // The workbench's open index, for traces with params.teaching == false.
  void setIndex(IndexHandlePtr index) { m_index = std::move(index); }
  const IndexHandlePtr& index() const noexcept { return m_index; }
  void setCacheRoot(const QString& dir) { m_cacheRoot = dir; }

  // Starts a traced run; returns its generation.
  quint64 trace(const TraceParams& params);
  bool isBusy() const noexcept { return m_busy; }
  quint64 latestGeneration() const noexcept { return m_generation; }
  const widgets::TraceSnapshotPtr& lastSnapshot() const noexcept { return m_last; }

  static constexpr unsigned long kShutdownWaitMs = 10'000;

 signals:
  void traceStarted(quint64 generation);
  void progress(const QString& what);
  void traceReady(const wandscope::widgets::TraceSnapshotPtr& snapshot);
  void traceFailed(quint64 generation, const QString& message);
  void busyChanged(bool busy);

 private:
  void setBusy(bool busy);

  std::unique_ptr<WorkerThread> m_thread;  // every hand-off to and from m_worker (worker_thread.h)
  TraceWorker* m_worker = nullptr;
  IndexHandlePtr m_index;
  QString m_cacheRoot;
  quint64 m_generation = 0;
  std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
  bool m_busy = false;
  widgets::TraceSnapshotPtr m_last;
};

}  // namespace wandscope::app
