// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/load_job.h"
#include "widgets/models/live_batch.h"

#include <QObject>

namespace wandscope::app {

// Runs Load page benchmarks on the thread it lives in (LoadController's worker thread):
// engine::BenchRunner with a QtLiveSink for the plots and a StoreRunObserver that records the run
// as it happens (labelled as measured with the GUI attached). Everything it emits carries the
// job's generation; signals are queued to the GUI thread. The run stops between requests when
// the job's stop token is triggered; what finished comes back as a partial report.
class LoadWorker : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  void run(const LoadJob& job);

 signals:
  void liveBatch(const wandscope::widgets::LiveBatchPtr& batch);
  void rungFinished(quint64 generation, const wandscope::engine::RungResult& rung);
  void message(quint64 generation, const QString& text);
  void finished(quint64 generation, const wandscope::app::RunReportPtr& report);
  void failed(quint64 generation, const QString& message);
};

}  // namespace wandscope::app
