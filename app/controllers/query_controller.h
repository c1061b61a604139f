// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/query_job.h"
#include "widgets/models/search_snapshot.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace wandscope::app {

class WorkerThread;
class QueryWorker;

// Search as you type. setParams() restarts a debounce timer, so a burst of keystrokes becomes one
// request; submit() sends at once. Every request gets the next generation id; the worker skips
// requests that are already stale and the controller drops any result that is not from the
// newest generation, so what is shown always matches the query box. Results arrive as immutable
// SearchSnapshots through queued signals; the GUI thread never waits for a search.
class QueryController : public QObject {
  Q_OBJECT
 public:
  explicit QueryController(QObject* parent = nullptr);
  ~QueryController() override;

  // The index to search; re-runs the current query on it.
  void setIndex(IndexHandlePtr index);
  const IndexHandlePtr& index() const noexcept { return m_index; }

  // Debounced: the request goes out kDebounceMs after the last call.
  void setParams(const QueryParams& params);
  // Immediate.
  void submit(const QueryParams& params);
  // Runs the current parameters again (a new generation, e.g. to re-time a query).
  void rerun();
  const QueryParams& params() const noexcept { return m_params; }

  void setDebounceInterval(int ms) { m_debounce.setInterval(ms); }
  quint64 latestGeneration() const noexcept { return m_generation; }
  bool isSearching() const noexcept { return m_searching; }
  // The newest snapshot shown (nullptr before the first result or after clearing).
  const widgets::SearchSnapshotPtr& lastSnapshot() const noexcept { return m_last; }
  // Runs `fn` on the worker thread after the searches sent so far and before any sent later. For
  // tests: a function that holds the worker keeps the next search in flight as long as it likes
  // (a slow search, without an index big enough to be slow). It must return before shutdown.
  void runOnWorkerThread(std::function<void()> fn);

  static constexpr int kDebounceMs = 150;
  static constexpr unsigned long kShutdownWaitMs = 5'000;

 signals:
  void searchStarted(quint64 generation);
  void resultsReady(const wandscope::widgets::SearchSnapshotPtr& snapshot);
  void searchFailed(quint64 generation, const QString& message);
  // The query box is empty (or there is no index): nothing to show.
  void cleared();
  void searchingChanged(bool searching);

 private:
  void dispatch();
  void setSearching(bool searching);
  void onFinished(const widgets::SearchSnapshotPtr& snapshot);
  void onFailed(quint64 generation, const QString& message);
  void onDropped(quint64 generation);

  std::unique_ptr<WorkerThread> m_thread;  // every hand-off to and from m_worker (worker_thread.h)
  QueryWorker* m_worker = nullptr;
  QTimer m_debounce;
  QueryParams m_params;
  IndexHandlePtr m_index;
  quint64 m_generation = 0;
  std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
  bool m_searching = false;
  widgets::SearchSnapshotPtr m_last;
};

}  // namespace wandscope::app
