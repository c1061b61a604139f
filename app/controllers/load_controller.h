// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/load_job.h"
#include "widgets/models/live_batch.h"

#include <QObject>
#include <QString>

#include <memory>
#include <stop_token>

namespace wandscope::app {

class WorkerThread;
class LoadWorker;

// Runs benchmark profiles for the Load page on its own worker thread (STYLE.md, "one worker per
// run"): start() hands the profile to the LoadWorker, stop() triggers the run's std::stop_token
// (the current rung ends partial; the partial report still arrives through runFinished). One run
// at a time. Live ticks arrive as coalesced LiveBatches (<= 20 a second), finished rungs one by
// one, the report at the end; everything is stamped with the run's generation and anything from
// an older run is dropped. The GUI thread never waits on the run, except for a bounded wait at
// shutdown after asking it to stop.
class LoadController : public QObject {
  Q_OBJECT
 public:
  explicit LoadController(QObject* parent = nullptr);
  ~LoadController() override;

  // The run store the runs are recorded in; empty: not recorded.
  void setStorePath(const QString& path) { m_storePath = path; }
  const QString& storePath() const noexcept { return m_storePath; }
  // The default dataset cache (empty: the user cache directory), shared with the Index page.
  void setCacheRoot(const QString& root) { m_cacheRoot = root; }
  const QString& cacheRoot() const noexcept { return m_cacheRoot; }

  // Starts a run; false (and runFailed) when one is already running.
  bool start(engine::BenchProfile profile);
  // Asks the running run to stop; it finishes partial.
  void stop();
  bool isRunning() const noexcept { return m_running; }
  bool isStopping() const noexcept { return m_running && m_stop.stop_requested(); }
  quint64 generation() const noexcept { return m_generation; }
  // The newest finished run (nullptr before the first).
  const RunReportPtr& lastReport() const noexcept { return m_last; }

  static constexpr unsigned long kShutdownWaitMs = 30'000;

 signals:
  void runStarted(quint64 generation, const QString& profileName);
  void liveBatchReady(const wandscope::widgets::LiveBatchPtr& batch);
  void rungFinished(const wandscope::engine::RungResult& rung);
  void message(const QString& text);
  void runFinished(const wandscope::app::RunReportPtr& report);
  void runFailed(const QString& message);
  void runningChanged(bool running);

 private:
  void onBatch(const widgets::LiveBatchPtr& batch);
  void onRung(quint64 generation, const engine::RungResult& rung);
  void onMessage(quint64 generation, const QString& text);
  void onFinished(quint64 generation, const RunReportPtr& report);
  void onFailed(quint64 generation, const QString& message);
  void setRunning(bool running);

  std::unique_ptr<WorkerThread> m_thread;  // every hand-off to and from m_worker (worker_thread.h)
  LoadWorker* m_worker = nullptr;
  QString m_storePath;
  QString m_cacheRoot;
  std::stop_source m_stop;
  quint64 m_generation = 0;
  bool m_running = false;
  RunReportPtr m_last;
};

}  // namespace wandscope::app
