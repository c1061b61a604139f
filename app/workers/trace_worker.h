// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/trace_job.h"
#include "widgets/models/trace_snapshot.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace wandscope::app {

// Runs traced queries on the thread it lives in (TraceController's worker thread): builds and
// opens the teaching index on first use (cached under the cache root, keyed by the corpus's
// hash), runs the query with the engine's TraceRecorder under one or two algorithms, reads the
// query terms' blocks and postings for the lanes, and hands everything over as one immutable
// TraceSnapshot. Jobs older than the controller's latest generation are skipped.
class TraceWorker : public QObject {
  Q_OBJECT
 public:
  explicit TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, QObject* parent = nullptr);

  void run(const TraceJob& job);

  // Postings read per lane at most; longer lists are drawn as blocks only.
  static constexpr std::uint64_t kMaxLanePostings = 200'000;

 signals:
  void started(quint64 generation, const QString& what);
  void finished(const wandscope::widgets::TraceSnapshotPtr& snapshot);
  void failed(quint64 generation, const QString& message);

 private:
  IndexHandlePtr teachingIndex(const QString& cacheRoot);

  std::shared_ptr<const std::atomic<quint64>> m_latest;
  IndexHandlePtr m_teaching;
};

}  // namespace wandscope::app
