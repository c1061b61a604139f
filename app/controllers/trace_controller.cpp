// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/trace_controller.h"

#include "app/workers/trace_worker.h"
#include "app/workers/worker_thread.h"
#include "engine/core/log.h"

#include <limits>

namespace wandscope::app {

TraceController::TraceController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<widgets::TraceSnapshotPtr>();
  m_thread = std::make_unique<WorkerThread>(QStringLiteral("wandscope-trace"));
  m_worker = new TraceWorker(m_latest);
  m_thread->connect(m_worker, &TraceWorker::started, this, [this](quint64 generation, const QString& what) {
    if (generation == m_generation) emit progress(what);
  });
  m_thread->connect(m_worker, &TraceWorker::finished, this, [this](const widgets::TraceSnapshotPtr& snapshot) {
    if (!snapshot || snapshot->generation != m_generation) return;  // stale
    m_last = snapshot;
    setBusy(false);
    emit traceReady(snapshot);
  });
  m_thread->connect(m_worker, &TraceWorker::failed, this, [this](quint64 generation, const QString& message) {
    if (generation != m_generation) return;
    setBusy(false);
    emit traceFailed(generation, message);
  });
  m_thread->start(m_worker);
}

TraceController::~TraceController() {
  m_latest->store(std::numeric_limits<quint64>::max());
  if (m_thread->quitAndWait(kShutdownWaitMs)) {
    delete m_worker;
  } else {
    engine::log::warn("the trace worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

quint64 TraceController::trace(const TraceParams& params) {
  const quint64 generation = ++m_generation;
  m_latest->store(generation);
  TraceJob job{generation, m_index, unshared(m_cacheRoot), params};
  job.params.text = unshared(job.params.text);  // the page keeps its copies
  job.params.lessonId = unshared(job.params.lessonId);
  setBusy(true);
  emit traceStarted(generation);
  m_thread->post([w = m_worker, job] { w->run(job); });
  return generation;
}

void TraceController::setBusy(bool busy) {
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

}  // namespace wandscope::app
