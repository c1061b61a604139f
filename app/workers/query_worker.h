// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/query_job.h"
#include "widgets/models/search_snapshot.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace wandscope::app {

// Runs Explore queries on the thread it lives in (QueryController's worker thread): the search
// (timed: wall and thread CPU), the optional comparison run, explain, stored text and snippets,
// and hands the result over as one immutable SearchSnapshot.
//
// Staleness (hotspot's jobtracker pattern): `latest` is the controller's newest generation. A job
// older than it is skipped before it starts and abandoned between its steps (a search itself
// cannot be interrupted, so at most one stale search finishes; its result is dropped).
class QueryWorker : public QObject {
  Q_OBJECT
 public:
  explicit QueryWorker(std::shared_ptr<const std::atomic<quint64>> latest, QObject* parent = nullptr);

  void run(const QueryJob& job);

 signals:
  void finished(const wandscope::widgets::SearchSnapshotPtr& snapshot);
  void failed(quint64 generation, const QString& message);
  void dropped(quint64 generation);

 private:
  bool stale(quint64 generation) const noexcept { return generation < m_latest->load(); }
  widgets::SearchSnapshotPtr execute(const QueryJob& job);

  std::shared_ptr<const std::atomic<quint64>> m_latest;
};

}  // namespace wandscope::app
