// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/index_handle.h"
#include "app/workers/index_jobs.h"

#include <QObject>
#include <QString>

#include <memory>
#include <stop_token>

namespace wandscope::app {

class WorkerThread;
class IndexWorker;

// Owns the index worker thread and the current index. One job at a time: starting a job cancels
// the running one (its late signals are dropped by job id). The GUI thread never waits: requests
// are queued to the worker, results come back as queued signals carrying immutable handles.
// Lifecycle signals: jobStarted -> progressChanged* -> (indexChanged + jobFinished) | jobFailed |
// jobCancelled.
class IndexController : public QObject {
  Q_OBJECT
 public:
  explicit IndexController(QObject* parent = nullptr);
  // Requests stop, then waits a bounded time for the worker thread (the one allowed wait).
  ~IndexController() override;

  void openIndex(const QString& dir);
  void buildIndex(const BuildRequest& request);
  void generateCorpus(const GenerateRequest& request);
  // The embedded default dataset (generated and indexed on first use, cached): `cacheRoot` empty
  // means engine::userCacheDir().
  void openDefault(quint64 docs = kDefaultDocs, const QString& cacheRoot = {});
  // Cancels the running job, if any (returns at once; jobCancelled follows).
  void cancel();

  bool isBusy() const noexcept { return m_busy; }
  QString currentJob() const { return m_description; }
  IndexHandlePtr current() const { return m_current; }
  QString currentPath() const;
  const DefaultDatasetInfo& defaultDataset() const noexcept { return m_default; }

  static constexpr quint64 kDefaultDocs = 200'000;
  static constexpr unsigned long kShutdownWaitMs = 10'000;

 signals:
  void jobStarted(const QString& description);
  void progressChanged(const QString& stage, quint64 done, quint64 total);
  void jobFinished(const QString& message);
  void jobFailed(const QString& message);
  // `kept`: what the cancelled job completed and left in place (IndexWorker::cancelled), empty
  // when nothing was changed.
  void jobCancelled(const QString& kept);
  void busyChanged(bool busy);
  void indexChanged(const wandscope::app::IndexHandlePtr& handle);
  void defaultDatasetReady(const wandscope::app::DefaultDatasetInfo& info);

 private:
  // Cancels the running job, starts bookkeeping for a new one; returns its id and stop token.
  std::pair<quint64, std::stop_token> startJob(const QString& description);
  void setBusy(bool busy);
  void onProgress(quint64 job, const QString& stage, quint64 done, quint64 total);
  void onOpened(quint64 job, const IndexHandlePtr& handle, const QString& message);
  void onDefaultPrepared(quint64 job, const DefaultDatasetInfo& info);
  void onFailed(quint64 job, const QString& message);
  void onCancelled(quint64 job, const QString& kept);

  std::unique_ptr<WorkerThread> m_thread;  // every hand-off to and from m_worker (worker_thread.h)
  IndexWorker* m_worker = nullptr;
  quint64 m_job = 0;
  std::stop_source m_stop;
  bool m_busy = false;
  QString m_description;
  IndexHandlePtr m_current;
  DefaultDatasetInfo m_default;
};

}  // namespace wandscope::app
